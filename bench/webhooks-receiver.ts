/**
 * The webhook bench's receiver, a child process of its own so the service and the bare sender
 * meet the same server: node:http on 127.0.0.1, answers 200 at once, verifies every signature
 * and measures each delivery's latency from its body's `created_at` (the result's commit, same
 * clock).
 *
 * Signatures: RECEIVER_SECRETS (comma-separated; else RECEIVER_SECRET) are the secrets a
 * delivery may be signed with (a rotation's new and old one). `X-Svc-Signature` (`t=…,v1=…[,v1=…]`,
 * HMAC-SHA256 of "<t>.<body>") must carry a valid `v1` of at least one of them, in constant time;
 * `webhook-signature` (Standard Webhooks: `v1,<base64>` per secret over "<id>.<timestamp>.<body>",
 * the key rule of src/lib/secrets.ts), when sent, too. `signed_by` counts deliveries by how many
 * of the secrets signed them, in both headers (`{ "2": n }`: every one signed by both).
 * Control: GET /__stats, POST /__reset. Prints its port on stdout.
 */
import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { standardWebhooksKey } from '../src/lib/secrets.ts';

const secrets = (process.env.RECEIVER_SECRETS ?? process.env.RECEIVER_SECRET ?? '')
  .split(',')
  .filter(Boolean);
// Imported once as KeyObjects: createHmac with a Buffer key costs ~13 µs on Node 24 against ~2 µs
// (src/lib/secrets.ts, `signingKey`), CPU this process would take from the service it measures on a
// shared machine (the bare sender's requests carry no webhook-signature, so never paid it).
const keys = secrets.map((s) => createSecretKey(standardWebhooksKey(s)));
let count = 0;
let bad = 0;
let ids = new Set<string>();
let latencies: number[] = [];
let signedBy: Record<string, number> = {};

const same = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);

/** How many of the secrets signed `X-Svc-Signature` (0: none, or a malformed header). */
function svcSigners(body: Buffer, header: string | undefined): number {
  const parts = (header ?? '').split(',');
  const t = /^t=(\d+)$/.exec(parts[0] ?? '')?.[1];
  if (!t) return 0;
  const macs = parts
    .slice(1)
    .map((p) => (/^v1=[0-9a-f]{64}$/.test(p) ? Buffer.from(p.slice(3), 'hex') : null));
  if (!macs.length || macs.includes(null)) return 0;
  return secrets.filter((s) => {
    const mac = createHmac('sha256', s).update(`${t}.`).update(body).digest();
    return macs.some((m) => same(mac, m!));
  }).length;
}

/** How many of the secrets signed `webhook-signature`; null when the request has none (the bare sender). */
function standardSigners(body: Buffer, h: http.IncomingHttpHeaders): number | null {
  const header = h['webhook-signature'] as string | undefined;
  if (header === undefined) return null;
  const id = h['webhook-id'];
  const ts = h['webhook-timestamp'];
  if (typeof id !== 'string' || typeof ts !== 'string') return 0;
  const macs = header.split(' ').map((p) => (p.startsWith('v1,') ? Buffer.from(p.slice(3), 'base64') : null));
  if (macs.includes(null)) return 0;
  return keys.filter((k) => {
    const mac = createHmac('sha256', k).update(`${id}.${ts}.`).update(body).digest();
    return macs.some((m) => same(mac, m!));
  }).length;
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
          signed_by: signedBy,
        }),
      );
      return;
    }
    if (req.url === '/__reset') {
      count = 0;
      bad = 0;
      ids = new Set();
      latencies = [];
      signedBy = {};
      res.end('reset');
      return;
    }
    const body = Buffer.concat(chunks);
    count++;
    const svc = svcSigners(body, req.headers['x-svc-signature'] as string | undefined);
    const std = standardSigners(body, req.headers);
    // Signed by as many secrets in both headers (the bare sender sends only X-Svc-Signature).
    const signers = std === null || std === svc ? svc : 0;
    if (signers === 0) bad++;
    signedBy[signers] = (signedBy[signers] ?? 0) + 1;
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
