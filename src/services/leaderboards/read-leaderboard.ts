import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Sql } from '../../db/tx.ts';
import { notFound } from '../../errors.ts';
import { clampedLimit } from '../../lib/pagination.ts';
import type { Scope } from '../keys/principal.ts';
import { parseInput } from '../validation.ts';
import { findLeaderboard } from './boards.ts';
import { countAbove, countAboveMany } from './histogram.ts';
import { type Period, periodWindow } from './periods.ts';
import type { LeaderboardPage, Standing } from './shapes.ts';

// Raw SQL: the bench suite `leaderboards` (top-100 and own-rank p99 < 20 ms): `rank()` over the score
// index's prefix and the histogram count.

export const MAX_TOP = 1000;

export const leaderboardTopInput = z.object({ limit: clampedLimit(10, MAX_TOP, 'How many places') });

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
  input: unknown,
  now = new Date(),
): Promise<LeaderboardPage> {
  const { limit } = parseInput(leaderboardTopInput, input);
  const board = await findLeaderboard(ctx.pool, who, key);
  const window = periodWindow(board.period, now);
  const { rows } = await ctx.pool.query<{ rank: string; external_id: string; score: string }>(
    `select rank() over (order by t.score desc) as rank, p.external_id, t.score
       from (select participant_id, score from leaderboard_scores
              where workspace_id = $1 and mode = $2 and period = $3 and period_start = $4 and score > 0
              order by score desc, participant_id limit $5) t
       join participants p on p.id = t.participant_id
      order by t.score desc, t.participant_id`,
    [who.workspaceId, who.mode, board.period, window.start, limit],
  );
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
  // The participant and its score in one round trip.
  const { rows } = await ctx.pool.query<{ score: string }>(
    `select coalesce(s.score, 0) as score from participants p
       left join leaderboard_scores s on s.participant_id = p.id and s.period = $4 and s.period_start = $5
      where p.workspace_id = $1 and p.mode = $2 and p.external_id = $3`,
    [who.workspaceId, who.mode, externalId, board.period, window.start],
  );
  if (!rows[0]) throw notFound('participant');
  const score = Number(rows[0].score);
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
  input: unknown,
  now = new Date(),
): Promise<Standing[][]> {
  const { limit } = parseInput(leaderboardTopInput, input);
  const starts = periods.map((p) => periodWindow(p, now).start);
  const { rows } = await ctx.pool.query<{ i: string; rank: string; external_id: string; score: string }>(
    `select b.i, t.rank, t.external_id, t.score
       from unnest($3::text[], $4::date[]) with ordinality as b(period, period_start, i)
       cross join lateral (
         select rank() over (order by s.score desc) as rank, p.external_id, s.score, s.participant_id
           from (select participant_id, score from leaderboard_scores
                  where workspace_id = $1 and mode = $2 and period = b.period and period_start = b.period_start
                    and score > 0
                  order by score desc, participant_id limit $5) s
           join participants p on p.id = s.participant_id
       ) t
      order by b.i, t.score desc, t.participant_id`,
    [who.workspaceId, who.mode, periods, starts, limit],
  );
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
  const { rows } = await ctx.pool.query<{ i: string; score: string }>(
    `select b.i, coalesce(s.score, 0) as score
       from participants p
       cross join unnest($4::text[], $5::date[]) with ordinality as b(period, period_start, i)
       left join leaderboard_scores s
         on s.participant_id = p.id and s.period = b.period and s.period_start = b.period_start
      where p.workspace_id = $1 and p.mode = $2 and p.external_id = $3
      order by b.i`,
    [who.workspaceId, who.mode, externalId, periods, starts],
  );
  if (rows.length !== periods.length) return periods.map(() => notFound('participant'));
  const scores = rows.map((r) => Number(r.score));
  const above = await countAboveMany(
    ctx.pool,
    who,
    periods.map((period, i) => ({ period, periodStart: starts[i]!, score: scores[i]! })),
  );
  return scores.map((score, i) => ({ rank: above[i]! + 1, score }));
}
