import type { AppContext } from './context.ts';
import { processEventJob } from './jobs/process-event.ts';

/** Every job definition this process runs when its role includes `worker`. */
const jobs = [processEventJob];

export async function startWorkers(ctx: AppContext): Promise<void> {
  for (const job of jobs) {
    await ctx.boss.work(job.name, job.options, (batch) => job.handler(ctx, batch));
  }
}
