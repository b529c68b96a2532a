import type { Job } from 'pg-boss';
import type { AppContext } from '../context.ts';
import { runExport } from '../services/exports/run-export.ts';
import { jobPayloads } from './payloads.ts';
import { QUEUES, RUN_EXPORT_QUEUE } from './queues.ts';

/**
 * Job `exports.run`: writes one export's file (queued by `requestExport` in the transaction that
 * recorded it). One at a time per process: a run streams, so it is bound by the database, and
 * a second one would only halve the speed of both.
 */
export const runExportJob = {
  name: RUN_EXPORT_QUEUE,
  options: { batchSize: 1, localConcurrency: 1, pollingIntervalSeconds: 2 },
  async handler(ctx: AppContext, jobs: Job<unknown>[]): Promise<void> {
    for (const job of jobs) {
      const { exportId } = jobPayloads[RUN_EXPORT_QUEUE].parse(job.data);
      await runExport(ctx, exportId, {
        finalAttempt: job.retryCount >= QUEUES[RUN_EXPORT_QUEUE].retryLimit,
      });
    }
  },
};
