import type pg from 'pg';
import type { AppContext } from '../../context.ts';
import type { Mode } from '../keys/principal.ts';
import { emitResult } from '../outbox/emit.ts';
import { messageSentData } from './queue-message.ts';
import { type DeliveryOutcome, deliver } from './transports.ts';

// Raw SQL: needs a session advisory lock (`pg_advisory_lock`) held on one dedicated connection for the
// whole send, which Postgres drops if the worker dies; MikroORM's pooled `em` cannot pin a connection.

/** Thrown to make pg-boss try the job again later (the message is still `pending`, unclaimed or busy). */
export class RetryLater extends Error {
  override readonly name = 'RetryLater';
}

export const UNKNOWN_OUTCOME =
  'send outcome unknown: the previous attempt stopped after handing the message to the transport; not retried, so it is never sent twice';

interface ClaimedRow {
  id: string;
  workspace_id: string;
  mode: Mode;
  template: string;
  channel: string;
  to: string | null;
  subject: string | null;
  body: string;
  external_id: string | null;
}

/** How long a job waits for another worker's send of the same message (SMTP socket timeout + margin). */
const LOCK_WAIT_MS = 45_000;

const LOCK_KEY = `hashtextextended('messages.send:' || $1::text, 0)`;

/** A session lock on one message: held by the worker sending it, dropped by Postgres if that worker dies. */
async function tryLock(client: pg.PoolClient, messageId: string): Promise<boolean> {
  const r = await client.query<{ ok: boolean }>(`select pg_try_advisory_lock(${LOCK_KEY}) as ok`, [
    messageId,
  ]);
  return r.rows[0]?.ok === true;
}

async function unlock(client: pg.PoolClient, messageId: string): Promise<void> {
  await client.query(`select pg_advisory_unlock(${LOCK_KEY})`, [messageId]).catch(() => {});
}

/**
 * A `pending` message that was claimed, and whose lock nobody holds, was being sent by a
 * worker that died: mark it `failed` (outcome unknown). True when it did so.
 */
export async function settleOrphanedClaim(
  ctx: Pick<AppContext, 'pool'>,
  messageId: string,
): Promise<boolean> {
  const client = await ctx.pool.connect();
  try {
    if (!(await tryLock(client, messageId))) return false;
    try {
      return await finish(client, messageId, null, { status: 'failed', error: UNKNOWN_OUTCOME }, true);
    } finally {
      await unlock(client, messageId);
    }
  } finally {
    client.release();
  }
}

export type SendResult = 'sent' | 'failed' | 'already_final' | 'missing';

/**
 * The `messages.send` job's work for one message, at most once (README "Messages"):
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
  ctx: Pick<AppContext, 'pool' | 'config' | 'log'>,
  messageId: string,
  opts: { finalAttempt: boolean },
): Promise<SendResult> {
  const client = await ctx.pool.connect();
  let locked = false;
  try {
    // Another job for the same message (a duplicate, or a redelivery racing a slow send) waits
    // for that send to finish, then finds the message final. Bounded well inside the job's expiry.
    const waitUntil = Date.now() + LOCK_WAIT_MS;
    locked = await tryLock(client, messageId);
    while (!locked && Date.now() < waitUntil) {
      await new Promise((r) => setTimeout(r, 100));
      locked = await tryLock(client, messageId);
    }
    if (!locked) throw new RetryLater(`message ${messageId} is being sent by another worker`);

    const claimed = await client.query<ClaimedRow>(
      `with c as (
         update messages set claimed_at = now(), attempts = attempts + 1, updated_at = now()
          where id = $1 and status = 'pending' and claimed_at is null
          returning id, workspace_id, mode, participant_id, template, channel, "to", subject, body)
       select c.*, p.external_id from c left join participants p on p.id = c.participant_id`,
      [messageId],
    );
    const row = claimed.rows[0];
    if (!row) {
      const cur = (
        await client.query<{ status: string; claimed_at: Date | null }>(
          'select status, claimed_at from messages where id = $1',
          [messageId],
        )
      ).rows[0];
      if (!cur) return 'missing';
      if (cur.status !== 'pending') return 'already_final';
      // Pending, claimed, and nobody holds the lock: the claimer died mid-send.
      await finish(client, messageId, null, { status: 'failed', error: UNKNOWN_OUTCOME }, true);
      return 'failed';
    }

    // The participant was erased after the message was queued: there is no one to send it to.
    if (!row.to) {
      await finish(client, messageId, row, { status: 'failed', error: 'recipient erased before sending' });
      return 'failed';
    }
    const outcome: DeliveryOutcome = await deliver(ctx.config, { ...row, to: row.to }).catch(
      (err: Error) => ({
        outcome: 'unknown' as const,
        error: err.message,
      }),
    );
    if (outcome.outcome === 'sent') {
      await finish(client, messageId, row, { status: 'sent', error: null });
      return 'sent';
    }
    if (outcome.outcome === 'not_sent' && outcome.retryable && !opts.finalAttempt) {
      // Surely not handed over: release the claim so the retry may send.
      await client.query(
        `update messages set claimed_at = null, error = $2, updated_at = now() where id = $1 and status = 'pending'`,
        [messageId, outcome.error],
      );
      throw new RetryLater(outcome.error);
    }
    const error = outcome.outcome === 'unknown' ? `send outcome unknown: ${outcome.error}` : outcome.error;
    await finish(client, messageId, row, { status: 'failed', error });
    ctx.log.warn({ messageId, error }, 'message not sent');
    return 'failed';
  } finally {
    if (locked) await unlock(client, messageId);
    client.release();
  }
}

/** The final state, with the `message.sent` result for `sent` in the same transaction. */
async function finish(
  client: pg.PoolClient,
  messageId: string,
  row: ClaimedRow | null,
  to: { status: 'sent' | 'failed'; error: string | null },
  onlyIfClaimed = false,
): Promise<boolean> {
  await client.query('begin');
  try {
    const done = await client.query(
      `update messages set status = $2::text, error = $3, sent_at = case when $2::text = 'sent' then now() end, updated_at = now()
        where id = $1 and status = 'pending' and ($4::boolean = false or claimed_at is not null)`,
      [messageId, to.status, to.error, onlyIfClaimed],
    );
    if (done.rowCount === 1 && to.status === 'sent' && row) {
      await emitResult(client, {
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
    }
    await client.query('commit');
    return done.rowCount === 1;
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  }
}
