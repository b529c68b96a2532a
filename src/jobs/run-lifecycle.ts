import type { Job } from 'pg-boss';
import type { AppContext } from '../context.ts';
import { runRetention, runRetentionInput } from '../services/lifecycle/run-retention.ts';
import { LIFECYCLE_QUEUE } from './queues.ts';

/** Every hour at minute 17 (UTC): off the hour, when other periodic work tends to pile up. */
export const LIFECYCLE_CRON = '17 * * * *';

/**
 * Job `maintenance.lifecycle`: deletes what the retention settings let go (runRetention). Sent by
 * the pg-boss schedule registered at worker start; one at a time per process (batchSize 1), one
 * at a time per deployment (the advisory lock inside runRetention). Batch size, pause and budget
 * may be given (tests, the bench); the schedule sends none, so the defaults apply.
 */
export const runLifecycleJob = {
  name: LIFECYCLE_QUEUE,
  options: { batchSize: 1, pollingIntervalSeconds: 10 },
  async handler(ctx: AppContext, jobs: Job<unknown>[]): Promise<void> {
    for (const job of jobs) {
      await runRetention(ctx, runRetentionInput.parse(job.data ?? {}), { signal: job.signal });
    }
  },
};
