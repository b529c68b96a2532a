import type { Sql } from '../../db/tx.ts';
import type { Scope } from '../keys/principal.ts';
import type { Period } from './periods.ts';

// Raw SQL: the bench suite `leaderboards` (top-100 and own-rank p99 < 20 ms): `rank()` over the prefix
// of the score index `leaderboard_scores_top_idx`, and many periods at once through `unnest`.

/** A place as the top list reads it: numbers as Postgres' bigint text. */
export interface PlaceRow {
  rank: string;
  external_id: string;
  score: string;
}

/** One board's top `limit` places of a period, best first. */
export async function topPlaces(
  sql: Sql,
  who: Scope,
  board: { period: Period; periodStart: string },
  limit: number,
): Promise<PlaceRow[]> {
  const { rows } = await sql.query<PlaceRow>(
    `select rank() over (order by t.score desc) as rank, p.external_id, t.score
       from (select participant_id, score from leaderboard_scores
              where workspace_id = $1 and mode = $2 and period = $3 and period_start = $4 and score > 0
              order by score desc, participant_id limit $5) t
       join participants p on p.id = t.participant_id
      order by t.score desc, t.participant_id`,
    [who.workspaceId, who.mode, board.period, board.periodStart, limit],
  );
  return rows;
}

/** A participant's score in a period (0 when it earned nothing), or nothing when it does not exist. */
export async function participantScore(
  sql: Sql,
  who: Scope,
  externalId: string,
  board: { period: Period; periodStart: string },
): Promise<number | undefined> {
  // The participant and its score in one round trip.
  const { rows } = await sql.query<{ score: string }>(
    `select coalesce(s.score, 0) as score from participants p
       left join leaderboard_scores s on s.participant_id = p.id and s.period = $4 and s.period_start = $5
      where p.workspace_id = $1 and p.mode = $2 and p.external_id = $3`,
    [who.workspaceId, who.mode, externalId, board.period, board.periodStart],
  );
  return rows[0] ? Number(rows[0].score) : undefined;
}

/** `topPlaces` of many periods in one statement; `i` is the period's position (from 1). */
export async function topPlacesOfPeriods(
  sql: Sql,
  who: Scope,
  periods: readonly Period[],
  starts: string[],
  limit: number,
): Promise<(PlaceRow & { i: string })[]> {
  const { rows } = await sql.query<PlaceRow & { i: string }>(
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
  return rows;
}

/** A participant's score in each period, in order; no rows when it does not exist. */
export async function participantScoresOfPeriods(
  sql: Sql,
  who: Scope,
  externalId: string,
  periods: readonly Period[],
  starts: string[],
): Promise<number[]> {
  const { rows } = await sql.query<{ i: string; score: string }>(
    `select b.i, coalesce(s.score, 0) as score
       from participants p
       cross join unnest($4::text[], $5::date[]) with ordinality as b(period, period_start, i)
       left join leaderboard_scores s
         on s.participant_id = p.id and s.period = b.period and s.period_start = b.period_start
      where p.workspace_id = $1 and p.mode = $2 and p.external_id = $3
      order by b.i`,
    [who.workspaceId, who.mode, externalId, periods, starts],
  );
  return rows.map((r) => Number(r.score));
}
