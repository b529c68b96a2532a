import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../src/db/tx.ts';
import { encryptSecret } from '../src/lib/secrets.ts';
import { emitResult } from '../src/services/outbox/emit.ts';
import { eventually, freshDatabase, TEST_SECRET, testEnv } from './helpers.ts';
import { type Receiver, startReceiver } from './webhooks-receiver.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const children = new Set<ChildProcess>();
const cleanups: (() => Promise<unknown>)[] = [];

afterAll(async () => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const c of cleanups.reverse()) await c();
});

/** `node src/cli.ts serve --role worker` on Node 24, as a deployment runs the delivering worker. */
function worker(databaseUrl: string, env: Record<string, string>) {
  const proc = spawn(process.execPath, ['src/cli.ts', 'serve', '--role', 'worker'], {
    cwd: ROOT,
    env: testEnv(databaseUrl, { LOG_LEVEL: 'info', ...env }),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.add(proc);
  let stderr = '';
  proc.stderr!.setEncoding('utf8');
  proc.stderr!.on('data', (c: string) => {
    stderr += c;
  });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  return { proc, exited, ready: () => stderr.includes('"msg":"ready"'), stderr: () => stderr };
}

describe('crash safety of webhook delivery', () => {
  it('a worker SIGKILLed with attempts in flight loses no delivery: after a restart every one succeeds, no rung skipped', async () => {
    const db = await freshDatabase();
    const pool = new pg.Pool({ connectionString: db, max: 4 });
    cleanups.push(() => pool.end());
    const rx: Receiver = await startReceiver();
    cleanups.push(() => rx.close());
    const secret = 'whsec_crash_test_secret_0123456789';
    rx.setSecret(secret);
    // Slow answers keep many attempts in flight; every 4th delivery also fails its first try.
    const firstSeen = new Set<string>();
    rx.respond((req) => {
      const id = String(req.headers['x-svc-delivery-id']);
      const first = !firstSeen.has(id);
      firstSeen.add(id);
      return first && Number.parseInt(id.slice(-1), 16) % 4 === 0
        ? { status: 500, delayMs: 300 }
        : { status: 200, delayMs: 300 };
    });

    const workspaceId = uuidv7();
    await pool.query(`insert into workspaces (id, slug, name) values ($1, 'crash', 'Crash')`, [workspaceId]);
    await pool.query(
      `insert into webhook_subscriptions (id, workspace_id, mode, url, event_types, secret_enc)
       values ($1, $2, 'live', $3, '["*"]', $4)`,
      [uuidv7(), workspaceId, rx.url, encryptSecret(secret, TEST_SECRET)],
    );
    const TOTAL = 300;
    await withTransaction(pool, async (sql) => {
      for (let i = 0; i < TOTAL; i++)
        await emitResult(sql, { workspaceId, mode: 'live', type: 'points.changed', data: { i } });
    });

    const env = {
      WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1',
      WEBHOOK_TIMEOUT_MS: '2000',
      WEBHOOK_CONCURRENCY: '32',
    };
    const first = worker(db, env);
    await eventually(async () => rx.received.length >= 40, 30_000);
    first.proc.kill('SIGKILL');
    await first.exited;

    // Attempts were cut off mid-flight: their deliveries are still pending, leased to the dead worker.
    const { rows: orphaned } = await pool.query<{ n: number }>(
      `select count(*)::int as n from webhook_deliveries where status = 'pending' and claim_token is not null`,
    );
    expect(orphaned[0]!.n).toBeGreaterThan(0);
    const { rows: before } = await pool.query<{ n: number }>(
      `select count(*)::int as n from webhook_deliveries where status <> 'succeeded'`,
    );
    expect(before[0]!.n).toBeGreaterThan(0);

    const second = worker(db, env);
    await eventually(async () => second.ready(), 30_000);
    await eventually(async () => {
      const { rows } = await pool.query<{ n: number }>(
        `select count(*)::int as n from webhook_deliveries where status = 'succeeded'`,
      );
      return rows[0]!.n === TOTAL;
    }, 60_000);

    // None lost: every delivery reached the receiver, verified, carrying its own id.
    const { rows: deliveries } = await pool.query<{ id: string; attempt_count: number }>(
      'select id, attempt_count from webhook_deliveries',
    );
    expect(deliveries).toHaveLength(TOTAL);
    const receivedIds = new Set(rx.received.map((r) => String(r.headers['x-svc-delivery-id'])));
    for (const d of deliveries) expect(receivedIds.has(d.id)).toBe(true);
    expect(rx.received.every((r) => r.verifyError === null)).toBe(true);

    // No rung skipped: each delivery's recorded attempts are numbered 1..n with no gap; a second
    // one exists only after a recorded 500. An attempt cut off by the kill was not recorded and
    // was made again at the same rung (the receiver saw it twice, the log once).
    const { rows: attempts } = await pool.query<{ delivery_id: string; numbers: number[]; codes: number[] }>(
      `select delivery_id, array_agg(number order by id) as numbers, array_agg(status_code order by id) as codes
       from webhook_attempts group by delivery_id`,
    );
    expect(attempts).toHaveLength(TOTAL);
    let redone = 0;
    for (const a of attempts) {
      expect(a.numbers).toEqual(a.numbers.map((_, i) => i + 1));
      expect(a.codes.at(-1)).toBe(200);
      expect(a.codes.slice(0, -1).every((c) => c === 500)).toBe(true);
      expect(a.numbers.length).toBeLessThanOrEqual(2);
      const seen = rx.received.filter((r) => r.headers['x-svc-delivery-id'] === a.delivery_id).length;
      expect(seen).toBeGreaterThanOrEqual(a.numbers.length);
      if (seen > a.numbers.length) redone++;
    }
    expect(redone).toBeGreaterThan(0);
    for (const d of deliveries) expect([1, 2]).toContain(d.attempt_count);

    second.proc.kill('SIGTERM');
    await second.exited;
  }, 120_000);

  it('two workers share the load without sending any delivery twice (claims use FOR UPDATE SKIP LOCKED)', async () => {
    const db = await freshDatabase();
    const pool = new pg.Pool({ connectionString: db, max: 4 });
    cleanups.push(() => pool.end());
    const rx: Receiver = await startReceiver();
    cleanups.push(() => rx.close());
    const secret = 'whsec_share_test_secret_0123456789';
    rx.setSecret(secret);
    rx.respond(() => ({ status: 200, delayMs: 50 }));
    const workspaceId = uuidv7();
    await pool.query(`insert into workspaces (id, slug, name) values ($1, 'share', 'Share')`, [workspaceId]);
    await pool.query(
      `insert into webhook_subscriptions (id, workspace_id, mode, url, event_types, secret_enc)
       values ($1, $2, 'live', $3, '["*"]', $4)`,
      [uuidv7(), workspaceId, rx.url, encryptSecret(secret, TEST_SECRET)],
    );
    const env = { WEBHOOK_TIMEOUT_MS: '5000', WEBHOOK_CONCURRENCY: '8' };
    const a = worker(db, env);
    const b = worker(db, env);
    await eventually(async () => a.ready() && b.ready(), 30_000);
    const TOTAL = 400;
    for (let batch = 0; batch < 4; batch++) {
      await withTransaction(pool, async (sql) => {
        for (let i = 0; i < TOTAL / 4; i++)
          await emitResult(sql, { workspaceId, mode: 'live', type: 'badge.awarded', data: { batch, i } });
      });
    }
    await eventually(async () => {
      const { rows } = await pool.query<{ n: number }>(
        `select count(*)::int as n from webhook_deliveries where status = 'succeeded'`,
      );
      return rows[0]!.n === TOTAL;
    }, 60_000);
    const ids = rx.received.map((r) => String(r.headers['x-svc-delivery-id']));
    expect(ids).toHaveLength(TOTAL);
    expect(new Set(ids).size).toBe(TOTAL);
    expect(rx.received.every((r) => r.verifyError === null)).toBe(true);
    // One worker sends at most half its eight slots to one subscription: more than four at once
    // means both workers were sending.
    expect(rx.maxConcurrent()).toBeGreaterThan(4);
    a.proc.kill('SIGTERM');
    b.proc.kill('SIGTERM');
    await Promise.all([a.exited, b.exited]);
  }, 120_000);

  it('a receiver that hangs until the timeout holds at most half the slots: other subscriptions keep flowing', async () => {
    const db = await freshDatabase();
    const pool = new pg.Pool({ connectionString: db, max: 4 });
    cleanups.push(() => pool.end());
    const slow: Receiver = await startReceiver();
    const fast: Receiver = await startReceiver();
    cleanups.push(
      () => slow.close(),
      () => fast.close(),
    );
    slow.respond(() => ({ hang: true }));
    const workspaceId = uuidv7();
    await pool.query(`insert into workspaces (id, slug, name) values ($1, 'fair', 'Fair')`, [workspaceId]);
    for (const [url, type] of [
      [slow.url, 'flow.completed'],
      [fast.url, 'badge.awarded'],
    ]) {
      await pool.query(
        `insert into webhook_subscriptions (id, workspace_id, mode, url, event_types, secret_enc)
         values ($1, $2, 'live', $3, $4::jsonb, $5)`,
        [uuidv7(), workspaceId, url, JSON.stringify([type]), encryptSecret('whsec_fair', TEST_SECRET)],
      );
    }
    // Eight slots and a 3 s timeout: the slow backlog alone would take 40 / 8 × 3 s = 15 s.
    const w = worker(db, { WEBHOOK_TIMEOUT_MS: '3000', WEBHOOK_CONCURRENCY: '8' });
    await eventually(async () => w.ready(), 30_000);
    await withTransaction(pool, async (sql) => {
      for (let i = 0; i < 40; i++)
        await emitResult(sql, { workspaceId, mode: 'live', type: 'flow.completed', data: { i } });
    });
    await eventually(async () => slow.received.length >= 4, 10_000);
    const started = Date.now();
    await withTransaction(pool, async (sql) => {
      for (let i = 0; i < 10; i++)
        await emitResult(sql, { workspaceId, mode: 'live', type: 'badge.awarded', data: { i } });
    });
    await eventually(async () => fast.received.length === 10, 10_000);
    expect(Date.now() - started).toBeLessThan(2_500);
    // The hanging receiver never had more than half the slots.
    expect(slow.maxConcurrent()).toBeLessThanOrEqual(4);
    w.proc.kill('SIGTERM');
    await w.exited;
  }, 120_000);
});
