import type { Job } from 'pg-boss';
import type { AppContext } from '../context.ts';
import { recoverRedemption } from '../services/rewards/external-fulfilment.ts';
import { jobPayloads } from './payloads.ts';
import { RECOVER_REDEMPTION_QUEUE } from './queues.ts';

/** Job `rewards.recover-redemption`: finishes or reverses an external redemption left pending. */
export const recoverRedemptionJob = {
  name: RECOVER_REDEMPTION_QUEUE,
  options: { batchSize: 1, localConcurrency: 4, pollingIntervalSeconds: 1 },
  async handler(ctx: AppContext, jobs: Job<unknown>[]): Promise<void> {
    // Each is settled under its own row lock, so a batch retried after one failure redoes nothing.
    await Promise.all(
      jobs.map(async (job) => {
        const { redemptionId } = jobPayloads[RECOVER_REDEMPTION_QUEUE].parse(job.data);
        const status = await recoverRedemption(ctx, redemptionId);
        ctx.log.debug({ redemptionId, status }, 'redemption recovery checked');
      }),
    );
  },
};
