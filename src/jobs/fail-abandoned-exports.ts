import type { Job } from 'pg-boss';
import type { AppContext } from '../context.ts';
import { failExport } from '../services/exports/run-export.ts';
import { jobPayloads } from './payloads.ts';
import { EXPORTS_DEAD_LETTER_QUEUE, RUN_EXPORT_QUEUE } from './queues.ts';

/**
 * Job `exports.dead-letter`: pg-boss moves an `exports.run` job here when its retries ran out
 * without a run recording an outcome (the worker died on every attempt; a run that fails on its
 * last attempt marks the export failed itself). The export, still `pending` or `running`, becomes
 * `failed` and its partial file goes, so nobody waits on it for the seven days it would be kept.
 */
export const failAbandonedExportsJob = {
  name: EXPORTS_DEAD_LETTER_QUEUE,
  options: { batchSize: 5, pollingIntervalSeconds: 5 },
  async handler(ctx: AppContext, batch: Job<unknown>[]): Promise<void> {
    for (const job of batch) {
      // The dead job's payload is the `exports.run` one it carried.
      const data = jobPayloads[RUN_EXPORT_QUEUE].safeParse(job.data);
      if (data.success) await failExport(ctx, data.data.exportId, null);
    }
  },
};
