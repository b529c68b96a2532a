import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  createSecretKey,
  type KeyObject,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';

const keyFrom = (secret: string) => createHash('sha256').update(`svc:at-rest:${secret}`).digest();

/** AES-256-GCM under SVC_SECRET, for secrets that must be readable again (webhook and ingest signing). */
export function encryptSecret(plaintext: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFrom(secret), iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [
    'v1',
    iv.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
    body.toString('base64url'),
  ].join('.');
}

export function decryptSecret(stored: string, secret: string): string {
  const [version, iv, tag, body] = stored.split('.');
  if (version !== 'v1' || !iv || !tag || !body) throw new Error('unrecognised encrypted secret');
  const decipher = createDecipheriv('aes-256-gcm', keyFrom(secret), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** An HMAC key: a secret's UTF-8 bytes given as the string, or a key imported once (see `signingKey`). */
export type HmacKey = string | KeyObject;

/**
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`: the webhook signature scheme, also used for
 * ingest. Several secrets (a rotation's grace, docs/webhooks.md#rotation) give one `v1=` each, in order.
 */
export function signPayload(
  secret: HmacKey | readonly HmacKey[],
  rawBody: string | Buffer,
  timestamp = Math.floor(Date.now() / 1000),
): string {
  const keys: readonly HmacKey[] = Array.isArray(secret) ? secret : [secret as HmacKey];
  let header = `t=${timestamp}`;
  for (const k of keys)
    header += `,v1=${createHmac('sha256', k).update(`${timestamp}.`).update(rawBody).digest('hex')}`;
  return header;
}

/** Standard base64 with its padding: what the `standardwebhooks` libraries decode after `whsec_`. */
const STANDARD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The Standard Webhooks HMAC key of a secret (docs/webhooks.md#verifying-a-delivery): `whsec_<standard
 * base64>` is used decoded, as the `standardwebhooks` libraries read a secret given as is; any other
 * secret is its UTF-8 bytes (their raw-key option).
 */
export function standardWebhooksKey(secret: string): Buffer {
  if (secret.startsWith('whsec_')) {
    const encoded = secret.slice('whsec_'.length);
    if (encoded && STANDARD_BASE64.test(encoded)) return Buffer.from(encoded, 'base64');
  }
  return Buffer.from(secret, 'utf8');
}

/**
 * A secret's keys for both signature schemes, imported once: `X-Svc-Signature` keys its HMAC with the
 * secret's UTF-8 bytes, `webhook-signature` with `standardWebhooksKey`. A Buffer key costs `createHmac`
 * several times the HMAC itself on Node 24 (13 µs against 2 µs with a KeyObject, measured: most of it
 * spent ruling out a KeyObject and a CryptoKey): the dispatcher signs every delivery with these (bench
 * `integrators`, part signing).
 */
export interface SigningKey {
  svc: KeyObject;
  standard: KeyObject;
}

export const signingKey = (secret: string): SigningKey => ({
  svc: createSecretKey(Buffer.from(secret, 'utf8')),
  standard: createSecretKey(standardWebhooksKey(secret)),
});

/** A new webhook signing secret: `whsec_` + standard base64 of 32 random bytes. */
export const generateWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * `webhook-signature` (Standard Webhooks): `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<raw body>">`
 * per key, space-separated, in order.
 */
export function signStandardWebhook(
  keys: readonly (Buffer | KeyObject)[],
  id: string,
  timestamp: number,
  rawBody: string | Buffer,
): string {
  const prefix = `${id}.${timestamp}.`;
  let header = '';
  for (const k of keys) {
    if (header) header += ' ';
    header += `v1,${createHmac('sha256', k).update(prefix).update(rawBody).digest('base64')}`;
  }
  return header;
}

/** Constant-time check of a `t=…,v1=…` header against the raw body, within the replay window. */
export function verifySignature(
  secret: string,
  rawBody: Buffer,
  header: string | undefined,
  now = Math.floor(Date.now() / 1000),
): { ok: true } | { ok: false; reason: string } {
  if (!header) return { ok: false, reason: 'missing X-Signature header' };
  const parts = new Map(
    header.split(',').map((kv) => {
      const i = kv.indexOf('=');
      return [kv.slice(0, i).trim(), kv.slice(i + 1).trim()] as const;
    }),
  );
  const t = parts.get('t');
  const v1 = parts.get('v1');
  if (!t || !/^\d{1,12}$/.test(t) || !v1 || !/^[0-9a-f]{64}$/.test(v1)) {
    return {
      ok: false,
      reason: 'malformed X-Signature header: expected t=<unix seconds>,v1=<64 hex characters>',
    };
  }
  if (Math.abs(now - Number(t)) > SIGNATURE_TOLERANCE_SECONDS) {
    return { ok: false, reason: `signature timestamp outside the ${SIGNATURE_TOLERANCE_SECONDS} s window` };
  }
  const expected = createHmac('sha256', secret).update(`${t}.`).update(rawBody).digest();
  if (!timingSafeEqual(expected, Buffer.from(v1, 'hex')))
    return { ok: false, reason: 'signature does not match' };
  return { ok: true };
}
