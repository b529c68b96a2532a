import nodemailer from 'nodemailer';
import type { Config } from '../../config.ts';
import { EgressError, egressRequest } from '../../lib/egress.ts';

/**
 * The live transports: e-mail over SMTP (nodemailer, `SMTP_URL`), SMS as a JSON POST
 * `{ to, body }` to `SMS_WEBHOOK_URL` through the egress guard. Each call reports whether the
 * message surely went, surely did not go (and whether trying again makes sense), or whether the
 * outcome cannot be known (the connection broke after the message was handed over).
 */
export type DeliveryOutcome =
  | { outcome: 'sent'; detail: string | null }
  | { outcome: 'not_sent'; retryable: boolean; error: string }
  | { outcome: 'unknown'; error: string };

export interface OutgoingMessage {
  id: string;
  channel: string;
  to: string;
  subject: string | null;
  body: string;
}

type TransportConfig = Pick<
  Config,
  'SMTP_URL' | 'SMS_WEBHOOK_URL' | 'EGRESS_ALLOW_CIDRS' | 'WEBHOOK_TIMEOUT_MS'
>;

/** Stable per message, so a receiver (or a human) can tell two copies of one message apart from two messages. */
export const messageIdHeader = (id: string) => `<${id}@svc.messages>`;

const DEFAULT_FROM = 'svc <no-reply@localhost>';

type Mailer = ReturnType<typeof nodemailer.createTransport>;
const mailers = new Map<string, { mailer: Mailer; from: string }>();

/**
 * One nodemailer transport per SMTP_URL. `from` may ride on the URL as a query parameter
 * (`smtp://host:587/?from=Shop%20%3Cno-reply%40shop.example%3E`); it is taken off before the
 * URL is handed to nodemailer, which would otherwise treat it as a transport option.
 */
function mailerFor(smtpUrl: string): { mailer: Mailer; from: string } {
  const cached = mailers.get(smtpUrl);
  if (cached) return cached;
  const url = new URL(smtpUrl);
  const from = url.searchParams.get('from') ?? DEFAULT_FROM;
  url.searchParams.delete('from');
  // Bounded so a hung server cannot outlive the job's expiry (queues.ts); the URL may override.
  for (const [k, v] of Object.entries({
    connectionTimeout: '10000',
    greetingTimeout: '10000',
    socketTimeout: '30000',
  }))
    if (!url.searchParams.has(k)) url.searchParams.set(k, v);
  const mailer = nodemailer.createTransport(url.toString());
  const entry = { mailer, from };
  mailers.set(smtpUrl, entry);
  return entry;
}

/** Connection failures before anything was handed over: the message surely did not go. */
const UNREACHED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'EADDRNOTAVAIL',
]);
/** Nodemailer codes raised before the message data is sent. */
const BEFORE_DATA = new Set([
  'EDNS',
  'EENVELOPE',
  'EMESSAGE',
  'EAUTH',
  'ENOAUTH',
  'ECONFIG',
  'ETLS',
  'EREQUIRETLS',
]);

/** Hands an e-mail to the SMTP server of SMTP_URL; what became of it, as far as can be known. */
export async function sendEmail(config: TransportConfig, m: OutgoingMessage): Promise<DeliveryOutcome> {
  if (!config.SMTP_URL)
    return { outcome: 'not_sent', retryable: false, error: 'no e-mail transport configured (set SMTP_URL)' };
  let transport: { mailer: Mailer; from: string };
  try {
    transport = mailerFor(config.SMTP_URL);
  } catch (err) {
    return { outcome: 'not_sent', retryable: false, error: `invalid SMTP_URL: ${(err as Error).message}` };
  }
  try {
    const info = await transport.mailer.sendMail({
      from: transport.from,
      to: m.to,
      subject: m.subject ?? '',
      html: m.body,
      messageId: messageIdHeader(m.id),
    });
    return { outcome: 'sent', detail: typeof info.response === 'string' ? info.response : null };
  } catch (err) {
    const e = err as Error & { code?: string; originalCode?: string; responseCode?: number };
    const error = `SMTP: ${e.message}`;
    // The server answered with a refusal: it did not take the message. 4xx is temporary.
    if (typeof e.responseCode === 'number')
      return { outcome: 'not_sent', retryable: e.responseCode < 500, error };
    if (UNREACHED.has(e.originalCode ?? '') || UNREACHED.has(e.code ?? '') || BEFORE_DATA.has(e.code ?? ''))
      return { outcome: 'not_sent', retryable: true, error };
    // A socket error or timeout with no answer: the data may have been accepted.
    return { outcome: 'unknown', error };
  }
}

/** Undici/system codes that mean the connection was never made. */
const NOT_CONNECTED = new Set([...UNREACHED, 'UND_ERR_CONNECT_TIMEOUT']);

/** Posts an SMS to SMS_WEBHOOK_URL through the egress guard; what became of it, as far as can be known. */
export async function sendSms(config: TransportConfig, m: OutgoingMessage): Promise<DeliveryOutcome> {
  if (!config.SMS_WEBHOOK_URL)
    return {
      outcome: 'not_sent',
      retryable: false,
      error: 'no SMS transport configured (set SMS_WEBHOOK_URL)',
    };
  try {
    const res = await egressRequest(config.SMS_WEBHOOK_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': m.id },
      body: JSON.stringify({ to: m.to, body: m.body }),
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      maxBodyBytes: 1024,
      allowCidrs: config.EGRESS_ALLOW_CIDRS,
    });
    const snippet = res.body.toString('utf8').slice(0, 200);
    if (res.status >= 200 && res.status < 300) return { outcome: 'sent', detail: `HTTP ${res.status}` };
    const error = `SMS transport answered HTTP ${res.status}${snippet ? `: ${snippet}` : ''}`;
    // The gateway answered: it refused. Rate limits and server errors may pass; other 4xx (and
    // 3xx, never followed) will not.
    const retryable = res.status === 408 || res.status === 425 || res.status === 429 || res.status >= 500;
    return { outcome: 'not_sent', retryable, error };
  } catch (err) {
    if (!(err instanceof EgressError)) return { outcome: 'unknown', error: `SMS: ${(err as Error).message}` };
    const error = `SMS: ${err.message}`;
    if (err.reason === 'invalid_url' || err.reason === 'scheme' || err.reason === 'blocked_address')
      return { outcome: 'not_sent', retryable: false, error };
    if (err.reason === 'dns') return { outcome: 'not_sent', retryable: true, error };
    const cause = err.cause as { code?: string } | undefined;
    if (NOT_CONNECTED.has(cause?.code ?? '')) return { outcome: 'not_sent', retryable: true, error };
    // Timed out or broken after the request may have gone out.
    return { outcome: 'unknown', error };
  }
}

/** Sends a message on its channel's transport. */
export function deliver(config: TransportConfig, m: OutgoingMessage): Promise<DeliveryOutcome> {
  return m.channel === 'email' ? sendEmail(config, m) : sendSms(config, m);
}
