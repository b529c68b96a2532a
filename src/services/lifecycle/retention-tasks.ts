import type { AppContext } from '../../context.ts';
import type { Sql } from '../../db/tx.ts';
import { deleteExpiredExports } from '../exports/delete-expired.ts';
import {
  type BatchStatement,
  BLANK_MESSAGE_BODIES,
  DELETE_DELIVERIES,
  DELETE_EVENTS,
  DELETE_OUTBOX,
  runBatch,
} from './retention.sql.ts';

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

/** How far back each kind is kept, from the configuration (docs/data-lifecycle.md#settings). */
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
function walker(sql: Sql, statement: BatchStatement, cutoff: Date) {
  let after = '00000000-0000-0000-0000-000000000000';
  return async (limit: number) => {
    const { n, last } = await runBatch(sql, statement, cutoff, after, limit);
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
      // event row, and RETENTION_EVENTS_DAYS is at least 1, so keys outlive their 24 hours (docs/api.md#idempotency).
      name: 'events',
      batch: walker(sql, DELETE_EVENTS, cut.events),
    },
    {
      // Finished deliveries (succeeded, dead, simulated) whose last change is older than the
      // cutoff, with their attempts (cascade, webhook_attempts_delivery_idx). Pending ones stay.
      name: 'webhook_deliveries',
      batch: walker(sql, DELETE_DELIVERIES, cut.webhooks),
    },
    {
      // Results (outbox rows) older than the cutoff that no delivery still needs.
      name: 'outbox',
      batch: walker(sql, DELETE_OUTBOX, cut.webhooks),
    },
    {
      // The rendered subject and body of messages past the cutoff are blanked; the row (template,
      // channel, recipient, status, idempotency key) stays, so the log and `message.sent`
      // history keep their counts. Pending messages are still to be sent and keep theirs.
      name: 'message_bodies',
      batch: walker(sql, BLANK_MESSAGE_BODIES, cut.messages),
    },
    // Export files past their 7 days (docs/exports.md#expiry): the file's chunks, then the export's row.
    { name: 'exports', batch: (limit) => deleteExpiredExports(ctx, limit) },
  ];
}
