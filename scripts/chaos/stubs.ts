import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A stable number in [0, 1) from a string: receivers decide per delivery id, not per run timing. */
const unit = (s: string) => createHash('sha256').update(s).digest().readUInt32BE(0) / 2 ** 32;

function listen(server: http.Server): Promise<string> {
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  (server as http.Server & { sockets?: Set<Socket> }).sockets = sockets;
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
}

function close(server: http.Server): Promise<void> {
  for (const s of (server as http.Server & { sockets?: Set<Socket> }).sockets ?? []) s.destroy();
  return new Promise((resolve) => server.close(() => resolve()));
}

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', () => resolve(Buffer.concat(chunks)));
  });
}

export function verifySignature(body: Buffer, header: string | undefined, secret: string): boolean {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? '');
  if (!m) return false;
  if (Math.abs(Date.now() / 1000 - Number(m[1])) > 300) return false;
  const mac = createHmac('sha256', secret).update(`${m[1]}.`).update(body).digest();
  return timingSafeEqual(mac, Buffer.from(m[2]!, 'hex'));
}

export const RECEIVER_KINDS = ['ok', 'flaky', 'slow', 'hang'] as const;
export type ReceiverKind = (typeof RECEIVER_KINDS)[number];

export interface Receipt {
  kind: ReceiverKind;
  /** Requests carrying this delivery id, with a valid signature / with a bad one. */
  valid: number;
  invalid: number;
  /** Requests answered 2xx (the sender may still have given up on one, e.g. a slow answer). */
  answered2xx: number;
  /** The body's `id` differs from the X-Svc-Delivery-Id header. */
  idMismatch: number;
}

/**
 * The webhook receivers, one path per behaviour: `/ok` answers 200; `/flaky` answers 500 to the
 * first attempt of about half the deliveries, then 200; `/slow` answers 200 after 0.2–1.5 s (the
 * run's attempt timeout is 2 s); `/hang` never answers the first attempt of a third of its
 * deliveries, and 200 otherwise. Every request's signature is checked with its subscription's
 * secret and recorded by delivery id.
 */
export async function startReceivers() {
  const secrets = new Map<ReceiverKind, string>();
  const receipts = new Map<string, Receipt>();
  let requests = 0;
  const server = http.createServer(async (req, res) => {
    const body = await readBody(req);
    requests++;
    const kind = (req.url ?? '/').slice(1) as ReceiverKind;
    const id = String(req.headers['x-svc-delivery-id'] ?? '');
    const secret = secrets.get(kind);
    const r = receipts.get(id) ?? { kind, valid: 0, invalid: 0, answered2xx: 0, idMismatch: 0 };
    receipts.set(id, r);
    const attempt = r.valid + r.invalid;
    if (secret && verifySignature(body, req.headers['x-svc-signature'] as string | undefined, secret))
      r.valid++;
    else r.invalid++;
    try {
      if ((JSON.parse(body.toString('utf8')) as { id?: string }).id !== id) r.idMismatch++;
    } catch {
      r.idMismatch++;
    }
    const ok = () => {
      if (res.destroyed) return;
      r.answered2xx++;
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    };
    const u = unit(id);
    if (kind === 'flaky' && attempt === 0 && u < 0.5) return void res.writeHead(500).end('boom');
    if (kind === 'hang' && attempt === 0 && u < 0.33) return; // never answers; the sender times out
    if (kind === 'slow') return void setTimeout(ok, 200 + Math.floor(u * 1300));
    ok();
  });
  const url = await listen(server);
  return {
    url,
    secrets,
    receipts,
    requests: () => requests,
    close: () => close(server),
  };
}

/**
 * The external-fulfilment partner: flaky (a 500 to about 15% of calls, no answer to about 8%,
 * past the 2 s timeout) and idempotent on the reference: a reference it has issued a code for gets
 * the same code again. Records every call by reference.
 */
export async function startPartner() {
  const issued = new Map<string, string>();
  const calls = new Map<string, number>();
  let n = 0;
  const server = http.createServer(async (req, res) => {
    const body = await readBody(req);
    let ref = '';
    try {
      ref = String((JSON.parse(body.toString('utf8')) as { ref?: unknown }).ref ?? '');
    } catch {
      // no JSON: an error below
    }
    calls.set(ref, (calls.get(ref) ?? 0) + 1);
    const u = unit(`${ref}#${n++}`);
    if (!ref) return void res.writeHead(400).end('{"error":"no ref"}');
    if (u < 0.15)
      return void res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"flaky"}');
    if (u < 0.23) return; // hangs
    let code = issued.get(ref);
    if (!code) {
      code = `EXT-${createHash('sha256').update(ref).digest('hex').slice(0, 12)}`;
      issued.set(ref, code);
    }
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ data: { voucher: code } }));
  });
  const url = await listen(server);
  return { url, issued, calls, close: () => close(server) };
}

/** An SMTP sink (the tests' smtp-server) counting every mail by its Message-ID. */
export async function startSmtp() {
  const byMessageId = new Map<string, number>();
  let mails = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const id = /^message-id:\s*<([^>]+)>/im.exec(raw)?.[1] ?? '';
        byMessageId.set(id, (byMessageId.get(id) ?? 0) + 1);
        mails++;
        cb(null, 'queued');
      });
    },
  });
  // A worker SIGKILLed mid-session resets its connection; smtp-server reports that as an 'error'
  // event, which without a listener would end the run (a 30-minute run died of it at t=273 s).
  // The mail of that session never arrived, which is what the invariants count.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '127.0.0.1' }, resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    byMessageId,
    mails: () => mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
