import type { Sql } from '../../db/tx.ts';
import type { Mode } from '../keys/principal.ts';
import { type Period, periodWindow } from './periods.ts';

// Raw SQL: the rank histograms of the bench suite `leaderboards` (own-rank p99 < 20 ms): bit-shifted
// bucket sums, `unnest` appends and `generate_series` rebuilds.

/**
 * Ranks without counting participants (README "How ranks stay fast"). Every board keeps a
 * histogram of its positive scores on five levels: level k counts participants per bucket
 * `score >> 8k` (level 4 = `score >> 32`, unbounded). The number of participants above `s` is
 * the sum, per level, of the buckets that are greater than `s`'s bucket but share its parent
 * (at most 255 rows each), plus the top-level buckets above it: ≤ ~1,300 index entries whatever
 * the board's size, where `count(*) where score > s` walks up to every participant.
 *
 * Writes never update a shared row (a popular score would serialize and deadlock concurrent
 * point movements): they append delta rows to `leaderboard_count_deltas`, and one compactor folds
 * them into `leaderboard_counts` in the background. Reads sum both, so they are exact at once.
 */
export const LEVELS = 5;
const TOP = LEVELS - 1;
const MAX_BIGINT = '9223372036854775807';

function bucketOf(score: number, level: number): number {
  return Math.floor(score / 2 ** (8 * level));
}

export interface BoardKey {
  workspaceId: string;
  mode: Mode;
  period: Period;
  periodStart: string;
}

export interface ScoreMove extends BoardKey {
  from: number;
  to: number;
}

/** The histogram delta rows (columns, for `unnest`) that score changes append. */
export type DeltaColumns = [string[], string[], string[], string[], number[], number[], number[]];

/** The `leaderboard_count_deltas` insert of {@link deltaColumns}, from `$<first>` on (for a caller's own statement). */
export const deltaInsertSql = (first: number) =>
  `insert into leaderboard_count_deltas (workspace_id, mode, period, period_start, level, bucket, count)
     select * from unnest($${first}::uuid[], $${first + 1}::text[], $${first + 2}::text[], $${first + 3}::date[],
                          $${first + 4}::smallint[], $${first + 5}::bigint[], $${first + 6}::bigint[])`;

/** Appends the histogram deltas for score changes (zero scores are not counted: they rank last). */
export async function appendMoves(sql: Sql, moves: ScoreMove[]): Promise<void> {
  const cols = deltaColumns(moves);
  if (!cols[0].length) return;
  await sql.query(deltaInsertSql(1), cols);
}

/** The delta rows of {@link appendMoves}, for a caller that writes them in a statement of its own. */
export function deltaColumns(moves: ScoreMove[]): DeltaColumns {
  // Summed per bucket first: a batch's moves share most of their coarser buckets, and a +1 and
  // a -1 of the same bucket cancel, so far fewer rows are appended (the sums read the same).
  const sums = new Map<string, { m: ScoreMove; level: number; bucket: number; count: number }>();
  const add = (m: ScoreMove, level: number, bucket: number, count: number) => {
    const key = `${m.workspaceId}/${m.mode}/${m.period}/${m.periodStart}/${level}/${bucket}`;
    const sum = sums.get(key);
    if (sum) sum.count += count;
    else sums.set(key, { m, level, bucket, count });
  };
  for (const m of moves) {
    if (m.from === m.to) continue;
    for (let level = 0; level < LEVELS; level++) {
      const a = m.from > 0 ? bucketOf(m.from, level) : null;
      const b = m.to > 0 ? bucketOf(m.to, level) : null;
      if (a === b) continue;
      if (a !== null) add(m, level, a, -1);
      if (b !== null) add(m, level, b, 1);
    }
  }
  const cols: DeltaColumns = [[], [], [], [], [], [], []];
  for (const { m, level, bucket, count } of sums.values()) {
    if (count === 0) continue;
    cols[0].push(m.workspaceId);
    cols[1].push(m.mode);
    cols[2].push(m.period);
    cols[3].push(m.periodStart);
    cols[4].push(level);
    cols[5].push(bucket);
    cols[6].push(count);
  }
  return cols;
}

/** How many participants of the board score strictly more than `score`. */
export async function countAbove(sql: Sql, board: BoardKey, score: number): Promise<number> {
  const levels: number[] = [];
  const lo: string[] = [];
  const hi: string[] = [];
  for (let level = 0; level < LEVELS; level++) {
    const b = bucketOf(Math.max(score, 0), level);
    levels.push(level);
    lo.push(String(b));
    // Siblings only (same parent bucket); the top level has no parent.
    hi.push(level === TOP ? MAX_BIGINT : String((Math.floor(b / 256) + 1) * 256));
  }
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
    values: [board.workspaceId, board.mode, board.period, board.periodStart, levels, lo, hi],
  });
  return Number(rows[0]!.n);
}

