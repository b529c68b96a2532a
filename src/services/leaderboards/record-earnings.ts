import type { Sql } from '../../db/tx.ts';
import type { Mode } from '../keys/principal.ts';
import { appendMoves, type ScoreMove } from './histogram.ts';
import { PERIODS, type Period, periodWindow } from './periods.ts';
import {
  addPositiveScores,
  applyScoreDeltas,
  type ChangedScore,
  lockParticipants,
  type ScoreColumns,
} from './record-earnings.sql.ts';

export interface Earning {
  workspaceId: string;
  mode: Mode;
  participantId: number;
  /** The lifetime delta already applied to `participants.lifetime_points`; negative for a reversal. */
  points: number;
  at: Date;
}

/**
 * Keeps the leaderboard aggregates in step with earned points, inside the caller's transaction
 * (called by `postEntry` after it moved `lifetime_points`): the all-time, weekly and monthly
 * scores (`leaderboard_scores`, never below zero; the all-time one mirrors `lifetime_points`) and
 * the rank histograms of all three. The scores live outside `participants` on purpose: an index
 * on `participants.lifetime_points` would make every credit a non-HOT update that writes into
 * every participant index (the trigram search index too). The participants' rows are locked (in
 * id order; a no-op when the caller already holds them), so the old scores read here are the
 * ones this change replaces.
 */
export async function recordEarnings(
  sql: Sql,
  rows: Earning[],
  opts: {
    /** The caller already holds these participants' row locks (postCredits' precondition): no second round trip for them. */
    locked?: boolean;
    /** Given: the histogram moves are appended here for the caller to write in its own statement (deltaColumns). */
    moves?: ScoreMove[];
  } = {},
): Promise<void> {
  const earnings = rows.filter((r) => r.points !== 0);
  if (!earnings.length) return;

  const periodDeltas = new Map<string, ScoreDelta>();
  for (const e of earnings) {
    for (const period of PERIODS) {
      const start = periodWindow(period, e.at).start;
      const key = `${e.participantId}/${period}/${start}`;
      const cur = periodDeltas.get(key);
      if (cur) cur.delta += e.points;
      else periodDeltas.set(key, { e, period, start, delta: e.points });
    }
  }

  const ids = [...new Set(earnings.map((e) => e.participantId))].sort((a, b) => a - b);
  if (!opts.locked) await lockParticipants(sql, ids);
  const moves: ScoreMove[] = [];

  const list = [...periodDeltas.values()].filter((d) => d.delta !== 0);
  if (list.length) {
    // Credits only (the engine's case): one upsert adds each delta and returns the new score; the
    // old one is the new minus the delta (a missing row was 0, and no score goes below 0 here).
    // Otherwise one round trip locks the current scores, writes the new ones (never below zero)
    // and returns both. All CTEs share one snapshot; the participant locks above keep it current.
    const changed = list.every((d) => d.delta > 0)
      ? await addPositive(sql, list)
      : await applyScoreDeltas(sql, scoreColumns(list));
    const after = changed.map((r) => ({
      workspaceId: r.workspace_id,
      mode: r.mode,
      period: r.period,
      periodStart: r.period_start,
      from: Number(r.before),
      to: Number(r.after),
    }));
    moves.push(...after);
  }
  if (opts.moves) opts.moves.push(...moves);
  else await appendMoves(sql, moves);
}

type ScoreDelta = { e: Earning; period: Period; start: string; delta: number };

/** The deltas as the `unnest` columns of both score upserts. */
const scoreColumns = (list: ScoreDelta[]): ScoreColumns => [
  list.map((d) => d.e.workspaceId),
  list.map((d) => d.e.mode),
  list.map((d) => d.period),
  list.map((d) => d.start),
  list.map((d) => d.e.participantId),
  list.map((d) => d.delta),
];

/** The credits-only upsert of recordEarnings: every delta is positive, so before = after − delta. */
async function addPositive(sql: Sql, list: ScoreDelta[]): Promise<ChangedScore[]> {
  const rows = await addPositiveScores(sql, scoreColumns(list));
  const delta = new Map(list.map((d) => [`${d.e.participantId}/${d.period}/${d.start}`, d.delta]));
  return rows.map(({ score, ...r }) => {
    const after = Number(score);
    const d = delta.get(`${r.participant_id}/${r.period}/${r.period_start}`);
    if (d === undefined) throw new Error('recordEarnings: an upserted score matches no delta');
    return { ...r, before: String(after - d), after: String(after) };
  });
}
