import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Sql } from '../../db/tx.ts';
import { notFound } from '../../errors.ts';
import { pageInput } from '../../lib/pagination.ts';
import type { Scope } from '../keys/principal.ts';
import { pagedList } from '../paged-list.ts';
import { downloadPath, presentExport } from './presenters.ts';
import { type ExportRow, exportById, pageExports } from './repository.ts';
import { type ExportDto, exportStatus } from './shapes.ts';

export const listExportsInput = pageInput.extend({ status: exportStatus.optional() });
export type ListExportsInput = z.output<typeof listExportsInput>;

/** Exports of the key's workspace and mode, newest first, expired ones left out (docs/exports.md#api). */
export const listExports = pagedList({
  input: listExportsInput,
  keyOf: (r: ExportRow & { download_url: string | null }) => r.id,
  fetch: async (ctx: AppContext, who: Scope, q, range) => {
    const rows = await pageExports(ctx.pool, who, q.status, range);
    const now = Date.now();
    return rows.map((r) => ({ ...r, download_url: downloadPath(ctx.config.secret, r, now) }));
  },
  present: (r) => presentExport(r, r.download_url),
});

/** One export of the key's workspace and mode, or null: unknown and expired alike. */
export async function findExport(sql: Sql, who: Scope, id: string): Promise<ExportRow | null> {
  return z.uuid().safeParse(id).success ? exportById(sql, who, id) : null;
}

/** `GET /v1/exports/{id}`: unknown or expired → 404. */
export async function getExport(ctx: AppContext, who: Scope, id: string): Promise<ExportDto> {
  const row = await findExport(ctx.pool, who, id);
  if (!row) throw notFound('export');
  return presentExport(row, downloadPath(ctx.config.secret, row));
}