/** A score on one board of a workspace and mode, for `countAboveMany`. */
export interface ScoreOnBoard {
  period: Period;
  periodStart: string;
  score: number;
}

/**
 * `countAbove` for many scores, on any boards of one workspace and mode, in one statement
 * (GraphQL's batched summaries and standings): the same sibling ranges per distinct board and
 * score, summed per score.
 */
export async function countAboveMany(
  sql: Sql,
  scope: { workspaceId: string; mode: Mode },
  items: readonly ScoreOnBoard[],
): Promise<number[]> {
  const keyOf = (x: ScoreOnBoard) => `${x.period}/${x.periodStart}/${Math.max(x.score, 0)}`;
  const distinct = new Map<string, ScoreOnBoard>();
  for (const x of items) distinct.set(keyOf(x), x);
  if (!distinct.size) return [];
  const cols: [number[], string[], string[], number[], string[], string[]] = [[], [], [], [], [], []];
  [...distinct.values()].forEach((x, i) => {
    const score = Math.max(x.score, 0);
    for (let level = 0; level < LEVELS; level++) {
      const b = bucketOf(score, level);
      cols[0].push(i);
      cols[1].push(x.period);
      cols[2].push(x.periodStart);
      cols[3].push(level);
      cols[4].push(String(b));
      cols[5].push(level === TOP ? MAX_BIGINT : String((Math.floor(b / 256) + 1) * 256));
    }
  });
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
  const keys = [...distinct.keys()];
  const above = new Map<string, number>();
  for (const r of rows) above.set(keys[r.i]!, Number(r.n));
  return items.map((x) => above.get(keyOf(x)) ?? 0);
}

/**
 * Folds up to `limit` pending deltas into `leaderboard_counts`. One compactor at a time (an
 * advisory lock), so the compacted rows have a single writer and never contend with postings.
 * Returns how many buckets changed: 0 when nothing was pending, or, unless `wait` is set, when
 * another compactor holds the lock (the background compactor moves on; a caller that must see
 * every delta folded, such as a repair or a test, waits for the lock instead).
 */
export async function compactDeltas(
  sql: Sql,
  limit = 20_000,
  opts: { wait?: boolean } = {},
): Promise<number> {
  const { rows: lock } = await sql.query<{ ok: boolean }>(
    opts.wait
      ? `select true as ok from pg_advisory_xact_lock(hashtext('leaderboard_counts.compact'))`
      : `select pg_try_advisory_xact_lock(hashtext('leaderboard_counts.compact')) as ok`,
  );
  if (!lock[0]?.ok) return 0;
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
  // Emptied buckets go, so the sibling ranges stay short.
  const empty = rows.filter((r) => Number(r.count) === 0).map((r) => r.id);
  if (empty.length)
    await sql.query(`delete from leaderboard_counts where id = any($1::bigint[]) and count = 0`, [empty]);
  return rows.length;
}

/**
 * Recomputes a board's histogram from its scores (bulk loads, repairs). `scoresSql` selects a
 * `score` column of the board's participants; runs in the caller's transaction.
 */
export async function rebuildHistogram(
  sql: Sql,
  board: BoardKey,
  scoresSql: string,
  params: unknown[],
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
  // Level 0 from the scores (one pass over the board), the coarser levels from level 0.
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
       from leaderboard_counts h cross join generate_series(1, ${LEVELS - 1}) as l(level)
      where h.workspace_id = $1::uuid and h.mode = $2::text and h.period = $3::text and h.period_start = $4::date
        and h.level = 0
      group by l.level, h.bucket >> (8 * l.level)`,
    key,
  );
}

/**
 * Drops the rank histograms of weeks and months that are over: boards only rank the current
 * period, so those rows are never read again (the scores themselves stay in leaderboard_scores).
 */
export async function dropPastHistograms(sql: Sql, now = new Date()): Promise<number> {
  const { rowCount } = await sql.query(
    `delete from leaderboard_counts
      where (period = 'weekly' and period_start < $1::date) or (period = 'monthly' and period_start < $2::date)`,
    [periodWindow('weekly', now).start, periodWindow('monthly', now).start],
  );
  return rowCount ?? 0;
}
