import type { AppContext } from '../../context.ts';
import { sendJob } from '../../jobs/payloads.ts';
import { SEND_MESSAGE_QUEUE } from '../../jobs/queues.ts';
import { claimedMessageIds, staleMessageIds } from './repository.ts';
import { settleOrphanedClaim } from './send-message.ts';

type ReconcileContext = Pick<AppContext, 'pool' | 'orm' | 'boss' | 'log'>;

/**
 * Brings `pending` live messages to a final state when their send was interrupted:
 * - claimed, and no live worker holds the message's lock → the claimer died mid-send → `failed`
 *   ("outcome unknown"), never re-sent (at most once);
 * - never claimed and older than `staleAfterSeconds` → its job may be gone (retries used up by
 *   crashes) → a new `messages.send` job. A second job for a message is harmless: the claim and
 *   the lock let only one send, and a message in a final state is never touched again.
 */
export async function reconcileMessages(
  ctx: ReconcileContext,
  opts: { staleAfterSeconds?: number; limit?: number } = {},
): Promise<{ orphaned: number; requeued: number }> {
  const limit = opts.limit ?? 500;
  let orphaned = 0;
  for (const id of await claimedMessageIds(ctx.pool, limit))
    if (await settleOrphanedClaim(ctx, id)) orphaned++;

  const stale = await staleMessageIds(ctx.pool, opts.staleAfterSeconds ?? 600, limit);
  for (const id of stale) await sendJob(ctx.boss, SEND_MESSAGE_QUEUE, { messageId: id });
  if (orphaned || stale.length) ctx.log.info({ orphaned, requeued: stale.length }, 'messages reconciled');
  return { orphaned, requeued: stale.length };
}

/** Runs `reconcileMessages` at start and then every `intervalMs`; the returned function stops it. */
export function startMessageReconciler(ctx: ReconcileContext, intervalMs = 60_000): () => Promise<void> {
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
