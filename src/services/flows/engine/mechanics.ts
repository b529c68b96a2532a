import type { Sql } from '../../../db/tx.ts';
import { achievementsMechanic } from '../../achievements/mechanic.ts';
import { loadBatchProgramme, pointsMechanic } from '../../points/mechanic.ts';
import type { BatchProgramme } from '../../points/repository.ts';
import { referralsMechanic } from '../../referrals/mechanic.ts';
import { streaksMechanic } from '../../streaks/mechanic.ts';
import { tiersMechanic } from '../../tiers/mechanic.ts';
import { windowsMechanic } from '../../windows/mechanic.ts';
import type { FlowAction } from '../flow-schemas.ts';
import type { BatchPlan } from './evaluate.ts';
import type { EventRow, FlowRow, ParticipantState } from './types.ts';

/** What a batch hands its mechanics to load from. */
export interface MechanicBatch {
  events: EventRow[];
  participants: Map<number, ParticipantState>;
  /** The active flows by `workspace/mode/event type` (types.ts flowKey). */
  flows: Map<string, FlowRow[]>;
  /** The batch's programme settings, tier programmes and cap counters, read once for every mechanic. */
  programme: BatchProgramme;
}

/** An `award_points` step about to credit `points` (after any multiplier). */
export interface Award {
  event: EventRow;
  participant: ParticipantState;
  flowId: string;
  actionIndex: number;
  action: Extract<FlowAction, { type: 'award_points' }>;
  runId: string;
  /** The step's derived key. */
  key: string;
  points: number;
}

/** What a mechanic made of an award: the points still credited and how they are credited. */
export interface AwardDecision {
  points: number;
  /** The part an earning cap cut. */
  capped: number;
  /** Set: the points wait in a pending grant with this id until `availableAt`, instead of a credit. */
  pending?: { grantId: string; availableAt: Date };
  /** The credit's lot expiry; null or absent: never. */
  expiresAt?: Date | null;
}

/**
 * Where a new mechanic reaches the engine (a points lifecycle: lots, expiry, pending points and
 * caps; tiers; streaks; achievements; referrals). Each lives in a domain folder of its own
 * (`services/points/`, `services/tiers/`, …) with its repository, shapes and statements, and
 * reaches the engine through this one small interface: what happens to this participant on this
 * event, inside the batch's transaction, under the batch's participant locks. A mechanic is added
 * to ENGINE_MECHANICS, not written into the engine's files. Each hook costs a fixed number of
 * statements per batch whatever its size, and as few as it can: one where possible (bench suite
 * `engine`: a batch's latency is the sum of its round trips).
 */
export interface EngineMechanic<State = unknown> {
  readonly name: string;
  /** Reads what the mechanic needs for the batch, after the participant locks. */
  load(sql: Sql, batch: MechanicBatch): Promise<State>;
  /**
   * Optional: a factor on this participant's flow awards now (a tier's `earn_multiplier`), applied
   * with an active reward multiplier and rounded down once.
   */
  factor?(state: State, event: EventRow, participant: ParticipantState): number;
  /**
   * Optional: what happens to this participant on this event before its flows are evaluated (a
   * streak extended; a windowed count loaded), in memory and in event order. An event whose
   * attempt then fails is processed again later: this hook's changes must be undone by `onFail`.
   */
  beforeFlows?(state: State, event: EventRow, participant: ParticipantState): void;
  /** Optional: the event's attempt failed after `beforeFlows`: forget what it decided. */
  onFail?(state: State, event: EventRow, participant: ParticipantState): void;
  /**
   * What happens to this participant on this event, after the event's flows ran, in memory and
   * in event order (what it changes on `participant` is what the participant's next event sees).
   */
  onEvent(state: State, event: EventRow, participant: ParticipantState): void;
  /**
   * Optional: decides an award before it is credited (caps, pending points, expiry), in memory
   * and in event order. Mechanics with it see the award one after the other, each the previous'
   * decision.
   */
  award?(state: State, award: Award): AwardDecision;
  /** Writes what `onEvent` decided, in the batch's transaction, after the plan's own writes. */
  write(sql: Sql, state: State, plan: BatchPlan): Promise<void>;
}

/** The mechanics the engine runs for every batch, in this order. */
export const ENGINE_MECHANICS: readonly EngineMechanic[] = [
  tiersMechanic as EngineMechanic,
  pointsMechanic as EngineMechanic,
  streaksMechanic as EngineMechanic,
  windowsMechanic as EngineMechanic,
  achievementsMechanic as EngineMechanic,
  referralsMechanic as EngineMechanic,
];

/** One batch's mechanics with the state each loaded. */
export type LoadedMechanic = { mechanic: EngineMechanic; state: unknown };

/** Loads every mechanic's state for the batch. */
export async function loadMechanics(
  sql: Sql,
  batch: Omit<MechanicBatch, 'programme'>,
): Promise<LoadedMechanic[]> {
  const full = { ...batch, programme: await loadBatchProgramme(sql, batch) };
  const loaded: LoadedMechanic[] = [];
  for (const mechanic of ENGINE_MECHANICS) loaded.push({ mechanic, state: await mechanic.load(sql, full) });
  return loaded;
}

/** The factors the batch's mechanics apply to this participant's awards now. */
export function awardFactors(
  loaded: LoadedMechanic[] | undefined,
  e: EventRow,
  p: ParticipantState,
): number[] {
  const factors: number[] = [];
  for (const { mechanic, state } of loaded ?? [])
    if (mechanic.factor) factors.push(mechanic.factor(state, e, p));
  return factors;
}

/** An award as the batch's mechanics decide it (unchanged when none has an opinion). */
export function decideAward(loaded: LoadedMechanic[] | undefined, award: Award): AwardDecision {
  let decision: AwardDecision = { points: award.points, capped: 0 };
  for (const { mechanic, state } of loaded ?? []) {
    if (!mechanic.award || decision.points <= 0) continue;
    const next = mechanic.award(state, { ...award, points: decision.points });
    decision = { ...decision, ...next, capped: decision.capped + next.capped };
  }
  return decision;
}

/** Writes every mechanic's part of the batch. */
export async function writeMechanics(sql: Sql, loaded: LoadedMechanic[], plan: BatchPlan): Promise<void> {
  for (const { mechanic, state } of loaded) await mechanic.write(sql, state, plan);
}
