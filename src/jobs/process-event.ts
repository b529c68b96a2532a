import type { Job, JobResult, JobWithMetadata } from 'pg-boss';
import type { AppContext } from '../context.ts';
import { processEvents } from '../services/events/process-events.ts';
import { jobPayloads } from './payloads.ts';
import { PROCESS_EVENT_QUEUE } from './queues.ts';

/** The events one ingest batch accepted (one job per batch, see EventWriter). */
export const processEventPayload = jobPayloads[PROCESS_EVENT_QUEUE];

/**
 * Job `events.process`: runs the engine for accepted events (the payload is checked again on
 * dequeue). Several jobs are taken at once and processed as one batch; each job is settled on
 * its own, so one failing event retries only the job that carries it.
 */
export const processEventJob = {
  name: PROCESS_EVENT_QUEUE,
  options: {
    batchSize: 20,
    // NOTIFY (queue `notify`) wakes the worker on commit; polling is only the backstop.
    pollingIntervalSeconds: 2,
    notifyPollingIntervalSeconds: 2,
    // A backlog (jobs queued while no worker ran send no NOTIFY) drains at once, not a batch per poll.
    burstWhenBatchFull: true,
    perJobResults: true,
    // retryCount/retryLimit per job: the last attempt is the one whose failure is final.
    includeMetadata: true,
    localConcurrency: 2,
  },
  async handler(ctx: AppContext, batch: Job<unknown>[]): Promise<JobResult[]> {
    const jobs = batch as JobWithMetadata<unknown>[]; // `includeMetadata` above
    const results: JobResult[] = [];
    const parsed: { job: JobWithMetadata<unknown>; ids: string[] }[] = [];
    for (const job of jobs) {
      const data = processEventPayload.safeParse(job.data);
      if (data.success) parsed.push({ job, ids: data.data.eventIds });
      else results.push({ id: job.id, status: 'deadletter', output: { error: 'invalid job payload' } });
    }
    // On the last attempt a failure is final: the engine stores the events as `failed`
    // (docs/guarantees.md#delivery-semantics-events-at-least-once-effects-exactly-once).
    const final = new Set(parsed.filter((p) => p.job.retryCount >= p.job.retryLimit).flatMap((p) => p.ids));
    const failed = await processEvents(
      ctx,
      parsed.flatMap((p) => p.ids),
      { finalAttempt: final },
    );
    for (const { job, ids } of parsed) {
      const errors = ids
        .filter((id) => failed.has(id))
        .map((id) => ({ event_id: id, error: failed.get(id) }));
      results.push(
        errors.length
          ? { id: job.id, status: 'failed', output: { errors } }
          : { id: job.id, status: 'completed' },
      );
    }
    return results;
  },
};
