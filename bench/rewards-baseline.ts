/**
 * The bare baseline for suite `rewards` (uncontended redemptions): node:http plus a pg.Pool, and
 * per request one transaction with the same two conditional UPDATEs (balance, stock) and one
 * INSERT (the redemption row) the service's redemption performs. No auth, validation, reward
 * lookup, ledger entry, outbox row or idempotency: it is the floor of an atomic redemption here.
 *
 * Env: DATABASE_URL, PORT, HOST (127.0.0.1), BASELINE_POOL_MAX (default 12, the service's pool).
 * POST /redeem `{ workspace_id, participant, reward_id, cost }` → 201 | 422.
 */
import http from 'node:http';
import pg from 'pg';

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.BASELINE_POOL_MAX ?? 12),
});
pool.on('error', (err) => console.error('rewards baseline: idle client error', err));

interface Body {
  workspace_id: string;
  participant: string;
  reward_id: number;
  cost: number;
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(json) });
  res.end(json);
}

async function redeem(res: http.ServerResponse, b: Body): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const p = await client.query<{ id: string }>(
      `update participants set balance = balance - $3, updated_at = now()
        where workspace_id = $1 and mode = 'test' and external_id = $2 and balance >= $3 returning id`,
      [b.workspace_id, b.participant, b.cost],
    );
    const s = await client.query(
      'update rewards set stock_remaining = stock_remaining - 1 where id = $1 and stock_remaining > 0 returning id',
      [b.reward_id],
    );
    if (!p.rows[0] || !s.rows[0]) {
      await client.query('rollback');
      return send(res, 422, { error: 'refused' });
    }
    const r = await client.query(
      `insert into redemptions (workspace_id, mode, participant_id, reward_id, status, fulfilment, cost_points, reference)
       values ($1, 'test', $2, $3, 'pending', '{"type":"physical"}', $4, 'baseline') returning id, created_at`,
      [b.workspace_id, p.rows[0].id, b.reward_id, b.cost],
    );
    await client.query('commit');
    send(res, 201, r.rows[0]);
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

const server = http.createServer((req, res) => {
  if (req.method === 'POST' && req.url === '/redeem') {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      redeem(res, JSON.parse(Buffer.concat(chunks).toString('utf8'))).catch((err) => {
        console.error('rewards baseline: redeem failed', err);
        if (!res.headersSent) send(res, 500, { error: 'failed' });
      });
    });
  } else if (req.method === 'GET' && req.url === '/readyz') {
    send(res, 200, { ok: true });
  } else {
    send(res, 404, { error: 'not found' });
  }
});
server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1');
process.on('SIGTERM', () => {
  server.close();
  pool.end().finally(() => process.exit(0));
});
