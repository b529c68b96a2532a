import type { AppContext } from '../../context.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import { DomainError, notFound } from '../../errors.ts';
import { BACKFILL_BADGE_QUEUE } from '../../jobs/queues.ts';
import type { Mode, Scope } from '../keys/principal.ts';
import { backfillChunk, chunkBounds, countWouldAward } from './backfill.sql.ts';
import { windowStart } from './criteria.ts';
import { type AchievementBadge, badgeById, badgeByKey } from './repository.ts';
import type { BackfillInput, BackfillResult } from './shapes.ts';

/** Participants per chunk of a backfill, each chunk one statement in its own transaction. */
export const BACKFILL_CHUNK = 20_000;
/**
 * Chunks a backfill runs at once: each is a database connection busy on its own core (bench suite
 * `engagement`: 1,000,000 participants, all awarded, in about half the time of one lane).
 */
export const BACKFILL_LANES = 2;

/** What a backfill job is given: the badge, read again when it runs. */
export interface BackfillJob {
  workspaceId: string;
  mode: Mode;
  badgeId: number;
}

const askAt = (badge: AchievementBadge, end: Date) => ({
  badge,
  end,
  since: windowStart(badge.criteria, end),
});

/**
 * `POST /v1/badges/{key}/backfill` (docs/engagement.md#backfill): with `dry_run`, how many
 * participants meet the criteria now and do not hold the badge; otherwise a queued job awards it to
 * every one of them, each once. 404 for an unknown key, 409 `invalid_state` for a badge without criteria.
 */
export async function backfillBadge(
  ctx: Pick<AppContext, 'pool' | 'orm' | 'boss'>,
  who: Scope,
  key: string,
  input: BackfillInput,
  now: Date = new Date(),
): Promise<BackfillResult> {
  const found = await badgeByKey(ctx.pool, who, key);
  if (!found) throw notFound('badge');
  const { criteria } = found;
  if (!criteria)
    throw new DomainError(
      'invalid_state',
      `badge "${key}" has no criteria: only achievements can be backfilled`,
    );
  const badge = { ...found, criteria };
  if (input.dry_run) return { would_award: await countWouldAward(ctx.pool, askAt(badge, now)) };
  await unitOfWork(ctx, (work) =>
    work.send(BACKFILL_BADGE_QUEUE, { workspaceId: who.workspaceId, mode: who.mode, badgeId: badge.id }),
  );
  return { queued: true };
}

/**
 * Runs a backfill: walks the badge's workspace and mode by participant id in chunks of `chunk`,
 * each chunk one statement in its own transaction, `lanes` chunks at a time, awarding the badge
 * (with its `badge.awarded`) to those who meet its criteria as they stand now (read once). Safe to
 * run concurrently and to repeat: a key+tier is held once and its result emitted only by the
 * statement that inserted it. A badge deleted or stripped of its criteria meanwhile: nothing.
 * Answers how many were awarded.
 */
export async function runBackfill(
  ctx: Pick<AppContext, 'orm' | 'pool'>,
  job: BackfillJob,
  opts: { chunk?: number; lanes?: number; now?: Date } = {},
): Promise<{ awarded: number }> {
  const badge = await badgeById(ctx.pool, job);
  if (!badge) return { awarded: 0 };
  const ask = askAt(badge, opts.now ?? new Date());
  const bounds = await chunkBounds(ctx.pool, job, opts.chunk ?? BACKFILL_CHUNK);
  const ranges = [...bounds, null].map((upto, i) => ({ after: i ? bounds[i - 1]! : 0, upto }));
  let next = 0;
  let awarded = 0;
  const lane = async () => {
    for (let r = ranges[next++]; r; r = ranges[next++]) {
      const range = r;
      const n = await unitOfWork(ctx, ({ sql }) => backfillChunk(sql, ask, range.after, range.upto));
      awarded += n;
    }
  };
  await Promise.all(Array.from({ length: opts.lanes ?? BACKFILL_LANES }, lane));
  return { awarded };
}
