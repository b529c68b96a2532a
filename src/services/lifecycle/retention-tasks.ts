import type { AppContext } from '../../context.ts';
import type { Sql } from '../../db/tx.ts';
import { uuidv7Floor } from '../../lib/uuid7.ts';

// Raw SQL: bounded batches need `delete … where id in (select … order by id limit n)`, which the
// ORM cannot express, and every statement here walks a UUIDv7 primary key by range (uuidv7Floor)
// so no table needs an index on a timestamp column for it.

/** One kind of data the lifecycle job removes, one bounded batch at a time. */
export interface RetentionTask {
  /** The metric label and log key. */
  name: string;
  /**
   * Removes (or blanks) at most `limit` rows in one short statement of its own transaction and
   * says how many; fewer than `limit` means nothing is left to do this run.
   */
  batch(limit: number): Promise<number>;
}

const DAY_MS = 86_400_000;

/** How far back each kind is kept, from the configuration (CONTRACT 2). */
export function retentionCutoffs(config: AppContext['config'], now = new Date()) {
  const before = (days: number) => new Date(now.getTime() - days * DAY_MS);
  return {
    events: before(config.RETENTION_EVENTS_DAYS),
    webhooks: before(config.RETENTION_WEBHOOKS_DAYS),
    messages: before(config.RETENTION_MESSAGES_DAYS),
  };
}

/**
 * A keyset walk up a UUIDv7 primary key: each batch starts after the last row the previous one
 * took, so rows the filter keeps (pending work) are passed over once per run, not once per batch.
 */
function walker(sql: Sql, statement: string, cutoff: Date) {
  let after = '00000000-0000-0000-0000-000000000000';
  return async (limit: number) => {
    const { rows } = await sql.query<{ n: number; last: string | null }>(statement, [
      uuidv7Floor(cutoff),
      cutoff,
      after,
      limit,
    ]);
    const { n, last } = rows[0]!;
    if (last) after = last;
    return n;
  };
}

/**
 * Every retention task of one run, in order, each holding its cutoff and its keyset position.
 * Deliveries go before outbox rows (an outbox row goes only when no delivery of it is left), so a
 * pending delivery keeps its result. The ledger, balances, badges and redemptions are never here.
 */
export function retentionTasks(ctx: AppContext, sql: Sql, now = new Date()): RetentionTask[] {
  const cut = retentionCutoffs(ctx.config, now);
  return [
    {
      // Processed events only: `received` ones are still to be processed, `failed` and
      // `quarantined` ones wait for an operator. Their flow runs go by the foreign key's cascade
      // (indexed by flow_runs_event_flow_unique), except that an event with a run of a flow that
      // caps its runs per participant stays: the engine counts those runs (engine/load.ts), and
      // deleting them would let a once-only flow fire again. The idempotency key lives on the
      // event row, and RETENTION_EVENTS_DAYS is at least 1, so keys outlive CONTRACT 5's 24 hours.
      name: 'events',
      batch: walker(
        sql,
        `with doomed as (
           select e.id from events e
            where e.id < $1 and e.id > $3 and e.status = 'processed' and e.received_at < $2
              and not exists (select 1 from flow_runs r join flows f on f.id = r.flow_id
                               where r.event_id = e.id and f.max_runs_per_participant is not null)
            order by e.id limit $4),
         gone as (delete from events e using doomed d where e.id = d.id returning e.id)
         select (select count(*) from gone)::int as n, (select id from doomed order by id desc limit 1) as last`,
        cut.events,
      ),
    },
    {
      // Finished deliveries (succeeded, dead, simulated) whose last change is older than the
      // cutoff, with their attempts (cascade, webhook_attempts_delivery_idx). Pending ones stay.
      name: 'webhook_deliveries',
      batch: walker(
        sql,
        `with doomed as (
           select id from webhook_deliveries
            where id < $1 and id > $3 and status <> 'pending' and updated_at < $2
            order by id limit $4),
         gone as (delete from webhook_deliveries w using doomed d where w.id = d.id returning w.id)
         select (select count(*) from gone)::int as n, (select id from doomed order by id desc limit 1) as last`,
        cut.webhooks,
      ),
    },
    {
      // Results (outbox rows) older than the cutoff that no delivery still needs.
      name: 'outbox',
      batch: walker(
        sql,
        `with doomed as (
           select o.id from outbox o
            where o.id < $1 and o.id > $3 and o.created_at < $2
              and not exists (select 1 from webhook_deliveries w where w.outbox_id = o.id)
            order by o.id limit $4),
         gone as (delete from outbox o using doomed d where o.id = d.id returning o.id)
         select (select count(*) from gone)::int as n, (select id from doomed order by id desc limit 1) as last`,
        cut.webhooks,
      ),
    },
    {
      // The rendered subject and body of messages past the cutoff are blanked; the row (template,
      // channel, recipient, status, idempotency key) stays, so the log and `message.sent`
      // history keep their counts. Pending messages are still to be sent and keep theirs.
      name: 'message_bodies',
      batch: walker(
        sql,
        `with doomed as (
           select id from messages
            where id < $1 and id > $3 and created_at < $2 and status <> 'pending'
              and (body <> '' or subject is not null)
            order by id limit $4),
         blanked as (
           update messages m set body = '', subject = null from doomed d where m.id = d.id returning m.id)
         select (select count(*) from blanked)::int as n, (select id from doomed order by id desc limit 1) as last`,
        cut.messages,
      ),
    },
    // MERGE: the exports helper's `deleteExpiredExports(ctx, limit)` (src/services/exports) joins
    // here as one more task, the only call site it needs:
    //   { name: 'exports', batch: (limit) => deleteExpiredExports(ctx, limit) },
  ];
}
