/**
 * The bare baseline for bench scenario `events.post`: node:http plus a pg.Pool, one prepared
 * INSERT of the event row per request into `baseline.events` (the service's `events` columns and
 * indexes, created by bench/run.ts), 202 `{event_id, status}`. No auth, validation, batching,
 * participants, jobs or idempotency lookups — it is the floor a Node ingest path costs here.
 *
 * Env: DATABASE_URL, PORT, HOST (127.0.0.1), BASELINE_POOL_MAX (pool size, default 16).
 */
import http from 'node:http';
import pg from 'pg';
import { v7 as uuidv7 } from 'uuid';

const WORKSPACE_ID = '00000000-0000-7000-8000-000000000000';

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.BASELINE_POOL_MAX ?? 16),
});
pool.on('error', (err) => console.error('baseline: idle client error', err));

const INSERT = {
  name: 'baseline-insert-event',
  text: `insert into baseline.events (id, workspace_id, mode, event_type, participant_id, external_id, payload,
                                      occurred_at, status, quarantine_reason, idempotency_key, source)
         values ($1, $2, $3, $4, null, $5, $6, $7, 'received', null, $8, 'api')`,
};

interface Body {
  event_type?: string;
  participant?: { external_id?: string };
  payload?: unknown;
  occurred_at?: string;
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(json) });
  res.end(json);
}

async function ingest(req: http.IncomingMessage, res: http.ServerResponse, raw: Buffer): Promise<void> {
  let body: Body;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    return send(res, 400, { error: 'invalid json' });
  }
  const id = uuidv7();
  const key = req.headers['idempotency-key'];
  await pool.query({
    ...INSERT,
    values: [
      id,
      WORKSPACE_ID,
      'test',
      body.event_type ?? null,
      body.participant?.external_id ?? null,
      JSON.stringify(body.payload ?? {}),
      body.occurred_at ?? new Date().toISOString(),
      typeof key === 'string' ? key : null,
    ],
  });
  send(res, 202, { event_id: id, status: 'received' });
}

const server = http.createServer((req, res) => {
  if (req.method === 'POST' && req.url === '/v1/events') {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      ingest(req, res, Buffer.concat(chunks)).catch((err) => {
        console.error('baseline: insert failed', err);
        if (!res.headersSent) send(res, 500, { error: 'insert failed' });
      });
    });
  } else if (req.method === 'GET' && req.url === '/readyz') {
    send(res, 200, { ok: true });
  } else {
    send(res, 404, { error: 'not found' });
  }
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1');

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    server.close();
    server.closeIdleConnections();
    pool.end().then(() => process.exit(0));
  });
}
