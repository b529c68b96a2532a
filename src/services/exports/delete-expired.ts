import type { AppContext } from '../../context.ts';
import { exportStorage } from './storage.ts';

/**
 * Deletes up to `limit` expired exports (CONTRACT 15: files are kept 7 days), oldest expiry
 * first: the file from the storage, then the row. For the data lifecycle job, which calls it in
 * bounded batches; returns how many it deleted (fewer than `limit`: none are left).
 */
export async function deleteExpiredExports(ctx: Pick<AppContext, 'pool'>, limit: number): Promise<number> {
  const { rows } = await ctx.pool.query<{ id: string }>(
    `select id from exports where expires_at <= now() order by expires_at limit $1`,
    [limit],
  );
  const storage = exportStorage(ctx);
  for (const { id } of rows) {
    // File first: a crash between the two leaves a row without a file, which the next call deletes.
    await storage.delete(id);
    await ctx.pool.query(`delete from exports where id = $1`, [id]);
  }
  return rows.length;
}
