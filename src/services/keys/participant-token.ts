import { z } from 'zod';
import { DomainError } from '../../errors.ts';
import { readClaims, signClaims } from '../../lib/signed-claims.ts';
import { type Mode, modeShape } from './principal.ts';

/**
 * Participant tokens (docs/live-updates.md#participant-tokens): what a browser widget holds instead of an API key.
 *
 * Format: `svc_pt_<payload>.<signature>`, where `<payload>` is the base64url JSON
 * `{ v: 1, w: workspace id, s: workspace slug, m: mode, p: external id, k: minting key id,
 * e: expiry (unix seconds) }` and `<signature>` the base64url HMAC-SHA256 of
 * `svc-participant-token:<payload>` keyed with SVC_SECRET. Verifying is a hash and a clock
 * check, no database round trip; the one thing it cannot know, whether the minting key is still
 * live, is read once per request (and once every few seconds for an open socket) by the caller.
 */

export const TOKEN_PREFIX = 'svc_pt_';
const CONTEXT = 'svc-participant-token:';

const claims = z.object({
  v: z.literal(1),
  w: z.string(),
  s: z.string(),
  m: modeShape,
  p: z.string(),
  k: z.string(),
  e: z.int(),
});

/** Who a participant token speaks for. */
export interface ParticipantClaims {
  workspaceId: string;
  workspaceSlug: string;
  mode: Mode;
  externalId: string;
  /** The API key that minted it: revoking or rotating that key ends the token. */
  keyId: string;
  /** Unix seconds. */
  expiresAt: number;
}

/** A participant token for these claims, signed with SVC_SECRET. */
export function signParticipantToken(secret: string, c: ParticipantClaims): string {
  const token = signClaims(secret, CONTEXT, {
    v: 1,
    w: c.workspaceId,
    s: c.workspaceSlug,
    m: c.mode,
    p: c.externalId,
    k: c.keyId,
    e: c.expiresAt,
  });
  return `${TOKEN_PREFIX}${token}`;
}

/** Whether a bearer credential is a participant token (by its prefix). */
export const isParticipantToken = (token: string) => token.startsWith(TOKEN_PREFIX);

const invalid = (why: string) => new DomainError('authentication_error', `Invalid participant token: ${why}`);

/** The claims of a well-signed, unexpired token; 401 `authentication_error` otherwise. */
export function verifyParticipantToken(secret: string, token: string, now = Date.now()): ParticipantClaims {
  if (!isParticipantToken(token)) throw invalid('expected svc_pt_…');
  const read = readClaims(secret, CONTEXT, token.slice(TOKEN_PREFIX.length), claims);
  if ('refused' in read) throw invalid(read.refused);
  const parsed = read.claims;
  if (parsed.e * 1000 <= now) throw invalid('expired');
  return {
    workspaceId: parsed.w,
    workspaceSlug: parsed.s,
    mode: parsed.m,
    externalId: parsed.p,
    keyId: parsed.k,
    expiresAt: parsed.e,
  };
}
