import type { Sql } from '../../db/tx.ts';
import { uuidv7Floor } from '../../lib/uuid7.ts';

// Raw SQL: bounded batches need `delete … where id in (select … order by id limit n)`, which the ORM
// cannot express, each walking a UUIDv7 primary key by range (uuidv7Floor) so no table needs an index on
// a timestamp for it; the run holds a session advisory lock on one dedicated connection.

/** The advisory lock key of the lifecycle job ("SVC" and 1): one process at a time runs it. */
export const LIFECYCLE_LOCK_KEY = 0x535643_0001;

/** Takes the lifecycle's session lock on `sql`'s connection unless another session holds it. */
export async function tryLockLifecycle(sql: Sql): Promise<boolean> {
  const { rows } = await sql.query<{ ok: boolean }>('select pg_try_advisory_lock($1) as ok', [
    LIFECYCLE_LOCK_KEY,
  ]);
  return rows[0]!.ok;
}

/** Gives the lock back (throws when the connection cannot: closing it releases the lock then). */
export async function unlockLifecycle(sql: Sql): Promise<void> {
  await sql.query('select pg_advisory_unlock($1)', [LIFECYCLE_LOCK_KEY]);
}

/**
 * A batch that would wait on a row lock held by a long transaction gives up instead of queueing
 * writers behind it (2 s on this connection, until {@link resetLockTimeout}).
 */
export async function shortLockTimeout(sql: Sql): Promise<void> {
  await sql.query(`set lock_timeout = '2s'`);
}

/** Gives the connection its default lock timeout back before it returns to the pool. */
export async function resetLockTimeout(sql: Sql): Promise<void> {
  await sql.query('reset lock_timeout');
}

/**
 * A batch statement: `$1` the UUIDv7 floor of the cutoff, `$2` the cutoff, `$3` the last id the
 * previous batch took, `$4` the limit; it answers how many rows it removed (`n`) and the last id
 * it took (`last`).
 */
export type BatchStatement = string;

/** Processed events (not those of a flow that caps its runs per participant) older than the cutoff. */
export const DELETE_EVENTS: BatchStatement = `with doomed as (
           select e.id from events e
            where e.id < $1 and e.id > $3 and e.status = 'processed' and e.received_at < $2
              and not exists (select 1 from flow_runs r join flows f on f.id = r.flow_id
                               where r.event_id = e.id and f.max_runs_per_participant is not null)
            order by e.id limit $4),
         gone as (delete from events e using doomed d where e.id = d.id returning e.id)
         select (select count(*) from gone)::int as n, (select id from doomed order by id desc limit 1) as last`;

/** Finished webhook deliveries whose last change is older than the cutoff. */
export const DELETE_DELIVERIES: BatchStatement = `with doomed as (
           select id from webhook_deliveries
            where id < $1 and id > $3 and status <> 'pending' and updated_at < $2
            order by id limit $4),
         gone as (delete from webhook_deliveries w using doomed d where w.id = d.id returning w.id)
         select (select count(*) from gone)::int as n, (select id from doomed order by id desc limit 1) as last`;

/** Outbox rows older than the cutoff that no delivery still needs. */
export const DELETE_OUTBOX: BatchStatement = `with doomed as (
           select o.id from outbox o
            where o.id < $1 and o.id > $3 and o.created_at < $2
              and not exists (select 1 from webhook_deliveries w where w.outbox_id = o.id)
            order by o.id limit $4),
         gone as (delete from outbox o using doomed d where o.id = d.id returning o.id)
         select (select count(*) from gone)::int as n, (select id from doomed order by id desc limit 1) as last`;

/** The subject and body of finished messages older than the cutoff, blanked. */
export const BLANK_MESSAGE_BODIES: BatchStatement = `with doomed as (
           select id from messages
            where id < $1 and id > $3 and created_at < $2 and status <> 'pending'
              and (body <> '' or subject is not null)
            order by id limit $4),
         blanked as (
           update messages m set body = '', subject = null from doomed d where m.id = d.id returning m.id)
         select (select count(*) from blanked)::int as n, (select id from doomed order by id desc limit 1) as last`;

/** Runs one batch of `statement` after id `after`: how many rows it removed, and the last id it took. */
export async function runBatch(
  sql: Sql,
  statement: BatchStatement,
  cutoff: Date,
  after: string,
  limit: number,
): Promise<{ n: number; last: string | null }> {
  const { rows } = await sql.query<{ n: number; last: string | null }>(statement, [
    uuidv7Floor(cutoff),
    cutoff,
    after,
    limit,
  ]);
  return rows[0]!;
}
