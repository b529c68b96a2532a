import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { lifecycleMetrics } from '../../metrics.ts';
import { resetLockTimeout, shortLockTimeout, tryLockLifecycle, unlockLifecycle } from './retention.sql.ts';
import { type RetentionTask, retentionTasks } from './retention-tasks.ts';

export const runRetentionInput = z.object({
  /** Rows per statement. */
  batchSize: z.int().min(1).max(50_000).default(5_000),
  /** The least pause between two batches; the pause is at least as long as the batch took. */
  pauseMs: z.int().min(0).max(60_000).default(50),
  /** Stops starting batches after this long; the next run carries on. */
  budgetMs: z
    .int()
    .min(1)
    .max(24 * 3_600_000)
    .default(50 * 60_000),
});
export type RunRetentionInput = z.output<typeof runRetentionInput>;

export interface RetentionReport {
  /** False when another process held the lock: this run did nothing. */
  ran: boolean;
  /** Rows removed (or blanked) per task. */
  rows: Record<string, number>;
  /** Statements run per task (each touching at most `batchSize` rows). */
  batches: Record<string, number>;
  /** True when the time budget ran out before every task was done. */
  stoppedEarly: boolean;
  durationMs: number;
}

/**
 * The data lifecycle (docs/data-lifecycle.md): removes what the retention settings let go, in
 * statements of at most `batchSize` rows (each its own short transaction: no long locks, no
 * table rewrite; Postgres reuses the space after autovacuum), pausing between batches at least as
 * long as the batch took, so it never takes more than half of one connection's time. Under a
 * session advisory lock, so one process in the deployment runs it at a time; a second caller
 * returns `ran: false` at once. Counts go to the `svc_retention_*` metrics and the log.
 */
export async function runRetention(
  ctx: AppContext,
  { batchSize, pauseMs, budgetMs }: RunRetentionInput,
  opts: { signal?: AbortSignal; now?: Date } = {},
): Promise<RetentionReport> {
  const started = Date.now();
  const report: RetentionReport = { ran: false, rows: {}, batches: {}, stoppedEarly: false, durationMs: 0 };
  const client = await ctx.pool.connect();
  let locked = false;
  try {
    locked = await tryLockLifecycle(client);
    if (!locked) {
      lifecycleMetrics.runs.inc({ outcome: 'locked' });
      ctx.log.info('data lifecycle: another process is running it; skipped');
      return report;
    }
    report.ran = true;
    // A batch that would wait on a long transaction's row lock gives up; the next run retries.
    await shortLockTimeout(client);
    const tasks = retentionTasks(ctx, client, opts.now);
    const outOfTime = () => Date.now() - started >= budgetMs || opts.signal?.aborted === true;
    for (const task of tasks) {
      report.rows[task.name] = 0;
      report.batches[task.name] = 0;
      if (!(await drain(task, batchSize, pauseMs, report, outOfTime, opts.signal))) {
        report.stoppedEarly = true;
        break;
      }
    }
    report.durationMs = Date.now() - started;
    lifecycleMetrics.runs.inc({ outcome: 'completed' });
    lifecycleMetrics.lastRun.set(Date.now() / 1000);
    ctx.log.info({ lifecycle: report }, 'data lifecycle: run completed');
    return report;
  } catch (err) {
    lifecycleMetrics.runs.inc({ outcome: 'failed' });
    ctx.log.error({ err, lifecycle: report }, 'data lifecycle: run failed');
    throw err;
  } finally {
    // A connection that could not give the lock back is closed, not pooled: closing its session
    // is what releases the lock then.
    let broken: Error | undefined;
    if (locked)
      await unlockLifecycle(client).catch((err: Error) => {
        broken = err;
      });
    await resetLockTimeout(client).catch(() => {});
    client.release(broken);
  }
}

/** Runs one task's batches until one comes back short; false when time ran out first. */
async function drain(
  task: RetentionTask,
  batchSize: number,
  pauseMs: number,
  report: RetentionReport,
  outOfTime: () => boolean,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  for (;;) {
    if (outOfTime()) return false;
    const t0 = Date.now();
    const n = await task.batch(batchSize);
    const took = Date.now() - t0;
    report.batches[task.name] = (report.batches[task.name] ?? 0) + 1;
    report.rows[task.name] = (report.rows[task.name] ?? 0) + n;
    lifecycleMetrics.batches.inc({ task: task.name });
    lifecycleMetrics.rows.inc({ task: task.name }, n);
    if (n < batchSize) return true;
    await sleep(Math.max(pauseMs, took), undefined, { signal }).catch(() => {});
  }
}
