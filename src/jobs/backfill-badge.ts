import type { Job } from 'pg-boss';
import type { AppContext } from '../context.ts';
import { runBackfill } from '../services/achievements/backfill.ts';
import { jobPayloads } from './payloads.ts';
import { BACKFILL_BADGE_QUEUE } from './queues.ts';

/**
 * Job `achievements.backfill`: awards a badge to every participant who already meets its criteria
 * (queued by `POST /v1/badges/{key}/backfill`). One at a time per process: a backfill walks a whole
 * workspace and is bound by the database; concurrent ones on several workers are safe.
 */
export const backfillBadgeJob = {
  name: BACKFILL_BADGE_QUEUE,
  options: { batchSize: 1, localConcurrency: 1, pollingIntervalSeconds: 2 },
  async handler(ctx: AppContext, jobs: Job<unknown>[]): Promise<void> {
    for (const job of jobs) {
      const payload = jobPayloads[BACKFILL_BADGE_QUEUE].parse(job.data);
      const { awarded } = await runBackfill(ctx, payload);
      ctx.log.info({ ...payload, awarded }, 'badge backfill finished');
    }
  },
};
