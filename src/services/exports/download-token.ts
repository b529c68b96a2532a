import { z } from 'zod';
import { readClaims, signClaims } from '../../lib/signed-claims.ts';
import { type Mode, modeShape } from '../keys/principal.ts';

/**
 * The signed token of an export's `download_url` (docs/exports.md#api): `<payload>.<signature>`, where
 * `<payload>` is the base64url JSON `{ x: export id, w: workspace id, m: mode, e: expiry (unix
 * seconds) }` and `<signature>` the base64url HMAC-SHA256 of `svc-export-download:<payload>` keyed
 * with SVC_SECRET. It names one export of one workspace and mode, for one hour.
 */

const CONTEXT = 'svc-export-download:';
export const DOWNLOAD_TOKEN_TTL_SECONDS = 3600;

const claims = z.object({ x: z.uuid(), w: z.uuid(), m: modeShape, e: z.int() });

export interface DownloadClaims {
  exportId: string;
  workspaceId: string;
  mode: Mode;
  /** Unix seconds. */
  expiresAt: number;
}

/** The token of a `download_url`: one export of one workspace and mode, until `expiresAt`. */
export function signDownloadToken(secret: string, c: DownloadClaims): string {
  return signClaims(secret, CONTEXT, { x: c.exportId, w: c.workspaceId, m: c.mode, e: c.expiresAt });
}

/** The claims of a well-signed, unexpired token, or null (the door answers 404 either way). */
export function verifyDownloadToken(secret: string, token: string, now = Date.now()): DownloadClaims | null {
  const read = readClaims(secret, CONTEXT, token, claims);
  if ('refused' in read) return null;
  const parsed = read.claims;
  if (parsed.e * 1000 <= now) return null;
  return { exportId: parsed.x, workspaceId: parsed.w, mode: parsed.m, expiresAt: parsed.e };
}
