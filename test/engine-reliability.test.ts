import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROCESS_EVENT_QUEUE } from '../src/jobs/queues.ts';
import { buildFlow, workerProcesses } from './factories.ts';
import { eventually, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

// Real worker processes (`svc serve --role worker`) against the test app's database; the app
// itself runs the API only, so every event is processed by the children.
let app: TestApp;
const { start: startWorker, kill, killAll } = workerProcesses(() => app.databaseUrl);

beforeAll(async () => {
  app = await startTestApp({ role: 'api' });
});
afterAll(async () => {
  killAll();
  await app?.close();
});

const q = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
  (await app.ctx.pool.query(sql, params)).rows as T[];

async function flows(ws: TestWorkspace) {
  for (const body of [
    {
      name: 'Points per order',
      event_type: 'order.completed',
      actions: [{ type: 'award_points', points: { '*': [{ var: 'payload.total' }, 1] } }],
    },
    {
      name: 'Third order',
      event_type: 'order.completed',
      conditions: { '==': [{ event_count: 'order.completed' }, 3] },
      actions: [
        { type: 'award_badge', badge: 'regular' },
        { type: 'award_points', points: 1000 },
      ],
    },
  ]) {
    await buildFlow(ws, body);
  }
}

/** POSTs events concurrently (the API batches them into jobs); their ids in send order. */
async function burst(ws: TestWorkspace, n: number, participants: number, total = (i: number) => (i % 7) + 1) {
  const ids: string[] = new Array(n);
  const queue = [...Array(n).keys()];
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
        const res = await ws.api('/v1/events', {
          body: {
            event_type: 'order.completed',
            participant: `p${i % participants}`,
            payload: { total: total(i) },
          },
        });
        expect(res.status).toBe(202);
        ids[i] = res.body.event_id;
      }
    }),
  );
  return ids;
}

const statusCounts = async (ws: TestWorkspace) =>
  Object.fromEntries(
    (
      await q<{ status: string; n: string }>(
        `select status, count(*) n from events where workspace_id = $1 group by status`,
        [ws.id],
      )
    ).map((r) => [r.status, Number(r.n)]),
  );

/** Exactly one set of effects for every event of the workspace (the two flows above). */
async function expectOneSetOfEffects(
  ws: TestWorkspace,
  n: number,
  participants: number,
  total: (i: number) => number,
) {
  expect(await statusCounts(ws)).toEqual({ processed: n });
  const expected = new Map<string, number>();
  const orders = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const p = `p${i % participants}`;
    expected.set(p, (expected.get(p) ?? 0) + total(i));
    orders.set(p, (orders.get(p) ?? 0) + 1);
  }
  for (const [p, count] of orders) if (count >= 3) expected.set(p, expected.get(p)! + 1000);
  const rows = await q<{
    external_id: string;
    balance: string;
    sum: string;
    entries: string;
    badges: string;
  }>(
    `select p.external_id, p.balance,
            (select coalesce(sum(points), 0) from ledger_entries l where l.participant_id = p.id) sum,
            (select count(*) from ledger_entries l where l.participant_id = p.id) entries,
            (select count(*) from participant_badges b where b.participant_id = p.id) badges
       from participants p where p.workspace_id = $1`,
    [ws.id],
  );
  expect(rows).toHaveLength(expected.size);
  for (const r of rows) {
    expect({ p: r.external_id, balance: Number(r.balance), sum: Number(r.sum) }).toEqual({
      p: r.external_id,
      balance: expected.get(r.external_id),
      sum: expected.get(r.external_id),
    });
    const third = orders.get(r.external_id)! >= 3;
    expect(Number(r.entries)).toBe(orders.get(r.external_id)! + (third ? 1 : 0));
    expect(Number(r.badges)).toBe(third ? 1 : 0);
  }
  const [counts] = await q<{
    runs: string;
    dup: string;
    changed: string;
    entries: string;
    awarded: string;
    completed: string;
  }>(
    `select (select count(*) from flow_runs where workspace_id = $1) runs,
            (select count(*) from ledger_entries where workspace_id = $1) entries,
            (select count(*) from outbox where workspace_id = $1 and type = 'points.changed') changed,
            (select count(*) from outbox where workspace_id = $1 and type = 'badge.awarded') awarded,
            (select count(*) from outbox where workspace_id = $1 and type = 'flow.completed') completed`,
    [ws.id],
  );
  const thirdOrders = [...orders.values()].filter((c) => c >= 3).length;
  expect(Number(counts!.runs)).toBe(n + thirdOrders);
  expect(Number(counts!.changed)).toBe(Number(counts!.entries));
  expect(Number(counts!.awarded)).toBe(thirdOrders);
  expect(Number(counts!.completed)).toBe(n + thirdOrders);
}

