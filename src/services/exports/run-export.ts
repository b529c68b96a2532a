import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { AppContext } from '../../context.ts';
import { ChunkWriter, encoder } from './encode.ts';
import { completeRun, failRun, startRun } from './repository.ts';
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
  const row = await startRun(ctx.pool, exportId);
  if (!row) return; // completed, failed or deleted: nothing to do
  const file: ExportFile = { exportId, attempt: row.attempt };
  const storage = exportStorage(ctx);
  try {
    await storage.begin(file);
    const reader = RESOURCES[row.resource];
    const encode = encoder(row.format, reader.shape);
    const scope = { workspaceId: row.workspace_id, mode: row.mode, since: row.since, until: row.until! };
    let count = 0;
    async function* text() {
      yield encode.header();
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
    if (await completeRun(ctx.pool, file, { rows: count, bytes: writer.size }))
      ctx.log.info({ exportId, rows: count, bytes: writer.size }, 'export completed');
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
  ctx: Pick<AppContext, 'pool'>,
  exportId: string,
  attempt: number | null,
): Promise<void> {
  if (await failRun(ctx.pool, exportId, attempt, 'The export could not be written; request it again'))
    await exportStorage(ctx).delete(exportId);
}
