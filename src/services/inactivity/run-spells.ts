import type { PgBoss } from 'pg-boss';
import type { Sql } from '../../db/tx.ts';
import { uuidv7 } from '../../lib/uuid7.ts';
import { type BatchState, emptyPlan, type PlannedRun, runFlow } from '../flows/engine/evaluate.ts';
import { ensureBadges, lockParticipantsById } from '../flows/engine/load.ts';
import { loadMechanics, writeMechanics } from '../flows/engine/mechanics.ts';
import { messageSender } from '../flows/engine/send-message.ts';
import { type EventRow, type FlowRow, flowKey, spellKey } from '../flows/engine/types.ts';
import { writePlan } from '../flows/engine/write.ts';
import { addDuration, dateOf, instantOf } from '../points/rules.ts';
import { INACTIVITY, type InactivityTrigger } from './shapes.ts';
import { loadSpellRows, type SpellQuery } from './spells.sql.ts';

/** An active inactivity flow as the job runs it. */
export interface InactivityFlow {
  /** As the engine runs flows; its `eventType` is `inactivity`. */
  flow: FlowRow;
  trigger: InactivityTrigger;
}

/** The instants one tick works with, for one flow. */
export interface SpellClock {
  now: Date;
  /** now − after, on the programme's calendar: a spell that began at or before it is due. */
  cutoff: Date;
  /** The programme's time zone, for the spell's end (spell + after). */
  timezone: string;
}

/**
 * Runs the flow for those of `ids` whose idle spell is due, in the caller's transaction
 * (docs/engagement.md#inactivity). The participants are locked in id order, as the engine locks
 * them, skipping any another transaction holds (looked at again next tick); under the locks the
 * spell is checked again, so a run happens once per spell however many workers tick. Each due
 * participant's run goes through the engine's own code: `runFlow` (run limit, conditions,
 * steps, mechanics' factors and decisions) over a stand-in event of type `inactivity` at the
 * spell's end, and the engine's writers, with derived keys made of the spell (`idle:…`). A spell
 * the flow does not run for (conditions not met, run limit reached) is recorded as a `skipped`
 * run without steps, so it is looked at once. Answers how many runs took steps.
 */
export async function runSpells(
  sql: Sql,
  f: InactivityFlow,
  ids: number[],
  clock: SpellClock,
  boss?: PgBoss,
): Promise<number> {
  const { flow, trigger } = f;
  const locked = await lockParticipantsById(sql, ids);
  if (!locked.size) return 0;
  const awarded = flow.actions.flatMap((a) =>
    a.type === 'award_badge'
      ? [{ workspaceId: flow.workspaceId, mode: flow.mode, key: a.badge, tier: a.tier ?? '' }]
      : [],
  );
  const badges = await ensureBadges(sql, awarded);
  const query: SpellQuery = {
    flowId: flow.id,
    workspaceId: flow.workspaceId,
    mode: flow.mode,
    types: trigger.event_types ?? null,
    cutoff: clock.cutoff,
  };
  const raw = await loadSpellRows(sql, {
    ...query,
    participantIds: [...locked.keys()],
    now: clock.now,
    badgeIds: [...badges.values()].map((b) => b.id),
  });
  if (!raw.due.length) return 0;

  const participants = new Map(
    raw.due.map((d) => [Number(d.participant_id), locked.get(Number(d.participant_id))!]),
  );
  for (const c of raw.counts)
    participants.get(Number(c.participant_id))?.counts.set(c.event_type, Number(c.count));
  const standIns: EventRow[] = raw.due.map((d) => ({
    id: spellKey(Number(d.participant_id), d.spell_us),
    workspaceId: flow.workspaceId,
    mode: flow.mode,
    eventType: INACTIVITY,
    participantId: Number(d.participant_id),
    payload: {},
    occurredAt: dateOf(addDuration(instantOf(new Date(d.spell_at)), trigger.after, clock.timezone)),
    spellAt: d.spell_at,
  }));
  const flows = new Map([[flowKey(flow), [flow]]]);
  // The mechanics see each spell as an event of type `inactivity` at its end: caps, pending
  // points, expiry and tier factors apply to its awards as to an event's.
  const mechanics = await loadMechanics(sql, { events: standIns, participants, flows });
  const s: BatchState = {
    participants,
    flows,
    runs: new Map(),
    runCounts: new Map(raw.run_counts.map((c) => [`${flow.id}/${c.participant_id}`, Number(c.n)])),
    badges,
    holdings: new Set(raw.holdings.map((h) => `${h.participant_id}/${h.badge_id}/${h.tier}`)),
    multipliers: new Map(raw.multipliers.map((m) => [Number(m.participant_id), Number(m.factor)])),
    ledgerKeys: new Set(),
    // There is no event to retry a failed step with: a spell's run is final at once.
    finalAttempt: new Set(standIns.map((e) => e.id)),
    mechanics,
  };

  const plan = emptyPlan();
  const sendMessage = messageSender(sql, boss);
  let ran = 0;
  for (const e of standIns) {
    const p = participants.get(e.participantId)!;
    // Conditions read streaks and windowed counts as of the spell's end; then the mechanics
    // forget the stand-in (`onFail`): a spell is not an event, nothing of theirs moves for it.
    for (const m of mechanics) m.mechanic.beforeFlows?.(m.state, e, p);
    const { run } = await runFlow(flow, e, p, s, plan, sendMessage);
    for (const m of mechanics) m.mechanic.onFail?.(m.state, e, p);
    if (run) ran++;
    else plan.runs.push(lookedAt(flow, e));
  }
  await writePlan(sql, plan, s.finalAttempt, { freshCredits: false });
  await writeMechanics(sql, mechanics, plan);
  return ran;
}

/**
 * A spell the flow did not run for: a `skipped` run with no steps marks it as looked at, with no
 * `flow.completed` (an event whose conditions fail leaves no result either).
 */
const lookedAt = (flow: FlowRow, e: EventRow): PlannedRun => ({
  id: uuidv7(),
  flowId: flow.id,
  eventId: null,
  spellAt: e.spellAt!,
  status: 'skipped',
  steps: [],
  participantId: e.participantId,
  workspaceId: flow.workspaceId,
  mode: flow.mode,
  finished: true,
});
