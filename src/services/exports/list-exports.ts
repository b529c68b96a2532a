import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Sql } from '../../db/tx.ts';
import { notFound } from '../../errors.ts';
import { keysetSql, pageInput } from '../../lib/pagination.ts';
import type { Scope } from '../keys/principal.ts';
import { pagedList } from '../paged-list.ts';
import { downloadPath, EXPORT_COLUMNS, type ExportRow, presentExport } from './presenters.ts';
import { type ExportDto, exportStatus } from './shapes.ts';

// Raw SQL: the export rows are also read by the job and the download door on the pool (presenters.ts).

export const listExportsInput = pageInput.extend({ status: exportStatus.optional() });

/** Exports of the key's workspace and mode, newest first, expired ones left out (CONTRACT 15). */
export const listExports = pagedList({
  input: listExportsInput,
  keyOf: (r: ExportRow & { download_url: string | null }) => r.id,
  fetch: async (ctx: AppContext, who: Scope, q, range) => {
    const params: unknown[] = [who.workspaceId, who.mode];
    let status = '';
    if (q.status) {
      params.push(q.status);
      status = `and status = $${params.length}`;
    }
    const k = keysetSql(range, 'id', params.length + 1);
    const { rows } = await ctx.pool.query<ExportRow>(
      `select ${EXPORT_COLUMNS} from exports
        where workspace_id = $1 and mode = $2 and expires_at > now() ${status} and ${k.where}
        order by ${k.order} limit ${k.limit}`,
      [...params, ...k.params],
    );
    const now = Date.now();
    return rows.map((r) => ({ ...r, download_url: downloadPath(ctx.config.secret, r, now) }));
  },
  present: (r) => presentExport(r, r.download_url),
});

/** One export of the key's workspace and mode, or null: unknown and expired alike. */
export async function findExport(sql: Sql, who: Scope, id: string): Promise<ExportRow | null> {
  if (!z.uuid().safeParse(id).success) return null;
  const { rows } = await sql.query<ExportRow>(
    `select ${EXPORT_COLUMNS} from exports
      where id = $1 and workspace_id = $2 and mode = $3 and expires_at > now()`,
    [id, who.workspaceId, who.mode],
  );
  return rows[0] ?? null;
}

/** `GET /v1/exports/{id}`: unknown or expired → 404. */
export async function getExport(ctx: AppContext, who: Scope, id: string): Promise<ExportDto> {
  const row = await findExport(ctx.pool, who, id);
  if (!row) throw notFound('export');
  return presentExport(row, downloadPath(ctx.config.secret, row));
}
