import type { Sql } from '../../db/tx.ts';
import type { Mode } from '../keys/principal.ts';
import type { Period } from './periods.ts';

// Raw SQL: runs inside `postEntry`/`postCredits`' transaction on its connection (bench suites `engine`
// and `leaderboards`): `for update` in id order, `unnest` upserts with `on conflict`.

/** Score deltas as `unnest` columns: workspace, mode, period, period start, participant, delta. */
export type ScoreColumns = [string[], Mode[], Period[], string[], number[], number[]];

/** A score a statement wrote: its board, and the score before and after (bigint text). */
export interface ChangedScore {
  participant_id: string;
  period: Period;
  period_start: string;
  workspace_id: string;
  mode: Mode;
  before: string;
  after: string;
}

/** Locks the participants' rows, in id order (a no-op for rows the transaction holds already). */
export async function lockParticipants(sql: Sql, ids: number[]): Promise<void> {
  await sql.query(`select 1 from participants where id = any($1::bigint[]) order by id for update`, [ids]);
}

/** Adds positive deltas to the scores (a missing row starts at 0); the new scores, unordered. */
export async function addPositiveScores(
  sql: Sql,
  cols: ScoreColumns,
): Promise<(Omit<ChangedScore, 'before' | 'after'> & { score: string })[]> {
  const { rows } = await sql.query<Omit<ChangedScore, 'before' | 'after'> & { score: string }>({
    name: 'leaderboard_add_positive',
    text: `insert into leaderboard_scores as s (workspace_id, mode, period, period_start, participant_id, score)
       select * from unnest($1::uuid[], $2::text[], $3::text[], $4::date[], $5::bigint[], $6::bigint[])
       on conflict (participant_id, period, period_start) do update set score = s.score + excluded.score
       returning participant_id, period, to_char(period_start, 'YYYY-MM-DD') as period_start, workspace_id, mode, score`,
    values: cols,
  });
  return rows;
}

/**
 * Applies deltas of any sign in one round trip: locks the current scores, writes the new ones
 * (never below zero) and returns both. All CTEs share one snapshot.
 */
export async function applyScoreDeltas(sql: Sql, cols: ScoreColumns): Promise<ChangedScore[]> {
  const { rows } = await sql.query<ChangedScore>(
    `with i as (
         select * from unnest($1::uuid[], $2::text[], $3::text[], $4::date[], $5::bigint[], $6::bigint[])
           as i(workspace_id, mode, period, period_start, participant_id, delta)
       ), prev as (
         select s.participant_id, s.period, s.period_start, s.score
           from leaderboard_scores s
           join i on s.participant_id = i.participant_id and s.period = i.period and s.period_start = i.period_start
            for update of s
       ), next as (
         select i.*, coalesce(prev.score, 0) as before, greatest(coalesce(prev.score, 0) + i.delta, 0) as after
           from i left join prev
             on prev.participant_id = i.participant_id and prev.period = i.period and prev.period_start = i.period_start
       ), written as (
         insert into leaderboard_scores as s (workspace_id, mode, period, period_start, participant_id, score)
         select workspace_id, mode, period, period_start, participant_id, after from next
         on conflict (participant_id, period, period_start) do update set score = excluded.score
       )
       select participant_id, period, to_char(period_start, 'YYYY-MM-DD') as period_start, workspace_id, mode,
              before, after
         from next`,
    cols,
  );
  return rows;
}
