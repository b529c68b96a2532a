import type { Sql } from '../../db/tx.ts';
import type { Mode } from '../keys/principal.ts';
import type { Period } from './periods.ts';

// Raw SQL: the rank histograms of the bench suite `leaderboards` (own-rank p99 < 20 ms): bit-shifted
// bucket sums over LATERAL index range scans, `unnest` appends and `generate_series` rebuilds.

/** One board's histogram: a workspace, mode, period and period start (`YYYY-MM-DD`). */
export interface BoardKey {
  workspaceId: string;
  mode: Mode;
  period: Period;
  periodStart: string;
}

/** The histogram delta rows (columns, for `unnest`) that score changes append. */
export type DeltaColumns = [string[], string[], string[], string[], number[], number[], number[]];

/** The `leaderboard_count_deltas` insert of `DeltaColumns`, from `$<first>` on (for a caller's own statement). */
export const deltaInsertSql = (first: number) =>
  `insert into leaderboard_count_deltas (workspace_id, mode, period, period_start, level, bucket, count)
     select * from unnest($${first}::uuid[], $${first + 1}::text[], $${first + 2}::text[], $${first + 3}::date[],
                          $${first + 4}::smallint[], $${first + 5}::bigint[], $${first + 6}::bigint[])`;

/** Appends delta rows on their own statement. */
export async function insertDeltas(sql: Sql, cols: DeltaColumns): Promise<void> {
  await sql.query(deltaInsertSql(1), cols);
}

/** Sibling ranges to sum per level: the bucket bounds (exclusive) as text, for bigint parameters. */
export interface LevelRanges {
  levels: number[];
  lo: string[];
  hi: string[];
}

/** The summed counts of one board's buckets in the given ranges (compacted rows and pending deltas). */
export async function sumRanges(sql: Sql, board: BoardKey, r: LevelRanges): Promise<number> {
  // One index range scan per level and table (LATERAL keeps the planner from scanning a whole
  // board's histogram when its statistics say the workspace is most of the table).
  // Named: prepared once per connection, so the hot read skips planning (~1.5 ms here).
  const { rows } = await sql.query<{ n: string }>({
    name: 'leaderboard-count-above',
    text: `select coalesce(sum(x.c), 0)::bigint as n
       from unnest($5::smallint[], $6::bigint[], $7::bigint[]) as r(level, lo, hi)
       cross join lateral (
         select sum(h.count) as c from leaderboard_counts h
          where h.workspace_id = $1 and h.mode = $2 and h.period = $3 and h.period_start = $4
            and h.level = r.level and h.bucket > r.lo and h.bucket < r.hi
         union all
         select sum(d.count) from leaderboard_count_deltas d
          where d.workspace_id = $1 and d.mode = $2 and d.period = $3 and d.period_start = $4
            and d.level = r.level and d.bucket > r.lo and d.bucket < r.hi
       ) x`,
    values: [board.workspaceId, board.mode, board.period, board.periodStart, r.levels, r.lo, r.hi],
  });
  return Number(rows[0]!.n);
}

/** `sumRanges` for many items (`i`) of any boards of one workspace and mode, in columns for `unnest`. */
export type ItemRanges = [number[], string[], string[], number[], string[], string[]];

/** The summed counts per item `i` (an item without a row summed nothing). */
export async function sumRangesMany(
  sql: Sql,
  scope: { workspaceId: string; mode: Mode },
  cols: ItemRanges,
): Promise<{ i: number; n: string }[]> {
  const { rows } = await sql.query<{ i: number; n: string }>(
    `select r.i, coalesce(sum(x.c), 0)::bigint as n
       from unnest($3::int[], $4::text[], $5::date[], $6::smallint[], $7::bigint[], $8::bigint[])
         as r(i, period, period_start, level, lo, hi)
       cross join lateral (
         select sum(h.count) as c from leaderboard_counts h
          where h.workspace_id = $1 and h.mode = $2 and h.period = r.period and h.period_start = r.period_start
            and h.level = r.level and h.bucket > r.lo and h.bucket < r.hi
         union all
         select sum(d.count) from leaderboard_count_deltas d
          where d.workspace_id = $1 and d.mode = $2 and d.period = r.period and d.period_start = r.period_start
            and d.level = r.level and d.bucket > r.lo and d.bucket < r.hi
       ) x
      group by r.i`,
    [scope.workspaceId, scope.mode, ...cols],
  );
  return rows;
}

