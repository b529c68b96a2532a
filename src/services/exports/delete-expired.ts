import type { AppContext } from '../../context.ts';
import { deleteExportRow, expiredExportIds } from './repository.ts';
import { exportStorage } from './storage.ts';

/**
 * Deletes up to `limit` expired exports (docs/exports.md#expiry: files are kept 7 days), oldest
 * expiry first: the file from the storage, then the row. For the data lifecycle job, which calls it in
 * bounded batches; returns how many it deleted (fewer than `limit`: none are left).
 */
export async function deleteExpiredExports(ctx: Pick<AppContext, 'pool'>, limit: number): Promise<number> {
  const ids = await expiredExportIds(ctx.pool, limit);
  const storage = exportStorage(ctx);
  for (const id of ids) {
    // File first: a crash between the two leaves a row without a file, which the next call deletes.
    await storage.delete(id);
    await deleteExportRow(ctx.pool, id);
  }
  return ids.length;
}
