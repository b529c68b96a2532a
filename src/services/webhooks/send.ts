import { EgressError, egressRequest } from '../../lib/egress.ts';
import { type SigningKey, signingKey, signPayload, signStandardWebhook } from '../../lib/secrets.ts';

/** Receivers see this; custom headers can never replace it (nor any header we set). */
const USER_AGENT = 'svc-webhooks/1';

/** At most this much of a receiver's answer is read and kept per attempt (a delivery's `response_snippet`). */
export const SNIPPET_BYTES = 1024;

export interface OutgoingDelivery {
  id: string;
  type: string;
  url: string;
  /**
   * The signing secrets, the current one first, then each old one still in its grace
   * (docs/webhooks.md#rotation): one signature per secret in both signature headers. The
   * dispatcher passes them imported (signing-secrets.ts); a plaintext secret is imported here.
   */
  secrets: readonly (string | SigningKey)[];
  /** The delivery's stored body: signed and sent byte for byte. */
  body: string | Buffer;
  customHeaders: Record<string, string>;
}

export interface AttemptOutcome {
  ok: boolean;
  statusCode: number | null;
  responseSnippet: string | null;
  durationMs: number;
  error: string | null;
  /** A 429 or 503's `Retry-After`, in seconds from now (docs/webhooks.md#retry-after); else null. */
  retryAfterS: number | null;
}

/**
 * The request headers: the subscription's custom ones first, then ours, compared
 * case-insensitively so a custom `x-svc-signature` (or `content-type`) can never replace ours.
 * The signatures are fresh per attempt: `t` (and `webhook-timestamp`) is now; `X-Svc-Signature`'s
 * HMAC covers `<t>.<body>` (docs/guarantees.md#webhooks-signed-retried-at-least-once), Standard
 * Webhooks' `webhook-signature` covers `<id>.<timestamp>.<body>` (docs/webhooks.md#verifying-a-delivery).
 */
export function deliveryHeaders(
  d: OutgoingDelivery,
  now = Math.floor(Date.now() / 1000),
): Record<string, string> & { 'x-svc-signature': string } {
  const keys = d.secrets.map((s) => (typeof s === 'string' ? signingKey(s) : s));
  const ours: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'x-svc-delivery-id': d.id,
    'x-svc-event-type': d.type,
    'x-svc-signature': signPayload(
      keys.map((k) => k.svc),
      d.body,
      now,
    ),
    'webhook-id': d.id,
    'webhook-timestamp': String(now),
    'webhook-signature': signStandardWebhook(
      keys.map((k) => k.standard),
      d.id,
      now,
      d.body,
    ),
  };
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(d.customHeaders)) {
    const lower = name.toLowerCase();
    if (!(lower in ours) && !RESERVED_HEADERS.has(lower)) headers[lower] = value;
  }
  return { ...headers, ...ours } as Record<string, string> & { 'x-svc-signature': string };
}

/** Headers a subscription may not set: ours, and those that define the HTTP message itself. */
export const RESERVED_HEADERS = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'host',
  'te',
  'trailer',
  'expect',
  'user-agent',
  'x-svc-signature',
  'x-svc-delivery-id',
  'x-svc-event-type',
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
]);

/** The longest a `Retry-After` moves an attempt (docs/webhooks.md#retry-after). */
export const MAX_RETRY_AFTER_SECONDS = 86_400;

/**
 * A 429 or 503's `Retry-After` (delta-seconds or an HTTP date) in whole seconds from `now`, at
 * most a day; null for another status or a header that is neither.
 */
export function retryAfterSeconds(
  status: number,
  header: string | undefined,
  now = Date.now(),
): number | null {
  if ((status !== 429 && status !== 503) || !header) return null;
  const value = header.trim();
  let seconds: number;
  if (/^\d+$/.test(value)) seconds = Number(value);
  else {
    const at = Date.parse(value);
    if (!Number.isFinite(at) || /^[\d.+-]/.test(value)) return null;
    seconds = Math.max(0, Math.ceil((at - now) / 1000));
  }
  return Math.min(seconds, MAX_RETRY_AFTER_SECONDS);
}

/** NUL cannot be stored in a Postgres text column; a binary answer keeps the rest readable. */
const snippetOf = (body: Buffer) => body.toString('utf8').replaceAll('\u0000', '\uFFFD');

/**
 * One signed POST through the egress guard (checked again at every send: a DNS answer can
 * change). Never throws: a non-2xx (3xx included, redirects are not followed), a timeout, a
 * refused connection or a blocked address is a failed attempt with a readable `error`.
 */
export async function sendDelivery(
  d: OutgoingDelivery,
  opts: { timeoutMs: number; allowCidrs: string[] },
): Promise<AttemptOutcome> {
  const started = performance.now();
  // Encoded once, for both signatures (two HMACs per secret) and the request.
  const body = typeof d.body === 'string' ? Buffer.from(d.body, 'utf8') : d.body;
  try {
    const res = await egressRequest(d.url, {
      method: 'POST',
      headers: deliveryHeaders({ ...d, body }),
      body,
      timeoutMs: opts.timeoutMs,
      maxBodyBytes: SNIPPET_BYTES,
      allowCidrs: opts.allowCidrs,
      // Thousands of deliveries go to a few receivers: keep-alive connections (bench `webhooks`).
      reuse: true,
    });
    const ok = res.status >= 200 && res.status < 300;
    return {
      ok,
      retryAfterS: retryAfterSeconds(res.status, res.headers['retry-after']),
      statusCode: res.status,
      responseSnippet: snippetOf(res.body),
      durationMs: res.durationMs,
      error: ok
        ? null
        : res.status >= 300 && res.status < 400
          ? `receiver answered ${res.status}: redirects are not followed`
          : `receiver answered ${res.status}`,
    };
  } catch (err) {
    const durationMs = Math.round(performance.now() - started);
    const message =
      err instanceof EgressError
        ? err.reason === 'blocked_address' || err.reason === 'scheme' || err.reason === 'invalid_url'
          ? `egress blocked: ${err.message}`
          : err.message
        : `send failed: ${(err as Error).message}`;
    return {
      ok: false,
      statusCode: null,
      responseSnippet: null,
      durationMs,
      error: message,
      retryAfterS: null,
    };
  }
}
