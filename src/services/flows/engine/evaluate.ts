import { multiplyDown } from '../../../lib/multiply.ts';
import { uuidv7 } from '../../../lib/uuid7.ts';
import type { EntryToPost } from '../../ledger/post-entry.ts';
import type { ResultToEmit } from '../../outbox/emit.ts';
import type { FlowBadgeAwardedData, FlowCompletedData } from '../../outbox/result-shapes.ts';
import { evaluate, type FlowContext, type LogicOps, truthy } from '../logic.ts';
import { awardFactors, decideAward, type LoadedMechanic } from './mechanics.ts';
import {
  type BadgeRow,
  derivedKey,
  type EventRow,
  type FlowRow,
  flowKey,
  type ParticipantState,
  type RunRow,
  type Step,
} from './types.ts';

/** What one batch loaded, kept current in memory while its events are evaluated in order. */
export interface BatchState {
  participants: Map<number, ParticipantState>;
  flows: Map<string, FlowRow[]>;
  runs: Map<string, RunRow>;
  runCounts: Map<string, number>;
  badges: Map<string, BadgeRow>;
  holdings: Set<string>;
  multipliers: Map<number, number>;
  /** Derived ledger keys that already exist (resumed runs only). */
  ledgerKeys: Set<string>;
  /** Events on their last processing attempt: a failure now is final. */
  finalAttempt: ReadonlySet<string>;
  /** The mechanics of mechanics.ts, told what happens to each participant on each processed event. */
  mechanics?: LoadedMechanic[];
}

/** A run the evaluation asks to write. */
export interface PlannedRun extends Omit<RunRow, 'eventId'> {
  /** Its event; null for an inactivity run. */
  eventId: string | null;
  /** An inactivity run's idle spell, as Postgres gave it; null for an event's run. */
  spellAt: string | null;
  participantId: number;
  workspaceId: string;
  mode: string;
  finished: boolean;
}

/** The writes the evaluation asks for, done afterwards in a few statements. */
export interface BatchPlan {
  credits: { entry: EntryToPost; step: Step }[];
  badges: {
    workspaceId: string;
    mode: string;
    participantId: number;
    badgeId: number;
    tier: string;
    runId: string;
    key: string;
  }[];
  runs: PlannedRun[];
  /** Results emitted after the runs are written (badge.awarded, flow.completed). */
  results: ResultToEmit[];
  processed: EventRow[];
  /** Events whose attempt failed: id → error (final ones are stored as `failed`). */
  failed: Map<string, string>;
}

export type SendMessage = (
  p: ParticipantState,
  template: string,
  key: string,
  context: FlowContext,
) => Promise<{ id: string; status: string }>;

const contextOf = (e: EventRow, p: ParticipantState): FlowContext => ({
  event: { type: e.eventType, occurred_at: e.occurredAt.toISOString() },
  payload: e.payload,
  participant: {
    external_id: p.externalId,
    email: p.email,
    name: p.name,
    balance: p.balance,
    lifetime_points: p.lifetime,
    tier: p.tier,
  },
});

/** The custom operations as this participant's batch state answers them. */
export const opsOf = (p: ParticipantState): LogicOps => ({
  eventCount: (type, window) => (window ? p.windowed(type, null, window) : (p.counts.get(type) ?? 0)),
  eventSum: (type, path, window) => p.windowed(type, path, window ?? null),
  streak: (key) => p.streaks.get(key) ?? 0,
});

const message = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 1000);

/** A plan with nothing in it yet. */
export const emptyPlan = (): BatchPlan => ({
  credits: [],
  badges: [],
  runs: [],
  results: [],
  processed: [],
  failed: new Map(),
});

/**
 * Runs every matching flow of each event, in event order, against the in-memory state: the
 * counts, balances, run counts and badge holdings of one event are what the next event of the
 * same participant sees. A failing step fails its run and the event's attempt (the run keeps
 * the steps that succeeded; a retry resumes at the failed step, the derived keys turning the
 * done steps into no-ops).
 */
