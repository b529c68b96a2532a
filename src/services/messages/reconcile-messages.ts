import type { AppContext } from '../../context.ts';
import { SEND_MESSAGE_QUEUE } from '../../jobs/queues.ts';
import { settleOrphanedClaim } from './send-message.ts';

// Raw SQL: an orphaned claim is told by Postgres' session advisory locks (`settleOrphanedClaim` in
// send-message.ts: no live session holds the message's lock), on the pool it shares with the sender; the
// reconciler is handed only `pool`, `boss` and `log`.

/**
 * Brings `pending` live messages to a final state when their send was interrupted:
 * - claimed, and no live worker holds the message's lock → the claimer died mid-send → `failed`
 *   ("outcome unknown"), never re-sent (at most once);
 * - never claimed and older than `staleAfterSeconds` → its job may be gone (retries used up by
 *   crashes) → a new `messages.send` job. A second job for a message is harmless: the claim and
 *   the lock let only one send, and a message in a final state is never touched again.
 */
export async function reconcileMessages(
  ctx: Pick<AppContext, 'pool' | 'boss' | 'log'>,
  opts: { staleAfterSeconds?: number; limit?: number } = {},
): Promise<{ orphaned: number; requeued: number }> {
  const limit = opts.limit ?? 500;
  const claimed = await ctx.pool.query<{ id: string }>(
    `select id from messages where status = 'pending' and claimed_at is not null order by created_at limit $1`,
    [limit],
  );
  let orphaned = 0;
  for (const { id } of claimed.rows) if (await settleOrphanedClaim(ctx, id)) orphaned++;

  const stale = await ctx.pool.query<{ id: string }>(
    `select id from messages
      where status = 'pending' and claimed_at is null and created_at < now() - make_interval(secs => $1)
      order by created_at limit $2`,
    [opts.staleAfterSeconds ?? 600, limit],
  );
  for (const { id } of stale.rows) await ctx.boss.send(SEND_MESSAGE_QUEUE, { messageId: id });
  if (orphaned || stale.rowCount) ctx.log.info({ orphaned, requeued: stale.rowCount }, 'messages reconciled');
  return { orphaned, requeued: stale.rowCount ?? 0 };
}

/** Runs `reconcileMessages` at start and then every `intervalMs`; the returned function stops it. */
export function startMessageReconciler(
  ctx: Pick<AppContext, 'pool' | 'boss' | 'log'>,
  intervalMs = 60_000,
): () => Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    if (stopped || (ctx.pool as { ending?: boolean }).ending) return;
    running = reconcileMessages(ctx)
      .catch((err) => ctx.log.warn({ err }, 'message reconciliation failed; will retry'))
      .finally(() => {
        if (stopped) return;
        timer = setTimeout(tick, intervalMs);
        timer.unref();
      });
  };
  tick();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}
