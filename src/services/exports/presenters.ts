import { isoTime, isoTimeOrNull } from '../../lib/iso-time.ts';
import { DOWNLOAD_TOKEN_TTL_SECONDS, signDownloadToken } from './download-token.ts';
import type { ExportRow } from './repository.ts';
import type { ExportDto } from './shapes.ts';

/** The path of a completed export's file, with a token valid for an hour (never past the file's expiry). */
export function downloadPath(secret: string, r: ExportRow, now = Date.now()): string | null {
  if (r.status !== 'completed' || r.expires_at.getTime() <= now) return null;
  const expiresAt = Math.min(
    Math.floor(now / 1000) + DOWNLOAD_TOKEN_TTL_SECONDS,
    Math.floor(r.expires_at.getTime() / 1000),
  );
  const token = signDownloadToken(secret, {
    exportId: r.id,
    workspaceId: r.workspace_id,
    mode: r.mode,
    expiresAt,
  });
  return `/v1/exports/${r.id}/download?token=${token}`;
}

/** `download_url` is the path a `downloadPath` gives (the REST door makes it absolute). */
export const presentExport = (r: ExportRow, downloadUrl: string | null): ExportDto => ({
  id: r.id,
  resource: r.resource,
  format: r.format,
  status: r.status,
  since: isoTimeOrNull(r.since),
  until: isoTimeOrNull(r.until),
  row_count: r.row_count === null ? null : Number(r.row_count),
  size_bytes: r.size_bytes === null ? null : Number(r.size_bytes),
  download_url: downloadUrl,
  expires_at: isoTime(r.expires_at),
  error: r.error,
  created_at: isoTime(r.created_at),
  completed_at: isoTimeOrNull(r.completed_at),
});
