import type { Sql } from '../../db/tx.ts';
import type { KeysetRange } from '../../lib/pagination.ts';
import { keysetSql } from '../../lib/pagination.ts';
import type { Mode, Scope } from '../keys/principal.ts';
import type { ExportFormat, ExportResource, ExportStatus } from './shapes.ts';

// Raw SQL: an export's run is fenced by its `attempt` in conditional UPDATEs (`… where attempt = $2 and
// status = 'running'`), read on the raw pool by the job, the download door and the lifecycle job alike.

/** The columns of an `exports` row, in the order of {@link ExportRow}. */
export const EXPORT_COLUMNS = `id, workspace_id, mode, resource, format, since, until, status, attempt, row_count,
  size_bytes, error, expires_at, created_at, completed_at`;

/** A row of `EXPORT_COLUMNS`. */
export interface ExportRow {
  id: string;
  workspace_id: string;
  mode: Mode;
  resource: ExportResource;
  format: ExportFormat;
  since: Date | null;
  until: Date | null;
  status: ExportStatus;
  attempt: number;
  row_count: string | null;
  size_bytes: string | null;
  error: string | null;
  expires_at: Date;
  created_at: Date;
  completed_at: Date | null;
}

/** What a request records: `until` null means "when it is recorded". */
export interface ExportToInsert {
  id: string;
  resource: ExportResource;
  format: ExportFormat;
  since: string | null;
  until: string | null;
  ttlDays: number;
}

/** Records a pending export that expires `ttlDays` from now. */
export async function insertExport(sql: Sql, who: Scope, e: ExportToInsert): Promise<ExportRow> {
  const { rows } = await sql.query<ExportRow>(
    `insert into exports (id, workspace_id, mode, resource, format, since, until, expires_at)
       values ($1, $2, $3, $4, $5, $6, coalesce($7, now()), now() + make_interval(days => $8))
       returning ${EXPORT_COLUMNS}`,
    [e.id, who.workspaceId, who.mode, e.resource, e.format, e.since, e.until, e.ttlDays],
  );
  return rows[0]!;
}

/** One unexpired export of a workspace and mode; `id` must already be a UUID. */
export async function exportById(sql: Sql, who: Scope, id: string): Promise<ExportRow | null> {
  const { rows } = await sql.query<ExportRow>(
    `select ${EXPORT_COLUMNS} from exports
      where id = $1 and workspace_id = $2 and mode = $3 and expires_at > now()`,
    [id, who.workspaceId, who.mode],
  );
  return rows[0] ?? null;
}

/** One keyset range of a workspace and mode's unexpired exports, of one status if given. */
export async function pageExports(
  sql: Sql,
  who: Scope,
  status: ExportStatus | undefined,
  range: KeysetRange<string>,
): Promise<ExportRow[]> {
  const params: unknown[] = [who.workspaceId, who.mode];
  let byStatus = '';
  if (status) {
    params.push(status);
    byStatus = `and status = $${params.length}`;
  }
  const k = keysetSql(range, 'id', params.length + 1);
  const { rows } = await sql.query<ExportRow>(
    `select ${EXPORT_COLUMNS} from exports
        where workspace_id = $1 and mode = $2 and expires_at > now() ${byStatus} and ${k.where}
        order by ${k.order} limit ${k.limit}`,
    [...params, ...k.params],
  );
  return rows;
}

/** Takes the next run number of a pending or running, unexpired export; nothing when it is done or gone. */
export async function startRun(sql: Sql, exportId: string): Promise<ExportRow | undefined> {
  const { rows } = await sql.query<ExportRow>(
    `update exports set status = 'running', attempt = attempt + 1, started_at = now(), error = null
      where id = $1 and status in ('pending', 'running') and expires_at > now()
      returning ${EXPORT_COLUMNS}`,
    [exportId],
  );
  return rows[0];
}

/** Marks the run's export completed, only while that run still owns it; true when it did. */
export async function completeRun(
  sql: Sql,
  file: { exportId: string; attempt: number },
  result: { rows: number; bytes: number },
): Promise<boolean> {
  const done = await sql.query(
    `update exports set status = 'completed', row_count = $3, size_bytes = $4, completed_at = now()
        where id = $1 and attempt = $2 and status = 'running'`,
    [file.exportId, file.attempt, result.rows, result.bytes],
  );
  return done.rowCount === 1;
}

/** Marks a pending or running export failed (only run `attempt`'s, unless null); true when it did. */
export async function failRun(
  sql: Sql,
  exportId: string,
  attempt: number | null,
  error: string,
): Promise<boolean> {
  const { rowCount } = await sql.query(
    `update exports set status = 'failed', error = $3, completed_at = now()
      where id = $1 and ($2::int is null or attempt = $2) and status in ('pending', 'running')`,
    [exportId, attempt, error],
  );
  return Boolean(rowCount);
}

/** Up to `limit` expired exports, oldest expiry first (`exports_expires_at_idx`). */
export async function expiredExportIds(sql: Sql, limit: number): Promise<string[]> {
  const { rows } = await sql.query<{ id: string }>(
    `select id from exports where expires_at <= now() order by expires_at limit $1`,
    [limit],
  );
  return rows.map((r) => r.id);
}

/** Deletes an export's row (its file is deleted first, by the storage). */
export async function deleteExportRow(sql: Sql, id: string): Promise<void> {
  await sql.query(`delete from exports where id = $1`, [id]);
}
