import type { AppContext } from '../../context.ts';

/**
 * Processes accepted events. Flows arrive with the engine; until then processing marks the event
 * `processed`. Idempotent: an event already processed (a job retried after a crash) is skipped.
 */
export async function processEvents(ctx: AppContext, eventIds: string[]): Promise<void> {
  await ctx.pool.query(
    `update events set status = 'processed', processed_at = now()
      where id = any($1::uuid[]) and status = 'received'`,
    [eventIds],
  );
}

/** Marks events whose processing ran out of retries; they keep their payload for a later replay. */
export async function markEventsFailed(ctx: AppContext, eventIds: string[], error: string): Promise<void> {
  await ctx.pool.query(
    `update events set status = 'failed', error = $2, processed_at = now()
      where id = any($1::uuid[]) and status = 'received'`,
    [eventIds, error.slice(0, 1000)],
  );
}
