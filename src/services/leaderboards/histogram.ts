import type { Sql } from '../../db/tx.ts';
import type { Mode } from '../keys/principal.ts';
import {
  type BoardKey,
  type DeltaColumns,
  deleteEmptyBuckets,
  deletePastHistograms,
  foldDeltas,
  type ItemRanges,
  insertDeltas,
  lockCompaction,
  rebuildBoard,
  sumRanges,
  sumRangesMany,
} from './histogram.sql.ts';
import { type Period, periodWindow } from './periods.ts';

export { type BoardKey, type DeltaColumns, deltaInsertSql } from './histogram.sql.ts';

/**
 * Ranks without counting participants (docs/architecture.md#leaderboards). Every board keeps a
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

/** The exclusive upper bound of a bucket's siblings (same parent bucket); the top level has no parent. */
const siblingsEnd = (bucket: number, level: number) =>
  level === TOP ? MAX_BIGINT : String((Math.floor(bucket / 256) + 1) * 256);

export interface ScoreMove extends BoardKey {
  from: number;
  to: number;
}

/** Appends the histogram deltas for score changes (zero scores are not counted: they rank last). */
export async function appendMoves(sql: Sql, moves: ScoreMove[]): Promise<void> {
  const cols = deltaColumns(moves);
  if (!cols[0].length) return;
  await insertDeltas(sql, cols);
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
  const ranges = { levels: [] as number[], lo: [] as string[], hi: [] as string[] };
  for (let level = 0; level < LEVELS; level++) {
    const b = bucketOf(Math.max(score, 0), level);
    ranges.levels.push(level);
    ranges.lo.push(String(b));
    ranges.hi.push(siblingsEnd(b, level));
  }
  return sumRanges(sql, board, ranges);
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
  const cols: ItemRanges = [[], [], [], [], [], []];
  [...distinct.values()].forEach((x, i) => {
    const score = Math.max(x.score, 0);
    for (let level = 0; level < LEVELS; level++) {
      const b = bucketOf(score, level);
      cols[0].push(i);
      cols[1].push(x.period);
      cols[2].push(x.periodStart);
      cols[3].push(level);
      cols[4].push(String(b));
      cols[5].push(siblingsEnd(b, level));
    }
  });
  const rows = await sumRangesMany(sql, scope, cols);
  const keys = [...distinct.keys()];
  const above = new Map<string, number>();
  for (const r of rows) above.set(keys[r.i]!, Number(r.n));
  return items.map((x) => above.get(keyOf(x)) ?? 0);
}

/**
 * Folds up to `limit` pending deltas into `leaderboard_counts`, in the caller's transaction. One
 * compactor at a time (an advisory lock), so the compacted rows have a single writer and never
 * contend with postings. Returns how many buckets changed: 0 when nothing was pending, or, unless
 * `wait` is set, when another compactor holds the lock (the background compactor moves on; a
 * caller that must see every delta folded, such as a repair or a test, waits for the lock instead).
 */
export async function compactDeltas(
  sql: Sql,
  limit = 20_000,
  opts: { wait?: boolean } = {},
): Promise<number> {
  if (!(await lockCompaction(sql, opts.wait === true))) return 0;
  const rows = await foldDeltas(sql, limit);
  // Emptied buckets go, so the sibling ranges stay short.
  const empty = rows.filter((r) => Number(r.count) === 0).map((r) => r.id);
  if (empty.length) await deleteEmptyBuckets(sql, empty);
  return rows.length;
}

/**
 * Recomputes a board's histogram from its scores (bulk loads, repairs). `scoresSql` selects a
 * `score` column of the board's participants; runs in the caller's transaction.
 */
export function rebuildHistogram(
  sql: Sql,
  board: BoardKey,
  scoresSql: string,
  params: unknown[],
): Promise<void> {
  return rebuildBoard(sql, board, scoresSql, params, LEVELS);
}

/**
 * Drops the rank histograms of weeks and months that are over: boards only rank the current
 * period, so those rows are never read again (the scores themselves stay in leaderboard_scores).
 */
export function dropPastHistograms(sql: Sql, now = new Date()): Promise<number> {
  return deletePastHistograms(sql, periodWindow('weekly', now).start, periodWindow('monthly', now).start);
}
