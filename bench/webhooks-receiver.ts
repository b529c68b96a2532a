/**
 * The webhook bench's receiver, a child process of its own so the service and the bare sender
 * meet the same server: node:http on 127.0.0.1, answers 200 at once, verifies every signature
 * (HMAC-SHA256 of "<t>.<body>" with RECEIVER_SECRET, constant time) and measures each
 * delivery's latency from its body's `created_at` (the result's commit, same clock).
 * Control: GET /__stats, POST /__reset. Prints its port on stdout.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const secret = process.env.RECEIVER_SECRET ?? '';
let count = 0;
let bad = 0;
let ids = new Set<string>();
let latencies: number[] = [];

function verify(body: Buffer, header: string | undefined): boolean {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? '');
  if (!m) return false;
  const mac = createHmac('sha256', secret).update(`${m[1]}.`).update(body).digest();
  return timingSafeEqual(mac, Buffer.from(m[2]!, 'hex'));
}

const pct = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : null;

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    if (req.url === '/__stats') {
      const sorted = [...latencies].sort((a, b) => a - b);
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          count,
          bad,
          unique: ids.size,
          p50: pct(sorted, 50),
          p99: pct(sorted, 99),
          max: sorted.at(-1) ?? null,
        }),
      );
      return;
    }
    if (req.url === '/__reset') {
      count = 0;
      bad = 0;
      ids = new Set();
      latencies = [];
      res.end('reset');
      return;
    }
    const body = Buffer.concat(chunks);
    count++;
    if (!verify(body, req.headers['x-svc-signature'] as string | undefined)) bad++;
    try {
      const parsed = JSON.parse(body.toString('utf8')) as { id?: string; created_at?: string };
      if (parsed.id) ids.add(parsed.id);
      if (parsed.created_at) latencies.push(Date.now() - Date.parse(parsed.created_at));
    } catch {
      bad++;
    }
    res.end('ok');
  });
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
