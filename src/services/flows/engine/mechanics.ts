import type { Sql } from '../../../db/tx.ts';
import type { BatchPlan } from './evaluate.ts';
import type { EventRow, ParticipantState } from './types.ts';

/**
 * Where a new mechanic reaches the engine (a points lifecycle: lots, expiry, pending points and
 * caps; tiers; streaks; achievements; referrals). Each lives in a domain folder of its own
 * (`services/points/`, `services/tiers/`, …) with its repository, shapes and statements, and
 * reaches the engine through this one small interface: what happens to this participant on this
 * event, inside the batch's transaction, under the batch's participant locks. A mechanic is added
 * to ENGINE_MECHANICS, not written into the engine's files. Each hook may cost one statement per
 * batch at most (bench suite `engine`: a batch's latency is the sum of its round trips).
 */
export interface EngineMechanic<State = unknown> {
  readonly name: string;
  /** Reads what the mechanic needs for the batch, after the participant locks. */
  load(sql: Sql, batch: { events: EventRow[]; participants: Map<number, ParticipantState> }): Promise<State>;
  /**
   * What happens to this participant on this event, after the event's flows ran, in memory and
   * in event order (what it changes on `participant` is what the participant's next event sees).
   */
  onEvent(state: State, event: EventRow, participant: ParticipantState): void;
  /** Writes what `onEvent` decided, in the batch's transaction, after the plan's own writes. */
  write(sql: Sql, state: State, plan: BatchPlan): Promise<void>;
}

/** The mechanics the engine runs for every batch, in this order. None yet. */
export const ENGINE_MECHANICS: readonly EngineMechanic[] = [];

/** One batch's mechanics with the state each loaded. */
export type LoadedMechanic = { mechanic: EngineMechanic; state: unknown };

/** Loads every mechanic's state for the batch (nothing, and no round trip, while there are none). */
export async function loadMechanics(
  sql: Sql,
  batch: { events: EventRow[]; participants: Map<number, ParticipantState> },
): Promise<LoadedMechanic[]> {
  const loaded: LoadedMechanic[] = [];
  for (const mechanic of ENGINE_MECHANICS) loaded.push({ mechanic, state: await mechanic.load(sql, batch) });
  return loaded;
}

/** Writes every mechanic's part of the batch. */
export async function writeMechanics(sql: Sql, loaded: LoadedMechanic[], plan: BatchPlan): Promise<void> {
  for (const { mechanic, state } of loaded) await mechanic.write(sql, state, plan);
}
