import type { AppContext } from '../../context.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import { foldBatch, lockWatermark, nextBatch } from './repository.ts';
import { SOURCES } from './sources.sql.ts';

/**
 * How old a row must be before the rollup passes it: a row inserted by a transaction still open
 * when the watermark moved past its id would otherwise never be counted. Ingest, ledger and
 * webhook transactions last milliseconds to seconds; two minutes is far above that.
 */
export const SETTLE_SECONDS = 120;
/** Rows folded per source and transaction (a first run over a large table goes in steps). */
export const BATCH_ROWS = 100_000;

/**
 * The rollup job's work: every source's rows after its watermark (older than the settle time)
 * added to `daily_stats`, batch by batch, until caught up. Safe to run concurrently (the
 * watermark row is locked) and to repeat (a batch and its watermark commit together).
 */
export async function rollUpDailyStats(
  ctx: Pick<AppContext, 'orm'>,
  opts: { settleSeconds?: number; batchRows?: number } = {},
): Promise<number> {
  const settle = opts.settleSeconds ?? SETTLE_SECONDS;
  const batch = opts.batchRows ?? BATCH_ROWS;
  let total = 0;
  for (const s of SOURCES) {
    for (;;) {
      // One batch and its watermark's move in one transaction; 0 rows passed = caught up.
      const n = await unitOfWork(ctx, async ({ sql }) => {
        const lo = await lockWatermark(sql, s);
        const { hi, n } = await nextBatch(sql, s, lo, settle, batch);
        if (!hi) return 0;
        await foldBatch(sql, s, lo, hi);
        return n;
      });
      total += n;
      if (n < batch) break;
    }
  }
  return total;
}
