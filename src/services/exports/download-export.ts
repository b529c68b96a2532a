import type { Readable } from 'node:stream';
import type { AppContext } from '../../context.ts';
import { DomainError, notFound } from '../../errors.ts';
import type { Scope } from '../keys/principal.ts';
import { verifyDownloadToken } from './download-token.ts';
import { findExport } from './list-exports.ts';
import { exportStorage } from './storage.ts';

export interface ExportDownload {
  contentType: string;
  filename: string;
  size: number;
  body: Readable;
}

const CONTENT_TYPES = { csv: 'text/csv; charset=utf-8', jsonl: 'application/x-ndjson' } as const;
const EXTENSIONS = { csv: 'csv', jsonl: 'jsonl' } as const;

/**
 * `GET /v1/exports/{id}/download` (docs/exports.md#api): the file as a stream, for the bearer key's
 * workspace and mode (`who`), or for whoever holds the export's signed `download_url` token. An
 * unknown, expired or other workspace's export, and a forged, expired or other export's token,
 * are all a 404; an export not completed yet is a 409 `invalid_state`.
 */
export async function openExportDownload(
  ctx: AppContext,
  id: string,
  auth: { who: Scope } | { token: string },
): Promise<ExportDownload> {
  let who: Scope;
  if ('token' in auth) {
    const claims = verifyDownloadToken(ctx.config.secret, auth.token);
    if (!claims || claims.exportId !== id) throw notFound('export');
    who = { workspaceId: claims.workspaceId, mode: claims.mode };
  } else who = auth.who;
  const row = await findExport(ctx.pool, who, id);
  if (!row) throw notFound('export');
  if (row.status !== 'completed')
    throw new DomainError('invalid_state', `The export is ${row.status}; download it once it is completed`);
  return {
    contentType: CONTENT_TYPES[row.format],
    filename: `${row.resource}-${row.id}.${EXTENSIONS[row.format]}`,
    size: Number(row.size_bytes),
    body: exportStorage(ctx).read({ exportId: row.id, attempt: row.attempt }),
  };
}
