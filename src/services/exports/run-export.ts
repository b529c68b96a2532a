import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import type { AppContext } from '../../context.ts';
import { ChunkWriter, encoder } from './encode.ts';
import { EXPORT_COLUMNS, type ExportRow } from './presenters.ts';
import { RESOURCES } from './resources.ts';
import { type ExportFile, exportStorage, SupersededRun } from './storage.ts';

/**
 * Runs one export (job `exports.run`): takes the next run number, discards any earlier run's
 * partial file, streams the rows (one COPY) batch by batch through the encoder into chunks, and
 * marks the export completed (with its row count and size) only if this run still owns it. A run
 * killed at any point leaves the export `running` with a partial file nobody serves; the job's
 * retry starts over. A failure on the last attempt marks the export `failed`; earlier ones throw,
 * to be retried.
 */
export async function runExport(
  ctx: AppContext,
  exportId: string,
  opts: { finalAttempt: boolean },
): Promise<void> {
  const { rows } = await ctx.pool.query<ExportRow>(
    `update exports set status = 'running', attempt = attempt + 1, started_at = now(), error = null
      where id = $1 and status in ('pending', 'running') and expires_at > now()
      returning ${EXPORT_COLUMNS}`,
    [exportId],
  );
  const row = rows[0];
  if (!row) return; // completed, failed or deleted: nothing to do
  const file: ExportFile = { exportId, attempt: row.attempt };
  const storage = exportStorage(ctx);
  try {
    await storage.begin(file);
    const reader = RESOURCES[row.resource];
    const encode = encoder(row.format, reader.shape);
    let count = 0;
    async function* text() {
      yield encode.header();
      const scope = {
        workspaceId: row!.workspace_id,
        mode: row!.mode,
        since: row!.since,
        until: row!.until!,
      };
      for await (const rows of reader.batches(ctx.pool, scope)) {
        count += rows.length;
        yield encode.page(rows);
      }
    }
    const writer = new ChunkWriter(storage, file);
    // One page of text waits for the writer, not sixteen (the default): pages held that long
    // outlive two young-generation collections, and the old generation grew by 100 MB with them.
    await pipeline(Readable.from(text(), { highWaterMark: 1 }), writer);
    await storage.finish(file);
    const done = await ctx.pool.query(
      `update exports set status = 'completed', row_count = $3, size_bytes = $4, completed_at = now()
        where id = $1 and attempt = $2 and status = 'running'`,
      [exportId, file.attempt, count, writer.size],
    );
    if (done.rowCount === 1) ctx.log.info({ exportId, rows: count, bytes: writer.size }, 'export completed');
  } catch (err) {
    if (err instanceof SupersededRun) return; // a newer run owns the export now
    ctx.log.warn({ err, exportId, attempt: file.attempt }, 'export run failed');
    if (!opts.finalAttempt) throw err;
    await failExport(ctx, exportId, file.attempt);
  }
}

/**
 * Marks an export `failed` and deletes its partial file: after the final attempt's failure
 * (`attempt`: only if that run still owns it), or when no attempt recorded an outcome because
 * every one died (`attempt` null: job `exports.dead-letter`). A finished export is left alone.
 */
export async function failExport(
  ctx: { pool: pg.Pool },
  exportId: string,
  attempt: number | null,
): Promise<void> {
  const { rowCount } = await ctx.pool.query(
    `update exports set status = 'failed', error = $3, completed_at = now()
      where id = $1 and ($2::int is null or attempt = $2) and status in ('pending', 'running')`,
    [exportId, attempt, 'The export could not be written; request it again'],
  );
  if (rowCount) await exportStorage(ctx).delete(exportId);
}
