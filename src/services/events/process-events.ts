import type pg from 'pg';
import type { AppContext } from '../../context.ts';
import { withTransaction } from '../../db/tx.ts';
import { evaluateBatch, type SendMessage } from '../flows/engine/evaluate.ts';
import { loadBatch, loadLedgerKeys, lockParticipants } from '../flows/engine/load.ts';
import { derivedKey } from '../flows/engine/types.ts';
import { writePlan } from '../flows/engine/write.ts';
import { queueMessage } from '../messages/queue-message.ts';

// Raw SQL: the engine's batch transaction (bench suite `engine`): participant rows locked `for update` in
// id order on one pool client, shared with the engine's load/write SQL.

/** Events per transaction: big enough to amortise the fixed statements, small enough to keep locks short. */
const CHUNK = 500;
const RETRYABLE = new Set(['40P01', '40001']); // deadlock, serialization failure

export interface ProcessOptions {
  /** Events on their last attempt: a failure is stored (`failed` + error) instead of retried. */
  finalAttempt?: ReadonlySet<string>;
}

/**
 * The engine (CONTRACT 9): runs the flows of accepted events, in batches. Each batch is one
 * transaction: lock the participants (id order), re-read which events are still `received`,
 * load flows, runs, counts, badges and multipliers in a few queries, evaluate in memory in event
 * order, write everything in a few statements, and mark the events `processed` — so effects
 * commit exactly when the status does. Reprocessing is harmless: processed events drop out after
 * the locks, runs are unique per (event, flow) and every effect carries its derived key.
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
    const chunk = ids.slice(i, i + CHUNK);
    for (const [id, err] of await processChunk(ctx, chunk, finalAttempt)) failed.set(id, err);
  }
  return failed;
}

async function processChunk(
  ctx: AppContext,
  ids: string[],
  finalAttempt: ReadonlySet<string>,
): Promise<Map<string, string>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await withTransaction(ctx.pool, (client) => runBatch(ctx, client, ids, finalAttempt));
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code && RETRYABLE.has(code) && attempt < 4) continue;
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
        for (const [k, v] of await processChunk(ctx, [id], finalAttempt)) failed.set(k, v);
      return failed;
    }
  }
}

async function runBatch(
  ctx: AppContext,
  client: pg.PoolClient,
  ids: string[],
  finalAttempt: ReadonlySet<string>,
): Promise<Map<string, string>> {
  const participants = await lockParticipants(client, ids);
  if (!participants.size) return new Map();
  const { events, flows, runs, multipliers, counts, badges, holdings, runCounts } = await loadBatch(
    client,
    ids,
    [...participants.keys()],
    new Date(),
  );
  if (!events.length) return new Map();
  for (const c of counts)
    participants.get(Number(c.participant_id))?.counts.set(c.event_type, Number(c.count));
  // Only a run an earlier attempt left `failed` can have written ledger entries already.
  const resumed = [...runs.values()].filter((r) => r.status === 'failed');
  const byId = new Map(events.map((e) => [e.id, e]));
  const ledgerKeys = resumed.length
    ? await loadLedgerKeys(
        client,
        resumed.flatMap((r) => {
          const e = byId.get(r.eventId);
          return e
            ? r.steps.map((_: unknown, i: number) => ({
                workspaceId: e.workspaceId,
                mode: e.mode,
                key: derivedKey(r.eventId, r.flowId, i),
              }))
            : [];
        }),
      )
    : new Set<string>();

  const sendMessage: SendMessage = async (p, template, key, context) => {
    // A savepoint, so a message that fails mid-statement leaves the batch's transaction usable.
    await client.query('savepoint send_message');
    try {
      const sent = await queueMessage(
        client,
        {
          workspaceId: p.workspaceId,
          mode: p.mode,
          participant: { id: p.id, externalId: p.externalId, email: p.email, phone: p.phone, name: p.name },
          templateKey: template,
          idempotencyKey: key,
          context: context as unknown as Record<string, unknown>,
        },
        ctx.boss,
      );
      await client.query('release savepoint send_message');
      return sent;
    } catch (err) {
      await client.query('rollback to savepoint send_message');
      throw err;
    }
  };

  const plan = await evaluateBatch(
    events,
    { participants, flows, runs, runCounts, badges, holdings, multipliers, ledgerKeys, finalAttempt },
    sendMessage,
  );
  await writePlan(client, plan, finalAttempt);
  return plan.failed;
}

/** Marks events whose processing ran out of retries; they keep their payload for a later replay. */
export async function markEventsFailed(ctx: AppContext, eventIds: string[], error: string): Promise<void> {
  await ctx.pool.query(
    `update events set status = 'failed', error = $2, processed_at = now()
      where id = any($1::uuid[]) and status = 'received'`,
    [eventIds, error.slice(0, 1000)],
  );
}
