import type { Sql } from '../../db/tx.ts';
import type { BatchPlan } from '../flows/engine/evaluate.ts';
import type { EngineMechanic, MechanicBatch } from '../flows/engine/mechanics.ts';
import type { EventRow, ParticipantState } from '../flows/engine/types.ts';
import { programFrom } from '../points/program.ts';
import { rulesFrom } from './programme.ts';
import { credit, currentRank, earnMultiplier, leavesWindow, Periods, type Rules } from './rules.ts';
import { type MoveWrite, noWrites, type TierWrites, writeStandings } from './standing.sql.ts';

/** What the tiers mechanic holds for one batch. */
interface TiersState {
  now: Date;
  participants: Map<number, ParticipantState>;
  /** The running programme of each scope of the batch (absent: none). */
  rules: Map<string, Rules>;
  periods: Periods;
  /** Lifetime points each participant's standing has counted so far. */
  counted: Map<number, number>;
  changed: Set<ParticipantState>;
  moves: MoveWrite[];
  /** `rolling`: when a credit made now leaves each scope's window. */
  leavesAt: Map<string, Date>;
}

const scopeKey = (x: { workspaceId: string; mode: string }) => `${x.workspaceId}/${x.mode}`;

/** Counts the participant's credits since the last count and moves them up if that reaches a level. */
function count(state: TiersState, p: ParticipantState): void {
  const rules = state.rules.get(scopeKey(p));
  const seen = state.counted.get(p.id);
  if (!rules || seen === undefined || p.lifetime <= seen) return;
  state.counted.set(p.id, p.lifetime);
  const before = { ...p.standing, lifetime: p.lifetime };
  const out = credit(before, rules, state.now, p.lifetime - seen, state.periods);
  // Under `lifetime` the ledger's statement already moved lifetime points: nothing to write unless
  // the level (or a review) moved.
  if (out.standing !== before) state.changed.add(p);
  p.standing = out.standing;
  if (out.move) {
    p.tier = rules.programme.levels[currentRank(p.standing, rules)]!.key;
    state.moves.push({
      workspaceId: p.workspaceId,
      mode: p.mode,
      participantId: p.id,
      externalId: p.externalId,
      move: out.move,
    });
  }
}

/**
 * Tiers in the engine (docs/tiers.md): a participant's level multiplies their flow awards
 * (`earn_multiplier`), conditions read it (`participant.tier`), and the credits of each processed
 * event count toward it at once, so the next event of the batch sees the level they reached. The
 * standing comes with the participant's locked row and the programme with the batch's programme
 * read: no round trip of its own to load, one statement to write, only when a programme runs.
 */
export const tiersMechanic: EngineMechanic<TiersState> = {
  name: 'tiers',

  async load(_sql: Sql, batch: MechanicBatch): Promise<TiersState> {
    const rules = new Map<string, Rules>();
    for (const [scope, t] of batch.programme.tiers) {
      const timezone = programFrom(batch.programme.settings.get(scope)).timezone;
      const r = rulesFrom(t.programme, timezone);
      if (r) rules.set(scope, r);
    }
    const state: TiersState = {
      now: new Date(),
      participants: batch.participants,
      rules,
      periods: new Periods(),
      counted: new Map(),
      changed: new Set(),
      moves: [],
      leavesAt: new Map(),
    };
    for (const p of batch.participants.values()) {
      const r = rules.get(scopeKey(p));
      p.tier = r ? r.programme.levels[currentRank(p.standing, r)]!.key : null;
      if (r) state.counted.set(p.id, p.lifetime);
    }
    return state;
  },

  factor(state: TiersState, _e: EventRow, p: ParticipantState): number {
    const rules = state.rules.get(scopeKey(p));
    return rules ? earnMultiplier(p.standing, rules) : 1;
  },

  onEvent(state: TiersState, _e: EventRow, p: ParticipantState): void {
    count(state, p);
  },

  async write(sql: Sql, state: TiersState, plan: BatchPlan): Promise<void> {
    if (!state.rules.size) return;
    // Credits of a failed event's completed steps are written too: counted here.
    for (const c of plan.credits) {
      const p = state.participants.get(c.entry.participantId);
      if (p) count(state, p);
    }
    const writes: TierWrites = noWrites();
    for (const p of state.changed) writes.standings.push({ participantId: p.id, standing: p.standing });
    writes.moves = state.moves;
    for (const c of plan.credits) {
      const rules = state.rules.get(scopeKey(c.entry));
      const entryId = c.step.result?.entry_id;
      if (rules?.programme.qualification.window !== 'rolling' || typeof entryId !== 'number') continue;
      const scope = scopeKey(c.entry);
      if (!state.leavesAt.has(scope)) state.leavesAt.set(scope, leavesWindow(rules, state.now));
      writes.credits.push({
        entryId,
        participantId: c.entry.participantId,
        points: Number(c.step.result!.points),
        leavesAt: state.leavesAt.get(scope)!,
      });
    }
    await writeStandings(sql, writes);
  },
};
