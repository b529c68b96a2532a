import type { Job } from 'pg-boss';
import type { AppContext } from '../context.ts';
import { rollUpDailyStats } from '../services/overview/rollup.ts';
import { DAILY_STATS_QUEUE } from './queues.ts';

/** Every minute (pg-boss schedule): the cron expression `startWorkers` registers. */
export const DAILY_STATS_CRON = '* * * * *';

/**
 * Job `overview.daily-stats`: folds the rows added since the last run into `daily_stats`
 * (src/services/overview/rollup.ts). Nothing runs on the ingest path; the overview stays exact
 * between runs by reading the rows after the watermark itself.
 */
export const rollUpDailyStatsJob = {
  name: DAILY_STATS_QUEUE,
  options: { batchSize: 1, pollingIntervalSeconds: 10 },
  async handler(ctx: AppContext, _batch: Job<unknown>[]): Promise<void> {
    const rows = await rollUpDailyStats(ctx);
    if (rows) ctx.log.debug({ rows }, 'daily stats rolled up');
  },
};