export async function evaluateBatch(
  events: EventRow[],
  s: BatchState,
  sendMessage: SendMessage,
): Promise<BatchPlan> {
  const plan = emptyPlan();
  for (const e of events) {
    const p = s.participants.get(e.participantId)!;
    p.counts.set(e.eventType, (p.counts.get(e.eventType) ?? 0) + 1);
    for (const m of s.mechanics ?? []) m.mechanic.beforeFlows?.(m.state, e, p);
    const ops = opsOf(p);
    let eventError: string | null = null;

    for (const flow of s.flows.get(flowKey(e)) ?? []) {
      const { failure } = await runFlow(flow, e, p, s, plan, sendMessage, ops);
      if (failure) eventError ??= failure;
    }
    if (eventError) {
      // Not processed after all: later events of this participant in the batch must not count it.
      p.counts.set(e.eventType, (p.counts.get(e.eventType) ?? 1) - 1);
      for (const m of s.mechanics ?? []) m.mechanic.onFail?.(m.state, e, p);
      plan.failed.set(e.id, eventError);
    } else {
      plan.processed.push(e);
      for (const m of s.mechanics ?? []) m.mechanic.onEvent(m.state, e, p);
    }
  }
  return plan;
}

/** A flow that did not run: its conditions were not met, or the run limit was reached. */
const NO_RUN = { run: null, failure: null } as const;

/**
 * One flow for one participant on one event, or on an idle spell's stand-in for one
 * (docs/engagement.md#inactivity): the run limit, the conditions, then each step in order
 * (award_points through the mechanics' factors and decisions, award_badge, send_message), into
 * `plan` and the in-memory state `s`. A prior failed run of the same event resumes at its failed
 * step. Answers the run it planned (null when the flow did not run) and the run's failure.
 */
