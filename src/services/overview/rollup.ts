import type { AppContext } from '../../context.ts';
import { type Sql, withTransaction } from '../../db/tx.ts';
import { SOURCES, type StatSource } from './sources.ts';

/**
 * How old a row must be before the rollup passes it: a row inserted by a transaction still open
 * when the watermark moved past its id would otherwise never be counted. Ingest, ledger and
 * webhook transactions last milliseconds to seconds; two minutes is far above that.
 */
export const SETTLE_SECONDS = 120;
/** Rows folded per source and transaction (a first run over a large table goes in steps). */
export const BATCH_ROWS = 100_000;

/** Reads the source's watermark, locking it so two rollups never fold the same rows. */
async function lockWatermark(c: Sql, s: StatSource): Promise<string> {
  await c.query(
    `insert into daily_stats_watermarks (source, last_id) values ($1, null) on conflict (source) do nothing`,
    [s.name],
  );
  const { rows } = await c.query<{ last_id: string | null }>(
    `select last_id from daily_stats_watermarks where source = $1 for update`,
    [s.name],
  );
  return rows[0]?.last_id ?? s.floor;
}

/**
 * Folds one batch of a source's rows after its watermark into `daily_stats`, in one transaction
 * with the watermark's move. Returns how many rows it passed (0 = caught up).
 */
async function rollUpBatch(c: Sql, s: StatSource, settleSeconds: number, batchRows: number): Promise<number> {
  const lo = await lockWatermark(c, s);
  // The highest id of the next batch, among rows older than the settle time.
  const { rows } = await c.query<{ hi: string | null; n: string }>(
    `with b as (
       select id from ${s.table}
        where id > $1::${s.idType} and ${s.time} < now() - make_interval(secs => $2)
        order by id limit $3)
     select (select id::text from b order by id desc limit 1) as hi, (select count(*) from b) as n`,
    [lo, settleSeconds, batchRows],
  );
  const hi = rows[0]?.hi;
  if (!hi) return 0;
  await c.query(
    `insert into daily_stats (workspace_id, mode, day, metric, key, value)
     ${s.sql.replace('$where', `x.id > $1::${s.idType} and x.id <= $2::${s.idType}`)}
     on conflict (workspace_id, mode, day, metric, key) do update set value = daily_stats.value + excluded.value`,
    [lo, hi],
  );
  await c.query(`update daily_stats_watermarks set last_id = $2, updated_at = now() where source = $1`, [
    s.name,
    hi,
  ]);
  return Number(rows[0]?.n ?? 0);
}

/**
 * The rollup job's work: every source's rows after its watermark (older than the settle time)
 * added to `daily_stats`, batch by batch, until caught up. Safe to run concurrently (the
 * watermark row is locked) and to repeat (a batch and its watermark commit together).
 */
export async function rollUpDailyStats(
  ctx: Pick<AppContext, 'pool'>,
  opts: { settleSeconds?: number; batchRows?: number } = {},
): Promise<number> {
  const settle = opts.settleSeconds ?? SETTLE_SECONDS;
  const batch = opts.batchRows ?? BATCH_ROWS;
  let total = 0;
  for (const s of SOURCES) {
    for (;;) {
      const n = await withTransaction(ctx.pool, (c) => rollUpBatch(c, s, settle, batch));
      total += n;
      if (n < batch) break;
    }
  }
  return total;
}
