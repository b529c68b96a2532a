import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Sql } from '../../db/tx.ts';
import { notFound } from '../../errors.ts';
import { clampedLimit } from '../../lib/pagination.ts';
import type { Scope } from '../keys/principal.ts';
import { findLeaderboard } from './boards.ts';
import { countAbove, countAboveMany } from './histogram.ts';
import { type Period, periodWindow } from './periods.ts';
import { participantScore, participantScoresOfPeriods, topPlaces, topPlacesOfPeriods } from './scores.sql.ts';
import type { LeaderboardPage, Standing } from './shapes.ts';

export const MAX_TOP = 1000;

export const leaderboardTopInput = z.object({ limit: clampedLimit(10, MAX_TOP, 'How many places') });
export type LeaderboardTopInput = z.output<typeof leaderboardTopInput>;

export type { LeaderboardPage, Standing } from './shapes.ts';

/**
 * `GET /v1/leaderboards/{key}`: the top N with competition ranks (1, 1, 3). Only participants
 * with a positive score are placed. Reads walk the score index (`leaderboard_scores_top_idx`)
 * from the top, and `rank()` over that prefix is the global rank, since everyone scoring more
 * is inside the prefix. All-time scores mirror `lifetime_points` (see recordEarnings).
 */
export async function leaderboardTop(
  ctx: AppContext,
  who: Scope,
  key: string,
  { limit }: LeaderboardTopInput,
  now = new Date(),
): Promise<LeaderboardPage> {
  const board = await findLeaderboard(ctx.pool, who, key);
  const window = periodWindow(board.period, now);
  const rows = await topPlaces(ctx.pool, who, { period: board.period, periodStart: window.start }, limit);
  return {
    data: rows.map((r) => ({ rank: Number(r.rank), external_id: r.external_id, score: Number(r.score) })),
    meta: {
      key: board.key,
      period: board.period,
      period_start: window.periodStart,
      period_end: window.periodEnd,
    },
  };
}

/**
 * A participant's competition rank: 1 + how many score strictly more, from the rank histogram
 * (src/services/leaderboards/histogram.ts), a few hundred index entries whatever the board's size.
 * `score` is the participant's score on a board of this period now (0 when it earned nothing).
 */
export async function rankOf(
  sql: Sql,
  who: Scope,
  period: Period,
  score: number,
  now = new Date(),
): Promise<number> {
  const window = periodWindow(period, now);
  const above = await countAbove(
    sql,
    { workspaceId: who.workspaceId, mode: who.mode, period, periodStart: window.start },
    score,
  );
  return above + 1;
}

/** `rankOf` for many scores of one period in one statement (GraphQL's batched summaries). */
export async function ranksOf(
  sql: Sql,
  who: Scope,
  period: Period,
  scores: number[],
  now = new Date(),
): Promise<number[]> {
  const periodStart = periodWindow(period, now).start;
  const above = await countAboveMany(
    sql,
    who,
    scores.map((score) => ({ period, periodStart, score })),
  );
  return above.map((n) => n + 1);
}

/** `GET /v1/leaderboards/{key}/participants/{external_id}` → `{ rank, score }`. */
export async function participantStanding(
  ctx: AppContext,
  who: Scope,
  key: string,
  externalId: string,
  now = new Date(),
): Promise<{ rank: number; score: number }> {
  const board = await findLeaderboard(ctx.pool, who, key);
  const window = periodWindow(board.period, now);
  const score = await participantScore(ctx.pool, who, externalId, {
    period: board.period,
    periodStart: window.start,
  });
  if (score === undefined) throw notFound('participant');
  return { rank: await rankOf(ctx.pool, who, board.period, score, now), score };
}

/**
 * `leaderboardTop`'s places for many periods in one statement (GraphQL's `leaderboards { top }`:
 * boards of one period rank the same scores), in the order asked.
 */
export async function topsOfPeriods(
  ctx: AppContext,
  who: Scope,
  periods: readonly Period[],
  { limit }: LeaderboardTopInput,
  now = new Date(),
): Promise<Standing[][]> {
  const starts = periods.map((p) => periodWindow(p, now).start);
  const rows = await topPlacesOfPeriods(ctx.pool, who, periods, starts, limit);
  const tops: Standing[][] = periods.map(() => []);
  for (const r of rows)
    tops[Number(r.i) - 1]!.push({ rank: Number(r.rank), external_id: r.external_id, score: Number(r.score) });
  return tops;
}

/**
 * `participantStanding` of one participant on boards of many periods, in two statements (its
 * scores, then every rank); a 404 for each when the participant does not exist.
 */
export async function standingsOfPeriods(
  ctx: AppContext,
  who: Scope,
  periods: readonly Period[],
  externalId: string,
  now = new Date(),
): Promise<({ rank: number; score: number } | Error)[]> {
  const starts = periods.map((p) => periodWindow(p, now).start);
  const scores = await participantScoresOfPeriods(ctx.pool, who, externalId, periods, starts);
  if (scores.length !== periods.length) return periods.map(() => notFound('participant'));
  const above = await countAboveMany(
    ctx.pool,
    who,
    periods.map((period, i) => ({ period, periodStart: starts[i]!, score: scores[i]! })),
  );
  return scores.map((score, i) => ({ rank: above[i]! + 1, score }));
}