/** The compactor's transaction-scoped lock: taken (waiting for it with `wait`), or false when busy. */
export async function lockCompaction(sql: Sql, wait: boolean): Promise<boolean> {
  const { rows } = await sql.query<{ ok: boolean }>(
    wait
      ? `select true as ok from pg_advisory_xact_lock(hashtext('leaderboard_counts.compact'))`
      : `select pg_try_advisory_xact_lock(hashtext('leaderboard_counts.compact')) as ok`,
  );
  return rows[0]?.ok === true;
}

/** Moves up to `limit` pending deltas into the compacted buckets; the buckets it changed, with their counts. */
export async function foldDeltas(sql: Sql, limit: number): Promise<{ id: string; count: string }[]> {
  const { rows } = await sql.query<{ id: string; count: string }>(
    `with moved as (
       delete from leaderboard_count_deltas
        where id in (select id from leaderboard_count_deltas order by id limit $1)
        returning workspace_id, mode, period, period_start, level, bucket, count
     ), sums as (
       select workspace_id, mode, period, period_start, level, bucket, sum(count)::bigint as count
         from moved group by 1, 2, 3, 4, 5, 6
     )
     insert into leaderboard_counts as h (workspace_id, mode, period, period_start, level, bucket, count)
     select workspace_id, mode, period, period_start, level, bucket, count from sums
     on conflict (workspace_id, mode, period, period_start, level, bucket)
       do update set count = h.count + excluded.count
     returning h.id, h.count`,
    [limit],
  );
  return rows;
}

/** Deletes the given buckets that are empty. */
export async function deleteEmptyBuckets(sql: Sql, ids: string[]): Promise<void> {
  await sql.query(`delete from leaderboard_counts where id = any($1::bigint[]) and count = 0`, [ids]);
}

/**
 * Rebuilds a board's histogram: both tables emptied for it, level 0 counted from `scoresSql` (a
 * `score` column of the board's participants, with `params`), the coarser levels from level 0.
 */
export async function rebuildBoard(
  sql: Sql,
  board: BoardKey,
  scoresSql: string,
  params: unknown[],
  levels: number,
): Promise<void> {
  const key = [board.workspaceId, board.mode, board.period, board.periodStart];
  await sql.query(
    `delete from leaderboard_counts where workspace_id = $1 and mode = $2 and period = $3 and period_start = $4`,
    key,
  );
  await sql.query(
    `delete from leaderboard_count_deltas where workspace_id = $1 and mode = $2 and period = $3 and period_start = $4`,
    key,
  );
  const n = params.length;
  await sql.query(
    `insert into leaderboard_counts (workspace_id, mode, period, period_start, level, bucket, count)
     select $${n + 1}::uuid, $${n + 2}, $${n + 3}, $${n + 4}::date, 0, s.score, count(*)
       from (${scoresSql}) s
      where s.score > 0
      group by s.score`,
    [...params, ...key],
  );
  await sql.query(
    `insert into leaderboard_counts (workspace_id, mode, period, period_start, level, bucket, count)
     select $1::uuid, $2::text, $3::text, $4::date, l.level, h.bucket >> (8 * l.level), sum(h.count)
       from leaderboard_counts h cross join generate_series(1, ${levels - 1}) as l(level)
      where h.workspace_id = $1::uuid and h.mode = $2::text and h.period = $3::text and h.period_start = $4::date
        and h.level = 0
      group by l.level, h.bucket >> (8 * l.level)`,
    key,
  );
}

/** Deletes the histograms of weeks and months before the given current starts; how many rows. */
export async function deletePastHistograms(sql: Sql, weekStart: string, monthStart: string): Promise<number> {
  const { rowCount } = await sql.query(
    `delete from leaderboard_counts
      where (period = 'weekly' and period_start < $1::date) or (period = 'monthly' and period_start < $2::date)`,
    [weekStart, monthStart],
  );
  return rowCount ?? 0;
}