export async function runFlow(
  flow: FlowRow,
  e: EventRow,
  p: ParticipantState,
  s: BatchState,
  plan: BatchPlan,
  sendMessage: SendMessage,
  ops: LogicOps = opsOf(p),
): Promise<{ run: PlannedRun | null; failure: string | null }> {
  const prior = s.runs.get(`${e.id}/${flow.id}`);
  if (prior && prior.status !== 'failed') return NO_RUN;
  // A run whose conditions failed to evaluate re-evaluates them; any other failed run resumes its steps.
  const resumable = prior && prior.steps[0]?.action !== 'conditions';
  let steps: Step[] | undefined = resumable ? prior.steps : undefined;
  let conditionError: string | null = null;
  if (!resumable) {
    const runsKey = `${flow.id}/${p.id}`;
    if (!prior && flow.maxRuns != null && (s.runCounts.get(runsKey) ?? 0) >= flow.maxRuns) return NO_RUN;
    let matched: boolean;
    try {
      matched = flow.conditions == null || truthy(evaluate(flow.conditions, contextOf(e, p), ops));
    } catch (err) {
      matched = true;
      conditionError = message(err);
      steps = [{ action: 'conditions', status: 'failed', result: null, error: conditionError }];
    }
    if (!matched && !prior) return NO_RUN;
    if (!matched) steps = [];
    if (!prior) s.runCounts.set(runsKey, (s.runCounts.get(runsKey) ?? 0) + 1);
  }
  const run = { id: prior?.id ?? uuidv7(), flowId: flow.id };
  // An idle spell's run has no event (docs/engagement.md#inactivity).
  const eventId = e.spellAt === undefined ? e.id : null;
  steps ??= flow.actions.map(
    (a) => ({ action: a.type, status: 'pending', result: null, error: null }) as Step,
  );
  let failure: string | null = conditionError ? `flow "${flow.name}" conditions: ${conditionError}` : null;

  for (let i = 0; i < steps.length && !failure; i++) {
    const step = steps[i]!;
    if (step.status === 'completed' || step.status === 'skipped' || step.status === 'capped') continue;
    const action = flow.actions[i];
    if (!action) break;
    const key = derivedKey(e.id, flow.id, i);
    try {
      if (action.type === 'award_points') {
        const raw =
          typeof action.points === 'number'
            ? action.points
            : Number(evaluate(action.points, contextOf(e, p), ops));
        const factor = s.multipliers.get(p.id) ?? 1;
        // A tier's earn_multiplier and an active reward multiplier multiply, rounded down once.
        const levels = awardFactors(s.mechanics, e, p);
        const earn = levels.reduce((a, b) => a * b, 1);
        const points = Number.isFinite(raw) ? multiplyDown(Math.floor(raw), [factor, ...levels]) : 0;
        // The level's factor, on the step only when there is one (results keep their shape otherwise).
        const tierFactor = earn !== 1 ? { earn_multiplier: earn } : {};
        if (points <= 0) Object.assign(step, { status: 'skipped', result: { points: 0 }, error: null });
        else {
          if (!Number.isSafeInteger(points)) throw new Error(`award_points: ${points} is out of range`);
          // Replayed (an earlier attempt credited it): the entry is returned as it was, undecided again.
          const d = s.ledgerKeys.has(key)
            ? { points, capped: 0 }
            : decideAward(s.mechanics, {
                event: e,
                participant: p,
                flowId: flow.id,
                actionIndex: i,
                action,
                runId: run.id,
                key,
                points,
              });
          // The part a cap cut, on the step only when there is one (results keep their shape otherwise).
          const cut = d.capped > 0 ? { capped_points: d.capped } : {};
          if (d.points <= 0)
            Object.assign(step, {
              status: 'capped',
              result: { points: 0, capped_points: d.capped, multiplier: factor, ...tierFactor },
              error: null,
            });
          else if (d.pending)
            Object.assign(step, {
              status: 'completed',
              result: {
                points: d.points,
                ...cut,
                multiplier: factor,
                ...tierFactor,
                pending_grant_id: d.pending.grantId,
                available_at: d.pending.availableAt.toISOString(),
              },
              error: null,
            });
          else {
            Object.assign(step, {
              status: 'completed',
              result: { points: d.points, ...cut, multiplier: factor, ...tierFactor, entry_id: null },
              error: null,
            });
            plan.credits.push({
              step,
              entry: {
                workspaceId: e.workspaceId,
                mode: e.mode,
                participantId: p.id,
                externalId: p.externalId,
                points: d.points,
                source: 'flow',
                reason: action.reason ?? flow.name,
                reference: run.id,
                idempotencyKey: key,
                expiresAt: d.expiresAt ?? null,
                cappedPoints: d.capped,
              },
            });
            if (!s.ledgerKeys.has(key)) {
              p.balance += d.points;
              p.lifetime += d.points;
            }
          }
        }
      } else if (action.type === 'award_badge') {
        const badge = s.badges.get(`${e.workspaceId}/${e.mode}/${action.badge}`)!;
        const tier = action.tier ?? '';
        const held = `${p.id}/${badge.id}/${tier}`;
        const result = { badge: action.badge, tier: action.tier ?? null };
        if (s.holdings.has(held))
          Object.assign(step, {
            status: 'skipped',
            result: { ...result, already_held: true },
            error: null,
          });
        else {
          s.holdings.add(held);
          Object.assign(step, { status: 'completed', result, error: null });
          plan.badges.push({
            workspaceId: e.workspaceId,
            mode: e.mode,
            participantId: p.id,
            badgeId: badge.id,
            tier,
            runId: run.id,
            key,
          });
          plan.results.push({
            workspaceId: e.workspaceId,
            mode: e.mode,
            type: 'badge.awarded',
            data: {
              participant: { external_id: p.externalId },
              badge: { key: badge.key, tier, name: badge.name },
              flow_run_id: run.id,
            } satisfies FlowBadgeAwardedData,
          });
        }
      } else {
        const sent = await sendMessage(p, action.template, key, contextOf(e, p));
        Object.assign(step, {
          status: sent.status === 'skipped' ? 'skipped' : 'completed',
          result: { message_id: sent.id, status: sent.status },
          error: null,
        });
      }
    } catch (err) {
      failure = `flow "${flow.name}" step ${i} (${action.type}): ${message(err)}`;
      Object.assign(step, { status: 'failed', error: message(err) });
    }
  }

  const final = s.finalAttempt.has(e.id);
  const status = failure
    ? 'failed'
    : steps.every((st) => st.status === 'skipped' || st.status === 'capped')
      ? 'skipped'
      : 'completed';
  const finished = !failure || final;
  const planned: PlannedRun = {
    ...run,
    eventId,
    spellAt: e.spellAt ?? null,
    status,
    steps,
    participantId: p.id,
    workspaceId: e.workspaceId,
    mode: e.mode,
    finished,
  };
  plan.runs.push(planned);
  if (finished)
    plan.results.push({
      workspaceId: e.workspaceId,
      mode: e.mode,
      type: 'flow.completed',
      data: {
        participant: { external_id: p.externalId },
        flow: { id: flow.id, name: flow.name },
        flow_run_id: run.id,
        event_id: eventId,
        status,
      } satisfies FlowCompletedData,
    });
  return { run: planned, failure };
}
