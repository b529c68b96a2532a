import type { Sql } from '../../db/tx.ts';
import type { Mode } from '../keys/principal.ts';
import type { Channel, MessageStatus } from './shapes.ts';

// Raw SQL: a session advisory lock (`pg_advisory_lock`) is held on one dedicated connection for the
// whole send, and Postgres drops it if the worker dies; MikroORM's pooled `em` cannot pin a connection.

/** What a claim returns: the message as queued, with its participant's external id. */
export interface ClaimedRow {
  id: string;
  workspace_id: string;
  mode: Mode;
  template: string;
  channel: Channel;
  to: string | null;
  subject: string | null;
  body: string;
  external_id: string | null;
}

const LOCK_KEY = `hashtextextended('messages.send:' || $1::text, 0)`;

/** Takes the message's session lock on `sql`'s connection if nobody holds it. */
export async function tryLockMessage(sql: Sql, messageId: string): Promise<boolean> {
  const r = await sql.query<{ ok: boolean }>(`select pg_try_advisory_lock(${LOCK_KEY}) as ok`, [messageId]);
  return r.rows[0]?.ok === true;
}

/** Gives the session lock back (a connection that cannot is closed by its pool, which ends the lock too). */
export async function unlockMessage(sql: Sql, messageId: string): Promise<void> {
  await sql.query(`select pg_advisory_unlock(${LOCK_KEY})`, [messageId]).catch(() => {});
}

/** Claims a `pending`, unclaimed message (committed before the transport is called), or nothing. */
export async function claimMessage(sql: Sql, messageId: string): Promise<ClaimedRow | undefined> {
  const { rows } = await sql.query<ClaimedRow>(
    `with c as (
         update messages set claimed_at = now(), attempts = attempts + 1, updated_at = now()
          where id = $1 and status = 'pending' and claimed_at is null
          returning id, workspace_id, mode, participant_id, template, channel, "to", subject, body)
       select c.*, p.external_id from c left join participants p on p.id = c.participant_id`,
    [messageId],
  );
  return rows[0];
}

/** A message's status and claim, or nothing for an unknown id. */
export async function messageState(
  sql: Sql,
  messageId: string,
): Promise<{ status: MessageStatus; claimed_at: Date | null } | undefined> {
  const { rows } = await sql.query<{ status: MessageStatus; claimed_at: Date | null }>(
    'select status, claimed_at from messages where id = $1',
    [messageId],
  );
  return rows[0];
}

/** Lets a retry send the message again: the transport surely did not take it. */
export async function releaseClaim(sql: Sql, messageId: string, error: string): Promise<void> {
  await sql.query(
    `update messages set claimed_at = null, error = $2, updated_at = now() where id = $1 and status = 'pending'`,
    [messageId, error],
  );
}

/**
 * Moves a `pending` message to its final state (only a claimed one with `onlyIfClaimed`); true
 * when it did, false when it was final already.
 */
export async function markFinal(
  sql: Sql,
  messageId: string,
  to: { status: 'sent' | 'failed'; error: string | null },
  onlyIfClaimed: boolean,
): Promise<boolean> {
  const done = await sql.query(
    `update messages set status = $2::text, error = $3, sent_at = case when $2::text = 'sent' then now() end, updated_at = now()
        where id = $1 and status = 'pending' and ($4::boolean = false or claimed_at is not null)`,
    [messageId, to.status, to.error, onlyIfClaimed],
  );
  return done.rowCount === 1;
}
