import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROCESS_EVENT_QUEUE } from '../src/jobs/queues.ts';
import { processFlowless } from '../src/services/events/process-events.ts';
import { buildFlow, workerProcesses } from './factories.ts';
import { eventually, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

// The engine's shortcut for events no active flow listens to (process-events.ts): its own unit
// of commit (one statement, no participant lock), so it gets the crash and duplicate-delivery
// checks the engine's transaction has. The app runs the API only; real worker processes
// (`svc serve --role worker`) do the processing and are SIGKILLed.
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

const statusCounts = async (ws: TestWorkspace) =>
  Object.fromEntries(
    (
      await q<{ status: string; n: string }>(
        `select status, count(*) n from events where workspace_id = $1 group by status`,
        [ws.id],
      )
    ).map((r) => [r.status, Number(r.n)]),
  );

/** `participant → event type → count` as stored. */
const eventCounts = async (ws: TestWorkspace) => {
  const rows = await q<{ external_id: string; event_type: string; count: string }>(
    `select p.external_id, c.event_type, c.count from participant_event_counts c
       join participants p on p.id = c.participant_id where p.workspace_id = $1`,
    [ws.id],
  );
  const out: Record<string, Record<string, number>> = {};
  for (const r of rows) out[r.external_id] = { ...out[r.external_id], [r.event_type]: Number(r.count) };
  return out;
};

async function post(ws: TestWorkspace, type: string, participant: string, payload: object = {}) {
  const res = await ws.api('/v1/events', { body: { event_type: type, participant, payload } });
  expect(res.status).toBe(202);
  return res.body.event_id as string;
}

describe('events no flow listens to', () => {
  it('a worker SIGKILLed mid-burst, with every job delivered twice, counts each event once', {
    timeout: 120_000,
  }, async () => {
    const ws = await app.workspace();
    // A flow on another type: the shortcut must look at each event's own type.
    await buildFlow(ws, {
      name: 'Orders',
      event_type: 'order.completed',
      actions: [{ type: 'award_points', points: 5 }],
    });
    const n = 3000;
    const participants = 50;
    const queue = [...Array(n).keys()];
    const ids: string[] = new Array(n);
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        for (let i = queue.shift(); i !== undefined; i = queue.shift())
          ids[i] = await post(ws, i % 2 ? 'page.viewed' : 'video.played', `p${i % participants}`);
      }),
    );
    // The shortcut takes every one of them (the worker's log would otherwise say it failed).
    expect(await processFlowless(app.ctx, ids.slice(0, 10))).toEqual([]);
    // A second delivery of every event, in other jobs (a redelivery racing the first).
    for (let i = 0; i < n; i += 50)
      await app.ctx.boss.send(PROCESS_EVENT_QUEUE, { eventIds: ids.slice(i, i + 50).reverse() });
    const worker = await startWorker();
    await eventually(async () => ((await statusCounts(ws)).processed ?? 0) > 0, 30_000);
    await kill(worker);
    expect((await statusCounts(ws)).received ?? 0, 'killed before the burst was done').toBeGreaterThan(0);
    const workers = await Promise.all([startWorker(), startWorker()]);
    await eventually(async () => (await statusCounts(ws)).processed === n, 90_000);
    await Promise.all(workers.map(kill));

    expect(await statusCounts(ws)).toEqual({ processed: n });
    const expected: Record<string, Record<string, number>> = {};
    for (let i = 0; i < n; i++) {
      const p = `p${i % participants}`;
      const type = i % 2 ? 'page.viewed' : 'video.played';
      expected[p] = { ...expected[p], [type]: (expected[p]?.[type] ?? 0) + 1 };
    }
    expect(await eventCounts(ws)).toEqual(expected);
    const [effects] = await q<{ runs: string; entries: string }>(
      `select (select count(*) from flow_runs where workspace_id = $1) runs,
              (select count(*) from ledger_entries where workspace_id = $1) entries`,
      [ws.id],
    );
    expect(effects).toEqual({ runs: '0', entries: '0' });
  });

  it("keeps a participant's events in order: a flow's event_count sees only the earlier flow-less events", {
    timeout: 60_000,
  }, async () => {
    const ws = await app.workspace();
    await buildFlow(ws, {
      name: 'Second view, then order',
      event_type: 'order.completed',
      conditions: { '==': [{ event_count: 'page.viewed' }, 2] },
      actions: [{ type: 'award_points', points: 100 }],
    });
    // No worker yet: the events wait, and one job carries them all (one batch, in id order).
    const ids = [
      await post(ws, 'page.viewed', 'ann'),
      await post(ws, 'order.completed', 'ann', { n: 1 }), // sees 1 view: no points
      await post(ws, 'page.viewed', 'ann'),
      await post(ws, 'order.completed', 'ann', { n: 2 }), // sees 2 views: 100 points
      await post(ws, 'page.viewed', 'ann'),
      await post(ws, 'page.viewed', 'bob'),
    ];
    await q(`delete from pgboss.job where name = $1`, [PROCESS_EVENT_QUEUE]);
    // The shortcut alone: it finishes ann's first view and bob's, and leaves ann's events from her
    // first order on (views included) to the engine.
    expect(await processFlowless(app.ctx, [...ids].reverse())).toEqual(ids.slice(1, 5).sort());
    expect(await statusCounts(ws)).toEqual({ processed: 2, received: 4 });
    expect(await processFlowless(app.ctx, ids)).toEqual(ids.slice(1, 5).sort());
    await app.ctx.boss.send(PROCESS_EVENT_QUEUE, { eventIds: ids });
    const worker = await startWorker();
    await eventually(async () => (await statusCounts(ws)).processed === ids.length, 30_000);
    await kill(worker);

    const runs = await q<{ event_id: string }>(
      `select event_id from flow_runs where workspace_id = $1 and status = 'completed'`,
      [ws.id],
    );
    expect(runs.map((r) => r.event_id)).toEqual([ids[3]]);
    const [ann] = await q<{ balance: string }>(
      `select balance from participants where workspace_id = $1 and external_id = 'ann'`,
      [ws.id],
    );
    expect(Number(ann!.balance)).toBe(100);
    expect(await eventCounts(ws)).toEqual({
      ann: { 'page.viewed': 3, 'order.completed': 2 },
      bob: { 'page.viewed': 1 },
    });
  });
});
