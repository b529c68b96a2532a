import type { Job } from 'pg-boss';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { markEventsFailed, processEvents } from '../services/events/process-events.ts';
import { PROCESS_EVENT_QUEUE, QUEUES } from './queues.ts';

/** The events one ingest batch accepted (one job per batch, see EventWriter). */
export const processEventPayload = z.object({ eventIds: z.array(z.uuid()).min(1) });

/** Job `events.process`: runs the engine for accepted events (the payload is checked again on dequeue). */
export const processEventJob = {
  name: PROCESS_EVENT_QUEUE,
  // burstWhenBatchFull: a backlog (jobs queued while no worker ran send no NOTIFY) drains at once, not a batch per poll.
  options: { batchSize: 50, pollingIntervalSeconds: 2, burstWhenBatchFull: true },
  async handler(ctx: AppContext, jobs: Job<unknown>[]): Promise<void> {
    const ids = jobs.flatMap((j) => processEventPayload.parse(j.data).eventIds);
    try {
      await processEvents(ctx, ids);
    } catch (err) {
      // pg-boss retries the batch; on the last attempt the events are marked `failed` (CONTRACT 6).
      const last = jobs.filter((j) => j.retryCount >= QUEUES[PROCESS_EVENT_QUEUE].retryLimit);
      if (last.length) {
        await markEventsFailed(
          ctx,
          last.flatMap((j) => processEventPayload.parse(j.data).eventIds),
          (err as Error).message,
        ).catch((e) => ctx.log.error({ err: e }, 'could not mark events failed'));
      }
      throw err;
    }
  },
};
