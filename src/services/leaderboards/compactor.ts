import type { AppContext } from '../../context.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import { compactDeltas, dropPastHistograms } from './histogram.ts';

/**
 * Folds pending rank-histogram deltas every `intervalMs` (at once again while a backlog remains)
 * and, hourly (first after a minute), drops the histograms of finished weeks and months. Reads
 * are exact without it; it only keeps the tables short. Several worker processes may run it: an
 * advisory lock lets one fold at a time. The returned stop waits for a fold in flight, so the
 * pool can close after it.
 */
export function startLeaderboardCompactor(ctx: AppContext, intervalMs = 1000): () => Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let inFlight: Promise<void> = Promise.resolve();
  let nextCleanup = Date.now() + 60_000;
  const tick = async () => {
    if (stopped || (ctx.pool as { ending?: boolean }).ending) return;
    try {
      let folded = 0;
      do {
        folded = await unitOfWork(ctx, ({ sql }) => compactDeltas(sql));
      } while (folded > 0 && !stopped && !(ctx.pool as { ending?: boolean }).ending);
      if (Date.now() >= nextCleanup) {
        nextCleanup = Date.now() + 3_600_000;
        await dropPastHistograms(ctx.pool);
      }
    } catch (err) {
      ctx.log.warn({ err }, 'leaderboard compaction failed; retrying');
    }
    if (!stopped) {
      timer = setTimeout(schedule, intervalMs);
      timer.unref();
    }
  };
  const schedule = () => {
    inFlight = tick();
  };
  timer = setTimeout(schedule, intervalMs);
  timer.unref();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await inFlight;
  };
}
