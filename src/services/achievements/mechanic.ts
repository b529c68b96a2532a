import type { Sql } from '../../db/tx.ts';
import type { EngineMechanic, MechanicBatch } from '../flows/engine/mechanics.ts';
import type { EventRow, ParticipantState } from '../flows/engine/types.ts';
import type { Scope } from '../keys/principal.ts';
import { type AwardAsk, awardAchievements } from './award.sql.ts';
import { achievementCatalogue } from './catalogue.ts';
import { growsOnly, windowStart } from './criteria.ts';
import type { AchievementBadge } from './repository.ts';

/** What the achievements mechanic holds for one batch. */
interface AchievementsState {
  /** The criteria badges of the batch's scopes, by `workspace/mode/event type`. */
  byType: Map<string, { badge: AchievementBadge; index: number }[]>;
  badges: AchievementBadge[];
  /** The batch's processed events some criteria count, in event order. */
  processed: EventRow[];
}

const typeKey = (x: { workspaceId: string; mode: string }, type: string) =>
  `${x.workspaceId}/${x.mode}/${type}`;

/** The asks of the batch: per badge and participant, the latest event only when progress only grows. */
function asksOf(state: AchievementsState): AwardAsk[] {
  const asks: AwardAsk[] = [];
  const latest = new Map<string, AwardAsk>();
  for (const e of state.processed)
    for (const { badge, index } of state.byType.get(typeKey(e, e.eventType)) ?? []) {
      const ask = {
        participantId: e.participantId,
        badge: index,
        at: e.occurredAt,
        since: null as Date | null,
      };
      if (!growsOnly(badge.criteria)) {
        ask.since = windowStart(badge.criteria, e.occurredAt);
        asks.push(ask);
        continue;
      }
      const k = `${e.participantId}/${index}`;
      const seen = latest.get(k);
      if (!seen || seen.at < ask.at) latest.set(k, ask);
    }
  return [...asks, ...latest.values()];
}

/**
 * Achievements in the engine (docs/engagement.md#achievements): after the batch's own write (its
 * events are `processed` by then), each badge whose criteria count one of its events is awarded
 * to the participants whose progress, counted from the events table in the window ending at that
 * event's `occurred_at`, reaches the target: once per key+tier, with a `badge.awarded` marked
 * `achievement: true`. One read of the criteria badges (none while the catalogue cache is
 * fresh) and one write, only when the batch processed an event some criteria count.
 */
export const achievementsMechanic: EngineMechanic<AchievementsState> = {
  name: 'achievements',

  async load(sql: Sql, batch: MechanicBatch): Promise<AchievementsState> {
    const scopes = new Map<string, Scope>();
    for (const e of batch.events)
      scopes.set(`${e.workspaceId}/${e.mode}`, { workspaceId: e.workspaceId, mode: e.mode });
    const catalogue = await achievementCatalogue(sql, [...scopes.values()]);
    const state: AchievementsState = { byType: new Map(), badges: [], processed: [] };
    const types = new Set(batch.events.map((e) => typeKey(e, e.eventType)));
    for (const badges of catalogue.values())
      for (const badge of badges) {
        const k = typeKey(badge, badge.criteria.event_type);
        if (!types.has(k)) continue;
        const list = state.byType.get(k) ?? [];
        list.push({ badge, index: state.badges.length });
        state.byType.set(k, list);
        state.badges.push(badge);
      }
    return state;
  },

  onEvent(state: AchievementsState, e: EventRow, p: ParticipantState): void {
    const counted = state.byType.get(typeKey(e, e.eventType));
    if (!counted) return;
    // An all-time count without `where` is the participant's processed events of the type, which
    // the batch keeps exactly in memory: below the target, nothing to ask the database.
    const count = p.counts.get(e.eventType) ?? 0;
    if (
      counted.every(({ badge: b }) => growsOnly(b.criteria) && !b.criteria.where && count < b.criteria.target)
    )
      return;
    state.processed.push(e);
  },

  async write(sql: Sql, state: AchievementsState): Promise<void> {
    if (!state.processed.length) return;
    await awardAchievements(sql, state.badges, asksOf(state));
  },
};