describe('engine reliability (real worker processes)', () => {
  it('a worker SIGKILLed mid-burst loses nothing and doubles nothing once restarted', {
    timeout: 120_000,
  }, async () => {
    const ws = await app.workspace();
    await flows(ws);
    const n = 4000;
    const participants = 200;
    const total = (i: number) => (i % 7) + 1;
    await burst(ws, n, participants, total); // no worker yet: all `received`
    const worker = await startWorker();
    await eventually(async () => ((await statusCounts(ws)).processed ?? 0) > 0, 30_000);
    await kill(worker);
    const mid = await statusCounts(ws);
    expect(mid.received ?? 0, 'killed before the burst was done').toBeGreaterThan(0);
    // Jobs the dead worker held come back after their heartbeat lapses (heartbeatSeconds).
    const restarted = await startWorker();
    await eventually(async () => (await statusCounts(ws)).processed === n, 90_000);
    await kill(restarted);
    await expectOneSetOfEffects(ws, n, participants, total);
  });

  it('several workers on one participant keep balances, balance_after and counts exact', {
    timeout: 120_000,
  }, async () => {
    const ws = await app.workspace();
    await flows(ws);
    const n = 400;
    const total = (i: number) => (i % 5) + 1;
    await burst(ws, n, 1, total);
    // Spread over many jobs so the workers take them in parallel.
    const ids = (
      await q<{ id: string }>(`select id from events where workspace_id = $1 order by id`, [ws.id])
    ).map((r) => r.id);
    for (let i = 0; i < ids.length; i += 10)
      await app.ctx.boss.send(PROCESS_EVENT_QUEUE, { eventIds: ids.slice(i, i + 10) });
    const workers = await Promise.all([startWorker(), startWorker(), startWorker()]);
    await eventually(async () => (await statusCounts(ws)).processed === n, 60_000);
    await Promise.all(workers.map(kill));
    await expectOneSetOfEffects(ws, n, 1, total);
    // Every entry's balance_after continues the previous one: no lost update between workers.
    const entries = await q<{ points: string; balance_after: string }>(
      `select points, balance_after from ledger_entries where workspace_id = $1 order by id`,
      [ws.id],
    );
    let running = 0;
    for (const e of entries) {
      running += Number(e.points);
      expect(Number(e.balance_after)).toBe(running);
    }
    const [count] = await q<{ count: string }>(
      `select c.count from participant_event_counts c join participants p on p.id = c.participant_id where p.workspace_id = $1`,
      [ws.id],
    );
    expect(Number(count!.count)).toBe(n);
  });

  it('the same job delivered twice (and a manual re-run) yields one set of effects', {
    timeout: 60_000,
  }, async () => {
    const ws = await app.workspace();
    await flows(ws);
    const n = 30;
    const total = (i: number) => i + 1;
    const ids = await burst(ws, n, 3, total);
    // Two more deliveries of every event, before any worker runs: three jobs per event in all.
    await app.ctx.boss.send(PROCESS_EVENT_QUEUE, { eventIds: ids });
    await app.ctx.boss.send(PROCESS_EVENT_QUEUE, { eventIds: [...ids].reverse() });
    const workers = await Promise.all([startWorker(), startWorker()]);
    await eventually(async () => (await statusCounts(ws)).processed === n, 30_000);
    // A redelivery after processing, too.
    const late = await app.ctx.boss.send(PROCESS_EVENT_QUEUE, { eventIds: ids });
    await eventually(
      async () => (await app.ctx.boss.getJobById(PROCESS_EVENT_QUEUE, late!))?.state === 'completed',
      30_000,
    );
    await Promise.all(workers.map(kill));
    await expectOneSetOfEffects(ws, n, 3, total);
  });
});
