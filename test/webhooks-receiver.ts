import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import Stripe from 'stripe';

/**
 * A real HTTP receiver on loopback for webhook tests. Every request is recorded with its raw
 * body, and verified with the official `stripe` package's `webhooks.constructEvent` (same
 * `t=…,v1=…` HMAC-SHA256 scheme as ours) — a verifier nobody in this project wrote.
 */
const stripe = new Stripe('sk_test_unused_by_these_tests');

export const verifyWithStripe = (
  rawBody: string | Buffer,
  header: string,
  secret: string,
  tolerance?: number,
) => stripe.webhooks.constructEvent(rawBody, header, secret, tolerance) as unknown as Record<string, unknown>;

export interface Received {
  path: string;
  method: string;
  headers: http.IncomingHttpHeaders;
  rawBody: Buffer;
  body: Record<string, unknown>;
  at: number;
  /** constructEvent's verdict with the receiver's secret: null when it accepted, else its error. */
  verifyError: string | null;
}

/** What to do with the n-th request (0-based) to a path. */
export type Behaviour =
  | { status: number; body?: string; headers?: Record<string, string>; delayMs?: number }
  | { hang: true }
  | { drip: true; intervalMs: number }
  | { endless: true };

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Requests in flight right now, and the most ever seen at once. */
  maxConcurrent: () => number;
  secret: string | null;
  setSecret(secret: string): void;
  respond(fn: (req: Received, n: number) => Behaviour): void;
  close(): Promise<void>;
}

export async function startReceiver(opts: { host?: string } = {}): Promise<Receiver> {
  const received: Received[] = [];
  let behaviour: (req: Received, n: number) => Behaviour = () => ({ status: 200, body: 'ok' });
  let secret: string | null = null;
  let active = 0;
  let maxActive = 0;
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();

  const server = http.createServer((req, res) => {
    active++;
    maxActive = Math.max(maxActive, active);
    res.once('close', () => active--);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks);
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(rawBody.toString('utf8'));
      } catch {
        // not JSON: kept raw
      }
      let verifyError: string | null = 'no secret set';
      if (secret) {
        try {
          verifyWithStripe(rawBody, String(req.headers['x-svc-signature'] ?? ''), secret);
          verifyError = null;
        } catch (err) {
          verifyError = (err as Error).message;
        }
      }
      const rec: Received = {
        path: req.url ?? '/',
        method: req.method ?? '',
        headers: req.headers,
        rawBody,
        body,
        at: Date.now(),
        verifyError,
      };
      received.push(rec);
      const n = received.filter((r) => r.path === rec.path).length - 1;
      const b = behaviour(rec, n);
      if ('hang' in b) return; // never answers
      if ('drip' in b) {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const t = setInterval(() => res.write('.'), b.intervalMs);
        timers.add(t);
        res.once('close', () => clearInterval(t));
        return;
      }
      if ('endless' in b) {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = Buffer.alloc(16 * 1024, 'x');
        const pump = () => {
          while (res.write(chunk)) {
            /* keep the socket full */
          }
        };
        res.on('drain', pump);
        pump();
        return;
      }
      const send = () => {
        res.writeHead(b.status, { 'content-type': 'text/plain', ...b.headers });
        res.end(b.body ?? '');
      };
      if (b.delayMs) {
        const t = setTimeout(send, b.delayMs);
        timers.add(t);
      } else send();
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, opts.host ?? '127.0.0.1', resolve));
  const { port, address } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}`,
    port,
    received,
    maxConcurrent: () => maxActive,
    get secret() {
      return secret;
    },
    setSecret(s) {
      secret = s;
    },
    respond(fn) {
      behaviour = fn;
    },
    async close() {
      for (const t of timers) clearTimeout(t); // clearTimeout also clears an interval
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
