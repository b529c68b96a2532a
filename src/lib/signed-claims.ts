import { createHmac, timingSafeEqual } from 'node:crypto';
import type { z } from 'zod';

/**
 * A signed bearer of claims: `<payload>.<signature>`, where `<payload>` is the base64url JSON of
 * the claims and `<signature>` the base64url HMAC-SHA256 of `<context><payload>` keyed with
 * SVC_SECRET. The context keeps one kind of token from passing for another. Used by participant
 * tokens and export download tokens; each caller checks expiry and words its own refusal.
 */
const mac = (secret: string, context: string, payload: string) =>
  createHmac('sha256', secret)
    .update(context + payload)
    .digest('base64url');

export function signClaims(secret: string, context: string, claims: object): string {
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${payload}.${mac(secret, context, payload)}`;
}

/** The token's claims when it is well-formed and well-signed; otherwise why not. */
export function readClaims<S extends z.ZodType>(
  secret: string,
  context: string,
  token: string,
  schema: S,
): { claims: z.output<S> } | { refused: 'malformed' | 'bad signature' } {
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return { refused: 'malformed' };
  const expected = Buffer.from(mac(secret, context, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given))
    return { refused: 'bad signature' };
  try {
    return { claims: schema.parse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))) };
  } catch {
    return { refused: 'malformed' };
  }
}
