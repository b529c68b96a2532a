import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Mode } from '../keys/principal.ts';

/**
 * The signed token of an export's `download_url` (CONTRACT 15): `<payload>.<signature>`, where
 * `<payload>` is the base64url JSON `{ x: export id, w: workspace id, m: mode, e: expiry (unix
 * seconds) }` and `<signature>` the base64url HMAC-SHA256 of `svc-export-download:<payload>` keyed
 * with SVC_SECRET. It names one export of one workspace and mode, for one hour.
 */

const CONTEXT = 'svc-export-download:';
export const DOWNLOAD_TOKEN_TTL_SECONDS = 3600;

const claims = z.object({ x: z.uuid(), w: z.uuid(), m: z.enum(['live', 'test']), e: z.int() });

export interface DownloadClaims {
  exportId: string;
  workspaceId: string;
  mode: Mode;
  /** Unix seconds. */
  expiresAt: number;
}

const mac = (secret: string, payload: string) =>
  createHmac('sha256', secret)
    .update(CONTEXT + payload)
    .digest('base64url');

export function signDownloadToken(secret: string, c: DownloadClaims): string {
  const payload = Buffer.from(
    JSON.stringify({ x: c.exportId, w: c.workspaceId, m: c.mode, e: c.expiresAt }),
  ).toString('base64url');
  return `${payload}.${mac(secret, payload)}`;
}

/** The claims of a well-signed, unexpired token, or null (the door answers 404 either way). */
export function verifyDownloadToken(secret: string, token: string, now = Date.now()): DownloadClaims | null {
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return null;
  const expected = Buffer.from(mac(secret, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  let parsed: z.output<typeof claims>;
  try {
    parsed = claims.parse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
  } catch {
    return null;
  }
  if (parsed.e * 1000 <= now) return null;
  return { exportId: parsed.x, workspaceId: parsed.w, mode: parsed.m, expiresAt: parsed.e };
}
