import type { Job } from 'pg-boss';
import type { AppContext } from '../context.ts';
import { markEventsFailed } from '../services/events/process-events.ts';
import { processEventPayload } from './process-event.ts';
import { EVENTS_DEAD_LETTER_QUEUE } from './queues.ts';

/**
 * Job `events.dead-letter`: pg-boss moves an `events.process` job here when its retries ran out
 * without the handler recording an outcome (the worker died or timed out on every attempt; a
 * handler that fails on its last attempt stores `failed` itself). Its events that are still
 * `received` become `failed` with the reason (docs/guarantees.md#delivery-semantics-events-at-least-once-effects-exactly-once);
 * processed ones are untouched.
 */
export const failAbandonedEventsJob = {
  name: EVENTS_DEAD_LETTER_QUEUE,
  options: { batchSize: 20, pollingIntervalSeconds: 5 },
  async handler(ctx: AppContext, batch: Job<unknown>[]): Promise<void> {
    const ids = batch.flatMap((job) => {
      const data = processEventPayload.safeParse(job.data);
      return data.success ? data.data.eventIds : [];
    });
    if (ids.length)
      await markEventsFailed(
        ctx,
        ids,
        'processing did not finish: the worker stopped or timed out on every attempt',
      );
  },
};
