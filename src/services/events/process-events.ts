import type { AppContext } from '../../context.ts';
import { type Sql, uniqueViolation, withTransaction } from '../../db/tx.ts';
import { sendJob } from '../../jobs/payloads.ts';
import { PROCESS_EVENT_QUEUE } from '../../jobs/queues.ts';
import { runEngineBatch } from '../flows/engine/batch.ts';
import { messageSender } from '../flows/engine/send-message.ts';
import { finishFlowless } from './flowless.sql.ts';
import { markEventsFailed as markFailed } from './repository.ts';

/**
 * Events per transaction: big enough to amortise the fixed statements, small enough to keep locks
 * short. A fetch brings up to 2,000: 1,000 ran a little faster than 500 (bench `engine`), and
 * 2,000 would hold every lock of a fetch, and every payload of it in memory, in one transaction.
 */
const CHUNK = 1000;
const RETRYABLE = new Set(['40P01', '40001']); // deadlock, serialization failure

export interface ProcessOptions {
  /** Events on their last attempt: a failure is stored (`failed` + error) instead of retried. */
  finalAttempt?: ReadonlySet<string>;
}

/**
 * The engine (docs/api.md#flows): runs the flows of accepted events, in batches. Each batch is one
 * transaction: lock the participants (id order), re-read which events are still `received`
 * (with their participants' earlier ones waiting in other batches, so order holds across batches),
 * load flows, runs, counts, badges and multipliers in a few queries, evaluate in memory in event
 * order, write everything in a few statements, and mark the events `processed` — so effects
 * commit exactly when the status does. Reprocessing is harmless: processed events drop out after
 * the locks, runs are unique per (event, flow) and every effect carries its derived key.
 * Events no active flow listens to are finished first, by {@link processFlowless}.
 * Resolves with the events whose attempt failed (id → error); those on their final attempt are
 * stored as `failed`.
 */
export async function processEvents(
  ctx: AppContext,
  eventIds: string[],
  opts: ProcessOptions = {},
): Promise<Map<string, string>> {
  const finalAttempt = opts.finalAttempt ?? new Set<string>();
  const failed = new Map<string, string>();
  const ids = [...new Set(eventIds)].sort();
  for (let i = 0; i < ids.length; i += CHUNK) {
    let chunk = ids.slice(i, i + CHUNK);
    try {
      chunk = await processFlowless(ctx, chunk);
    } catch (err) {
      // Only a shortcut: the engine's transaction below processes these events as well.
      ctx.log.warn({ err, size: chunk.length }, 'flow-less events: shortcut failed; running the engine');
    }
    if (!chunk.length) continue;
    for (const [id, err] of await processChunk(ctx, chunk, finalAttempt)) failed.set(id, err);
  }
  return failed;
}

/**
 * The shortcut for events no active flow listens to (most of a typical stream): one statement,
 * outside any transaction of the engine's, marks them `processed` and counts them — no
 * participant lock, no load, no evaluation. Answers the events left for the engine: those with
 * flows, and those of a participant that come after one with flows in this batch (the engine
 * applies a participant's events in order, so an earlier event's conditions must not see a
 * later event's count). Whether a type has flows is read in this statement's snapshot: a flow
 * saved concurrently applies to the events whose processing starts after its save commits
 * (docs/guarantees.md#ordering). Exactly once: only rows this statement moves out of `received`
 * are counted, and the engine counts only the rows its own statement moves (engine/write.ts).
 */
export function processFlowless(ctx: AppContext, ids: string[]): Promise<string[]> {
  return finishFlowless(ctx.pool, ids);
}

/** Marks events whose processing ran out of retries; they keep their payload for a later replay. */
export function markEventsFailed(ctx: AppContext, eventIds: string[], error: string): Promise<void> {
  return markFailed(ctx.pool, eventIds, error);
}

async function processChunk(
  ctx: AppContext,
  ids: string[],
  finalAttempt: ReadonlySet<string>,
  trustFresh = true,
  pullEarlier = true,
): Promise<Map<string, string>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await withTransaction(ctx.pool, (sql) =>
        runBatch(ctx, sql, ids, finalAttempt, trustFresh, pullEarlier),
      );
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code && RETRYABLE.has(code) && attempt < 4) continue;
      // A derived ledger key that exists though no earlier run wrote it (not expected): look them up.
      if (trustFresh && uniqueViolation(err) === 'ledger_entries_idempotency_key_unique') {
        trustFresh = false;
        continue;
      }
      if (ids.length === 1) {
        const msg = (err as Error).message ?? String(err);
        ctx.log.warn({ err, eventId: ids[0] }, 'event processing failed');
        if (finalAttempt.has(ids[0]!)) await markEventsFailed(ctx, ids, msg);
        return new Map([[ids[0]!, msg]]);
      }
      // One bad event must not hold back its neighbours: process them one by one.
      ctx.log.warn({ err, size: ids.length }, 'event batch failed; processing its events one by one');
      const failed = new Map<string, string>();
      for (const id of ids)
        for (const [k, v] of await processChunk(ctx, [id], finalAttempt, trustFresh, false)) failed.set(k, v);
      return failed;
    }
  }
}

/**
 * One batch in its transaction: lock, load, evaluate, write (engine/batch.ts). The events it left
 * behind their participants' earlier ones (engine/load.ts `loadBatch`) get a job of their own in
 * the same transaction: committed with the batch, gone with it on a rollback.
 */
async function runBatch(
  ctx: AppContext,
  sql: Sql,
  ids: string[],
  finalAttempt: ReadonlySet<string>,
  trustFresh: boolean,
  pullEarlier: boolean,
): Promise<Map<string, string>> {
  const batch = await runEngineBatch(sql, ids, {
    finalAttempt,
    trustFresh,
    pullEarlier,
    // A savepoint per message, so one that fails mid-statement leaves the batch's transaction usable.
    sendMessage: messageSender(sql, ctx.boss),
  });
  if (batch?.deferred.length)
    await sendJob(ctx.boss, PROCESS_EVENT_QUEUE, { eventIds: batch.deferred }, {}, sql);
  return batch?.plan.failed ?? new Map();
}
