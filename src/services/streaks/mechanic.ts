import type { Sql } from '../../db/tx.ts';
import type { EngineMechanic, MechanicBatch } from '../flows/engine/mechanics.ts';
import type { EventRow, ParticipantState } from '../flows/engine/types.ts';
import { programFrom } from '../points/program.ts';
import { rulesOf } from './definitions.ts';
import { advance, dueAt, extend, PeriodFinder, type StreakRules, type StreakState } from './rules.ts';
import { type DefinitionRow, type StateWrite, stateOf, writeStreakStates } from './state.sql.ts';

interface Definition {
  id: number;
  key: string;
  eventTypes: Set<string>;
  rules: StreakRules;
}

/** What the streaks mechanic holds for one batch. */
interface StreaksState {
  /** Running definitions by `workspace/mode`. */
  defs: Map<string, Definition[]>;
  /** The programme's time zone by `workspace/mode` (a participant's own wins). */
  timezones: Map<string, string>;
  /** States by `participant/streak`; absent: never extended. */
  states: Map<string, StreakState>;
  /** The writes so far, by `participant/streak`. */
  writes: Map<string, StateWrite>;
  /** What each event changed, to undo if its attempt fails. */
  undo: Map<string, { key: string; state: StreakState | undefined; write: StateWrite | undefined }[]>;
  finder: PeriodFinder;
}

const scopeKey = (x: { workspaceId: string; mode: string }) => `${x.workspaceId}/${x.mode}`;

function definitionsOf(rows: DefinitionRow[]): Map<string, Definition[]> {
  const defs = new Map<string, Definition[]>();
  for (const r of rows) {
    const scope = `${r.workspace_id}/${r.mode}`;
    defs.set(scope, [
      ...(defs.get(scope) ?? []),
      { id: Number(r.id), key: r.key, eventTypes: new Set(r.event_types), rules: rulesOf(r) },
    ]);
  }
  return defs;
}

/**
 * Streaks in the engine (docs/engagement.md#streaks): an event of a streak's types extends it
 * once per period of its `occurred_at` in the participant's time zone, before the event's flows
 * run, so their conditions read the new length (`{"streak": key}`). The batch's running streaks
 * and states come with its one programme read (points/mechanic.ts loadBatchProgramme); one
 * statement writes what changed (with `streak.extended` and `streak.broken`), none when nothing did.
 */
export const streaksMechanic: EngineMechanic<StreaksState> = {
  name: 'streaks',

  async load(_sql: Sql, batch: MechanicBatch): Promise<StreaksState> {
    const raw = { defs: batch.programme.streaks, states: batch.programme.streakStates };
    const defs = definitionsOf(raw.defs);
    const timezones = new Map<string, string>();
    for (const scope of defs.keys())
      timezones.set(scope, programFrom(batch.programme.settings.get(scope)).timezone);
    const states = new Map<string, StreakState>();
    for (const r of raw.states) states.set(`${r.participant_id}/${r.streak_id}`, stateOf(r));
    const state: StreaksState = {
      defs,
      timezones,
      states,
      writes: new Map(),
      undo: new Map(),
      finder: new PeriodFinder(),
    };
    return state;
  },

  beforeFlows(state: StreaksState, e: EventRow, p: ParticipantState): void {
    const defs = state.defs.get(scopeKey(p));
    if (!defs) return;
    const timezone = p.timezone ?? state.timezones.get(scopeKey(p))!;
    for (const def of defs) {
      const k = `${p.id}/${def.id}`;
      const period = state.finder.periodOf(e.occurredAt, def.rules.frequency, timezone);
      const before = state.states.get(k);
      // Not this streak's event (an idle spell's stand-in never is): conditions read its length as
      // of this event's period.
      if (!def.eventTypes.has(e.eventType) || e.spellAt !== undefined) {
        p.streaks.set(def.key, before ? advance(before, def.rules, period).state.length : 0);
        continue;
      }
      const out = extend(before ?? null, def.rules, period);
      if (!out) {
        p.streaks.set(def.key, before ? advance(before, def.rules, period).state.length : 0);
        continue;
      }
      const undo = state.undo.get(e.id) ?? [];
      undo.push({ key: k, state: before, write: state.writes.get(k) });
      state.undo.set(e.id, undo);
      const prior = state.writes.get(k);
      state.states.set(k, out.state);
      state.writes.set(k, {
        workspaceId: p.workspaceId,
        mode: p.mode,
        participantId: p.id,
        externalId: p.externalId,
        streakId: def.id,
        key: def.key,
        state: out.state,
        dueAt: dueAt(out.state, def.rules, timezone),
        changes: [...(prior?.changes ?? []), ...out.changes],
      });
      p.streaks.set(def.key, out.state.length);
    }
  },

  onFail(state: StreaksState, e: EventRow, p: ParticipantState): void {
    const undo = state.undo.get(e.id);
    if (!undo) return;
    for (const u of undo.reverse()) {
      if (u.state) state.states.set(u.key, u.state);
      else state.states.delete(u.key);
      if (u.write) state.writes.set(u.key, u.write);
      else state.writes.delete(u.key);
    }
    state.undo.delete(e.id);
    for (const def of state.defs.get(scopeKey(p)) ?? []) {
      const s = state.states.get(`${p.id}/${def.id}`);
      p.streaks.set(def.key, s?.length ?? 0);
    }
  },

  onEvent(): void {},

  async write(sql: Sql, state: StreaksState): Promise<void> {
    await writeStreakStates(sql, [...state.writes.values()]);
  },
};
