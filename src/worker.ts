import type { WorkOptions } from 'pg-boss';
import type { AppContext } from './context.ts';
import { backfillBadgeJob } from './jobs/backfill-badge.ts';
import { startWebhookDelivery } from './jobs/deliver-webhooks.ts';
import { failAbandonedEventsJob } from './jobs/fail-abandoned-events.ts';
import { failAbandonedExportsJob } from './jobs/fail-abandoned-exports.ts';
import { processEventJob } from './jobs/process-event.ts';
import { recoverRedemptionJob } from './jobs/recover-redemption.ts';
import { DAILY_STATS_CRON, rollUpDailyStatsJob } from './jobs/roll-up-daily-stats.ts';
import { runExportJob } from './jobs/run-export.ts';
import { LIFECYCLE_CRON, runLifecycleJob } from './jobs/run-lifecycle.ts';
import { sendMessageJob } from './jobs/send-message.ts';
import { startLeaderboardCompactor } from './services/leaderboards/compactor.ts';
import { startMessageReconciler } from './services/messages/reconcile-messages.ts';
import { startLoyaltyTicker } from './services/points/loyalty-tick.ts';

/** Every job definition this process runs when its role includes `worker`. */
const jobs = [
  processEventJob,
  failAbandonedEventsJob,
  sendMessageJob,
  recoverRedemptionJob,
  runLifecycleJob,
  runExportJob,
  failAbandonedExportsJob,
  rollUpDailyStatsJob,
  backfillBadgeJob,
];

export async function startWorkers(ctx: AppContext): Promise<void> {
  for (const job of jobs) {
    // Options typed loosely: the events job settles each job itself (`perJobResults`), the others do not.
    await ctx.boss.work(
      job.name,
      job.options as WorkOptions,
      (batch) => job.handler(ctx, batch) as Promise<unknown>,
    );
  }
  // Idempotent: every worker process (re)writes the same schedule row; pg-boss creates one job per
  // occurrence, whichever processes run.
  await ctx.boss.schedule(runLifecycleJob.name, LIFECYCLE_CRON, {}, { tz: 'UTC' });
  await ctx.boss.schedule(rollUpDailyStatsJob.name, DAILY_STATS_CRON, {}, { tz: 'UTC' });
  const stopCompactor = startLeaderboardCompactor(ctx);
  stoppers.set(ctx, [...(stoppers.get(ctx) ?? []), stopCompactor]);
  const stopDelivery = await startWebhookDelivery(ctx);
  stoppers.set(ctx, [...(stoppers.get(ctx) ?? []), stopDelivery]);
  const stopReconciler = startMessageReconciler(ctx);
  stoppers.set(ctx, [...(stoppers.get(ctx) ?? []), stopReconciler]);
  const stopLoyalty = startLoyaltyTicker(ctx);
  stoppers.set(ctx, [...(stoppers.get(ctx) ?? []), stopLoyalty]);
}

/** Graceful stops of the long-running workers (not pg-boss queues) this process started. */
const stoppers = new WeakMap<AppContext, (() => Promise<void>)[]>();

/** Lets those workers finish what is in flight; called by the runtime before its pools close. */
export async function stopWorkers(ctx: AppContext): Promise<void> {
  const stops = stoppers.get(ctx) ?? [];
  stoppers.delete(ctx);
  await Promise.all(stops.map((stop) => stop()));
}
