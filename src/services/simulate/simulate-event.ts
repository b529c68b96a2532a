import type { PgBoss } from 'pg-boss';
import type { AppContext } from '../../context.ts';
import { type Sql, withTransaction } from '../../db/tx.ts';
import { validationError } from '../../errors.ts';
import { uuidv7 } from '../../lib/uuid7.ts';
import { normaliseEvent } from '../events/event-input.ts';
import { payloadProblem } from '../events/event-schemas.ts';
import { runEngineBatch } from '../flows/engine/batch.ts';
import { messageSender } from '../flows/engine/send-message.ts';
import { flowKey } from '../flows/engine/types.ts';
import type { Principal } from '../keys/principal.ts';
import { presentSimulation } from './present.ts';
import type { SimulateInput, SimulationDto } from './shapes.ts';
import { badgesAwardedHere, type StandIn, writeStandIns } from './stand-in.sql.ts';

/**
 * The job queue as a simulation's messages see it: a live message is rendered and recorded as
 * the engine records it (in the transaction that is rolled back), and its send job goes nowhere.
 * Nothing else of pg-boss is reachable from the engine's batch.
 */
const NO_SENDS = { send: async () => null } as unknown as PgBoss;

/** A deadlock or serialization failure with a concurrent batch: the simulation runs again. */
const RETRYABLE = new Set(['40P01', '40001']);
const ATTEMPTS = 4;

/** The simulation's answer, carried out of its transaction by the throw that rolls it back. */
class RolledBack extends Error {
  readonly value: SimulationDto;
  constructor(value: SimulationDto) {
    super('simulation rolled back');
    this.value = value;
  }
}

/** A participant created concurrently after the stand-in statement's snapshot: write it again. */
class WriteAgain extends Error {}

/**
 * What an event would do now (docs/api.md#simulation), with nothing stored, sent or created: in
 * one transaction that is always rolled back, the event (and its participant when unknown, and
 * the unsaved flow) is written as ingest would, then the engine's own batch (engine/batch.ts)
 * locks, loads, evaluates with every mechanic and writes, with messages recorded but never
 * sent; the answer is read from the plan and the state it left, then everything is rolled back.
 */
export async function simulateEvent(
  ctx: AppContext,
  who: Principal,
  input: SimulateInput,
): Promise<SimulationDto> {
  const standIn = standInOf(who, input);
  for (let attempt = 1; ; attempt++) {
    try {
      await withTransaction(ctx.pool, async (sql) => {
        throw new RolledBack(await simulateIn(sql, standIn));
      });
    } catch (err) {
      if (err instanceof RolledBack) return err.value;
      const code = (err as { code?: string }).code;
      const again = err instanceof WriteAgain || (code !== undefined && RETRYABLE.has(code));
      if (!again || attempt === ATTEMPTS) throw err;
    }
  }
}

/** The rows to write, or a 422 for an event ingest would quarantine or a flow it would never run. */
function standInOf(who: Principal, input: SimulateInput): Omit<StandIn, 'eventId'> {
  const e = normaliseEvent(input.event, {});
  if (!e.eventType)
    throw validationError([
      { field: 'event.event_type', message: 'is required (an event without a type is quarantined)' },
    ]);
  if (!e.externalId)
    throw validationError([
      {
        field: 'event.participant',
        message: 'needs an external_id (an event without a participant is quarantined)',
      },
    ]);
  const flow = input.flow;
  if (flow?.trigger)
    throw validationError([
      { field: 'flow.trigger', message: 'an inactivity flow runs on no event; simulate an event flow' },
    ]);
  if (flow && flow.event_type !== e.eventType)
    throw validationError([
      { field: 'flow.event_type', message: `must be the event's type, "${e.eventType}"` },
    ]);
  return {
    workspaceId: who.workspaceId,
    mode: who.mode,
    eventType: e.eventType,
    externalId: e.externalId,
    email: e.email,
    phone: e.phone,
    name: e.name,
    timezone: e.timezone,
    referralCode: e.referralCode,
    payload: e.payload,
    occurredAt: e.occurredAt,
    flow: flow
      ? {
          id: uuidv7(),
          name: flow.name,
          conditions: flow.conditions ?? null,
          actions: flow.actions,
          maxRuns: flow.max_runs_per_participant ?? null,
        }
      : null,
  };
}

/** One attempt, in the transaction `sql` (rolled back by the caller whatever happens). */
async function simulateIn(sql: Sql, s: Omit<StandIn, 'eventId'>): Promise<SimulationDto> {
  const eventId = uuidv7();
  const written = await writeStandIns(sql, { ...s, eventId });
  if (written.participant_id === null) throw new WriteAgain();
  if (written.schema) {
    // The check ingest makes (its schema cache's key, so both share compiled validators).
    const problem = payloadProblem(
      `${s.workspaceId}/${s.mode}/${s.eventType}@${written.schema_version}`,
      written.schema,
      s.payload,
    );
    if (problem)
      throw validationError([{ field: 'event.payload', message: `${problem} (it would be quarantined)` }]);
  }
  const participantId = Number(written.participant_id);
  let before = { balance: 0, tier: null as string | null };
  const batch = await runEngineBatch(sql, [eventId], {
    finalAttempt: new Set(),
    trustFresh: true,
    // Only this event: the participant's earlier ones still waiting are their batches' to apply.
    pullEarlier: false,
    sendMessage: messageSender(sql, NO_SENDS),
    onLoaded: (state) => {
      const p = state.participants.get(participantId)!;
      before = { balance: p.balance, tier: p.tier };
    },
  });
  if (!batch) throw new Error('simulation: the engine found no event to evaluate');
  const event = batch.events.find((e) => e.id === eventId)!;
  return presentSimulation({
    externalId: s.externalId,
    existed: written.existed,
    flows: batch.state.flows.get(flowKey(event)) ?? [],
    unsavedFlowId: s.flow?.id ?? null,
    plan: batch.plan,
    participant: batch.state.participants.get(participantId)!,
    before,
    failure: batch.plan.failed.get(eventId) ?? null,
    badges: await badgesAwardedHere(sql, participantId),
  });
}
