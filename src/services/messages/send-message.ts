import type { AppContext } from '../../context.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import { emitResult } from '../outbox/emit.ts';
import { messageSentData } from './queue-message.ts';
import {
  type ClaimedRow,
  claimMessage,
  markFinal,
  messageState,
  releaseClaim,
  tryLockMessage,
  unlockMessage,
} from './send.sql.ts';
import { type DeliveryOutcome, deliver } from './transports.ts';

/** Thrown to make pg-boss try the job again later (the message is still `pending`, unclaimed or busy). */
export class RetryLater extends Error {
  override readonly name = 'RetryLater';
}

export const UNKNOWN_OUTCOME =
  'send outcome unknown: the previous attempt stopped after handing the message to the transport; not retried, so it is never sent twice';

/** How long a job waits for another worker's send of the same message (SMTP socket timeout + margin). */
const LOCK_WAIT_MS = 45_000;

type SendContext = Pick<AppContext, 'pool' | 'orm' | 'boss' | 'config' | 'log'>;

/**
 * A `pending` message that was claimed, and whose lock nobody holds, was being sent by a
 * worker that died: mark it `failed` (outcome unknown). True when it did so.
 */
export async function settleOrphanedClaim(
  ctx: Pick<AppContext, 'pool' | 'orm' | 'boss'>,
  messageId: string,
): Promise<boolean> {
  const client = await ctx.pool.connect();
  try {
    if (!(await tryLockMessage(client, messageId))) return false;
    try {
      return await finish(ctx, messageId, null, { status: 'failed', error: UNKNOWN_OUTCOME }, true);
    } finally {
      await unlockMessage(client, messageId);
    }
  } finally {
    client.release();
  }
}

export type SendResult = 'sent' | 'failed' | 'already_final' | 'missing';

/**
 * The `messages.send` job's work for one message, at most once (docs/guarantees.md#messages-at-most-once):
 * 1. take a session advisory lock on the message on a dedicated connection: it is held exactly
 *    as long as this worker is alive and sending, and released by Postgres if the process dies;
 *    a busy lock means another worker is on it right now → try later;
 * 2. claim: `claimed_at` set, committed, BEFORE the transport is called;
 * 3. send; then mark `sent` (+ `message.sent` outbox row, same transaction) or `failed`.
 * A message found `pending` but already claimed while the lock is free was being sent by a
 * worker that died: whether the transport took it cannot be known, so it is marked `failed`
 * ("outcome unknown") and never sent again. A message in a final state is left alone, so a
 * redelivered job never sends twice.
 */
export async function sendMessage(
  ctx: SendContext,
  messageId: string,
  opts: { finalAttempt: boolean },
): Promise<SendResult> {
  const client = await ctx.pool.connect();
  let locked = false;
  try {
    // Another job for the same message (a duplicate, or a redelivery racing a slow send) waits
    // for that send to finish, then finds the message final. Bounded well inside the job's expiry.
    const waitUntil = Date.now() + LOCK_WAIT_MS;
    locked = await tryLockMessage(client, messageId);
    while (!locked && Date.now() < waitUntil) {
      await new Promise((r) => setTimeout(r, 100));
      locked = await tryLockMessage(client, messageId);
    }
    if (!locked) throw new RetryLater(`message ${messageId} is being sent by another worker`);

    const row = await claimMessage(client, messageId);
    if (!row) {
      const cur = await messageState(client, messageId);
      if (!cur) return 'missing';
      if (cur.status !== 'pending') return 'already_final';
      // Pending, claimed, and nobody holds the lock: the claimer died mid-send.
      await finish(ctx, messageId, null, { status: 'failed', error: UNKNOWN_OUTCOME }, true);
      return 'failed';
    }

    // The participant was erased after the message was queued: there is no one to send it to.
    if (!row.to) {
      await finish(ctx, messageId, row, { status: 'failed', error: 'recipient erased before sending' });
      return 'failed';
    }
    const outcome: DeliveryOutcome = await deliver(ctx.config, { ...row, to: row.to }).catch(
      (err: Error) => ({
        outcome: 'unknown' as const,
        error: err.message,
      }),
    );
    if (outcome.outcome === 'sent') {
      await finish(ctx, messageId, row, { status: 'sent', error: null });
      return 'sent';
    }
    if (outcome.outcome === 'not_sent' && outcome.retryable && !opts.finalAttempt) {
      // Surely not handed over: release the claim so the retry may send.
      await releaseClaim(client, messageId, outcome.error);
      throw new RetryLater(outcome.error);
    }
    const error = outcome.outcome === 'unknown' ? `send outcome unknown: ${outcome.error}` : outcome.error;
    await finish(ctx, messageId, row, { status: 'failed', error });
    ctx.log.warn({ messageId, error }, 'message not sent');
    return 'failed';
  } finally {
    if (locked) await unlockMessage(client, messageId);
    client.release();
  }
}

/**
 * The final state, with the `message.sent` result for `sent` in the same transaction (while
 * this worker still holds the message's lock on its own connection).
 */
function finish(
  ctx: Pick<AppContext, 'orm' | 'boss'>,
  messageId: string,
  row: ClaimedRow | null,
  to: { status: 'sent' | 'failed'; error: string | null },
  onlyIfClaimed = false,
): Promise<boolean> {
  return unitOfWork(ctx, async ({ sql }) => {
    const done = await markFinal(sql, messageId, to, onlyIfClaimed);
    if (done && to.status === 'sent' && row)
      await emitResult(sql, {
        workspaceId: row.workspace_id,
        mode: row.mode,
        type: 'message.sent',
        data: messageSentData(row.external_id ?? '', {
          id: row.id,
          template: row.template,
          channel: row.channel,
          status: 'sent',
        }),
      });
    return done;
  });
}
