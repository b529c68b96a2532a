import type { Sql } from '../../db/tx.ts';
import type { EngineMechanic, MechanicBatch } from '../flows/engine/mechanics.ts';
import { type EventRow, flowKey, type ParticipantState } from '../flows/engine/types.ts';
import { type WindowUse, windowUses } from '../flows/logic.ts';
import { instantOf, subtractDuration } from '../points/rules.ts';
import { loadWindows } from './windows.sql.ts';

/** A loaded value's key: the event and the operation's arguments. */
const valueKey = (eventId: string, u: WindowUse) => `${eventId}|${u.type}|${u.path ?? ''}|${u.window ?? ''}`;

/** What the windows mechanic holds for one batch. */
interface WindowsState {
  /** The database's part of each value: processed events before this batch. */
  loaded: Map<string, number>;
  /** Each value's window start (null: all time), by its key. */
  since: Map<string, Date | null>;
  /** The batch's events processed so far, by participant, in order. */
  processed: Map<number, EventRow[]>;
}

/** A payload field as a number: non-numbers count 0 (dots split the path, as `var` does). */
function numberAt(payload: Record<string, unknown>, path: string): number {
  let v: unknown = payload;
  for (const part of path.split('.'))
    v = v && typeof v === 'object' ? (v as Record<string, unknown>)[part] : undefined;
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

/** The windowed operations the flows of this event's type use (conditions and points expressions). */
function usesOf(batch: MechanicBatch, e: EventRow): WindowUse[] {
  const uses: WindowUse[] = [];
  for (const f of batch.flows.get(flowKey(e)) ?? []) {
    windowUses(f.conditions, uses);
    for (const a of f.actions)
      if (a.type === 'award_points' && typeof a.points !== 'number') windowUses(a.points, uses);
  }
  return uses;
}

/**
 * Windowed conditions in the engine (docs/engagement.md#time-windows): `{"event_count": [type,
 * "P30D"]}` and `{"event_sum": [type, path, window?]}` count this participant's processed events in
 * the window ending at the event's `occurred_at`, this one included. The database's part is loaded
 * in one statement for the batch (none when no flow uses a window); the batch's own events
 * processed before this one are added in memory, in event order.
 */
export const windowsMechanic: EngineMechanic<WindowsState> = {
  name: 'windows',

  async load(sql: Sql, batch: MechanicBatch): Promise<WindowsState> {
    const state: WindowsState = { loaded: new Map(), since: new Map(), processed: new Map() };
    const keys: string[] = [];
    const queries: Parameters<typeof loadWindows>[1] = [];
    for (const e of batch.events) {
      for (const u of usesOf(batch, e)) {
        const k = valueKey(e.id, u);
        if (state.since.has(k)) continue;
        const since = u.window
          ? new Date(subtractDuration(instantOf(e.occurredAt), u.window, 'UTC').epochMilliseconds)
          : null;
        state.since.set(k, since);
        keys.push(k);
        queries.push({
          participantId: e.participantId,
          type: u.type,
          path: u.path ? u.path.split('.') : null,
          since,
          upto: e.occurredAt,
        });
      }
    }
    const values = await loadWindows(sql, queries);
    for (const [i, k] of keys.entries()) state.loaded.set(k, values[i]!);
    return state;
  },

  beforeFlows(state: WindowsState, e: EventRow, p: ParticipantState): void {
    p.windowed = (type, path, window) => {
      const k = valueKey(e.id, { type, path, window });
      const base = state.loaded.get(k);
      // Not loaded: an operation whose arguments are not constants.
      if (base === undefined) return 0;
      const since = state.since.get(k)?.getTime() ?? null;
      const value = (x: EventRow) => (path ? numberAt(x.payload, path) : 1);
      let total = base;
      for (const x of [...(state.processed.get(p.id) ?? []), e]) {
        const t = x.occurredAt.getTime();
        if (x.eventType === type && t <= e.occurredAt.getTime() && (since === null || t > since))
          total += value(x);
      }
      return total;
    };
  },

  onEvent(state: WindowsState, e: EventRow, p: ParticipantState): void {
    const list = state.processed.get(p.id);
    if (list) list.push(e);
    else state.processed.set(p.id, [e]);
  },

  async write(): Promise<void> {},
};
