import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unitOfWork } from '../src/db/unit-of-work.ts';
import { DAILY_STATS_QUEUE } from '../src/jobs/queues.ts';
import type { Mode } from '../src/services/keys/principal.ts';
import { type Overview, overview } from '../src/services/overview/overview.ts';
import { rollUpDailyStats } from '../src/services/overview/rollup.ts';
import { buildReceiver, buildReward, buildSubscription, closeReceivers } from './factories.ts';
import { eventually, signedInDashboard, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

let app: TestApp;
let a: TestWorkspace;
let b: TestWorkspace;

beforeAll(async () => {
  app = await startTestApp({ env: { WEBHOOK_RETRY_SCHEDULE: '1,1,1', WEBHOOK_TIMEOUT_MS: '2000' } });
  a = await app.workspace();
  b = await app.workspace();
});
afterAll(async () => {
  await app?.close();
  await closeReceivers();
});

const scope = (ws: TestWorkspace, mode: Mode = 'test') => ({ workspaceId: ws.id, mode });
const read = (ws: TestWorkspace, mode: Mode = 'test', days = 30) =>
  overview(app.ctx, scope(ws, mode), { days });

const send = async (ws: TestWorkspace, body: Record<string, unknown>, mode: Mode = 'test') => {
  const res = await ws.api('/v1/events', { body, mode });
  expect(res.status, res.text).toBe(202);
  return res.body.event_id as string;
};
const adjust = async (ws: TestWorkspace, id: string, points: number, mode: Mode = 'test') => {
  const res = await ws.api(`/v1/participants/${id}/points`, { body: { points, reason: 'test' }, mode });
  expect(res.status, res.text).toBe(201);
  return res.body.id as number;
};

/** The same numbers counted straight from the source tables, without the rollup. */
async function recount(ws: TestWorkspace, mode: Mode, from: string) {
  const q = async (sql: string) => {
    const { rows } = await app.ctx.pool.query<{ day: string; n: string }>(sql, [ws.id, mode, from]);
    return Object.fromEntries(rows.map((r) => [r.day, Number(r.n)]));
  };
  const day = (c: string) => `(${c} at time zone 'UTC')::date::text`;
  return {
    events: await q(
      `select ${day('received_at')} as day, count(*) as n from events where workspace_id = $1 and mode = $2 and received_at >= $3::date group by 1`,
    ),
    quarantined: await q(
      `select ${day('received_at')} as day, count(*) as n from events where workspace_id = $1 and mode = $2 and status = 'quarantined' and received_at >= $3::date group by 1`,
    ),
    points_issued: await q(
      `select ${day('created_at')} as day, sum(points) as n from ledger_entries where workspace_id = $1 and mode = $2 and points > 0 and source in ('flow', 'adjustment') and created_at >= $3::date group by 1`,
    ),
    points_redeemed: await q(
      `select ${day('created_at')} as day, -sum(points) as n from ledger_entries where workspace_id = $1 and mode = $2 and source = 'redemption' and created_at >= $3::date group by 1`,
    ),
    webhook_attempts: await q(
      `select ${day('x.attempted_at')} as day, count(*) as n from webhook_attempts x join webhook_deliveries d on d.id = x.delivery_id where d.workspace_id = $1 and d.mode = $2 and x.attempted_at >= $3::date group by 1`,
    ),
    webhook_succeeded: await q(
      `select ${day('x.attempted_at')} as day, count(*) as n from webhook_attempts x join webhook_deliveries d on d.id = x.delivery_id where d.workspace_id = $1 and d.mode = $2 and x.status_code between 200 and 299 and x.attempted_at >= $3::date group by 1`,
    ),
  };
}

/** The overview's per-day numbers in `recount`'s shape (days with 0 left out). */
function perDay(o: Overview) {
  const metrics = [
    'events',
    'quarantined',
    'points_issued',
    'points_redeemed',
    'webhook_attempts',
    'webhook_succeeded',
  ] as const;
  return Object.fromEntries(
    metrics.map((m) => [m, Object.fromEntries(o.days.filter((d) => d[m] !== 0).map((d) => [d.day, d[m]]))]),
  );
}

const dayAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

describe('the overview (daily rollup + tail)', () => {
  it('runs the rollup as the pg-boss job overview.daily-stats, scheduled every minute', async () => {
    const schedules = await app.ctx.boss.getSchedules();
    expect(schedules.map((x) => [x.name, x.cron])).toContainEqual([DAILY_STATS_QUEUE, '* * * * *']);
    // A run with nothing old enough to fold still records where each source stands.
    // (The worker polls the queue every 10 s.)
    await app.ctx.boss.send(DAILY_STATS_QUEUE, {});
    await eventually(async () => {
      const { rows } = await app.ctx.pool.query(`select source from daily_stats_watermarks order by source`);
      expect(rows.map((r) => r.source)).toEqual([
        'events',
        'ledger_entries',
        'redemptions',
        'webhook_attempts',
      ]);
      return true;
    }, 40_000);
  }, 60_000);

  let rewardId: number;

  it('counts events, quarantines, points, redemptions and webhook attempts exactly, before any rollup', async () => {
    const rx = await buildReceiver();
    // Webhooks go out in live mode (test mode simulates them): the first attempt fails, the rest succeed.
    let calls = 0;
    rx.respond(() => (++calls === 1 ? { status: 500, body: 'no' } : { status: 200, body: 'ok' }));
    await buildSubscription(a, { receiver: rx, mode: 'live', eventTypes: ['points.changed'] });
    await send(a, { type: 'order.completed', participant: 'ov-1' });
    await send(a, { type: 'order.completed', participant: 'ov-2' });
    await send(a, { type: 'order.completed', participant: 'ov-1' });
    await send(a, { participant: 'ov-1', payload: { no: 'type' } }); // quarantined: no event_type
    await adjust(a, 'ov-1', 100);
    await adjust(a, 'ov-2', 50);
    await adjust(a, 'ov-2', -30); // a debit: neither issued nor redeemed
    const reward = await buildReward(a, { name: 'Ov mug', cost_points: 20 });
    rewardId = reward.id;
    const red = await a.api('/v1/redemptions', { body: { participant: 'ov-1', reward_id: reward.id } });
    expect(red.status, red.text).toBe(201);
    // Elsewhere: the live mode of A and another workspace must not leak in.
    await send(a, { type: 'order.completed', participant: 'ov-live' }, 'live');
    await send(b, { type: 'order.completed', participant: 'ov-b' });
    await send(b, { participant: 'ov-b' });
    await b.api('/v1/participants/ov-b/points', { body: { points: 999, reason: 'b' } });

    await adjust(a, 'ov-live', 10, 'live');
    // One points.changed delivery in live mode: its first attempt fails, the retry succeeds.
    await eventually(async () => (await read(a, 'live')).totals.webhook_succeeded === 1, 20_000);
    const o = await read(a);
    expect(o.totals).toEqual({
      events: 4,
      quarantined: 1,
      points_issued: 150,
      points_redeemed: 20,
      webhook_attempts: 0,
      webhook_succeeded: 0,
      redemptions: 1,
      webhook_success_rate: null,
    });
    expect(o.redemptions_by_reward).toEqual([{ reward_id: String(reward.id), name: 'Ov mug', count: 1 }]);
    expect(o.days).toHaveLength(30);
    expect(o.to).toBe(dayAgo(0));
    expect(o.from).toBe(dayAgo(29));
    expect(o.days.at(-1)).toMatchObject({
      events: 4,
      quarantined: 1,
      points_issued: 150,
      webhook_success_rate: null,
    });

    const live = await read(a, 'live');
    expect(live.totals).toEqual({
      events: 1,
      quarantined: 0,
      points_issued: 10,
      points_redeemed: 0,
      webhook_attempts: 2,
      webhook_succeeded: 1,
      redemptions: 0,
      webhook_success_rate: 0.5,
    });
    expect(live.days.at(-1)?.webhook_success_rate).toBe(0.5);
    const other = await read(b);
    expect(other.totals).toMatchObject({
      events: 2,
      quarantined: 1,
      points_issued: 999,
      webhook_attempts: 0,
    });
  });

  it('gives the same numbers after the rollup folds the rows, spread over several days', async () => {
    // Move some rows to earlier days (as if received then), one of them outside the 30-day window.
    await app.ctx.pool.query(
      `update events set received_at = received_at - interval '3 days'
        where id in (select id from events where workspace_id = $1 and mode = 'test' and status <> 'quarantined' order by id limit 2)`,
      [a.id],
    );
    await app.ctx.pool.query(
      `update events set received_at = received_at - interval '40 days'
        where id in (select id from events where workspace_id = $1 and mode = 'test' and status = 'quarantined')`,
      [a.id],
    );
    // Ledger entries are immutable (a trigger refuses updates): moved with triggers off, in one transaction.
    await unitOfWork(app.ctx, async ({ sql: c }) => {
      await c.query(`set local session_replication_role = replica`);
      await c.query(
        `update ledger_entries set created_at = created_at - interval '5 days'
          where workspace_id = $1 and mode = 'test' and points = 100`,
        [a.id],
      );
    });
    const before = await read(a);
    expect(before.totals).toMatchObject({ events: 3, quarantined: 0, points_issued: 150 });
    expect(before.days.find((d) => d.day === dayAgo(3))?.events).toBe(2);
    expect(before.days.find((d) => d.day === dayAgo(5))?.points_issued).toBe(100);
    expect(perDay(before)).toEqual(await recount(a, 'test', before.from));

    await rollUpDailyStats(app.ctx, { settleSeconds: 0 });
    const { rows } = await app.ctx.pool.query(`select * from daily_stats where workspace_id = $1`, [a.id]);
    expect(rows.length).toBeGreaterThan(0);
    const after = await read(a);
    expect(after).toEqual(before);
    expect(await read(a, 'test', 60)).toMatchObject({ totals: { events: 4, quarantined: 1 } });
    expect((await read(b)).totals).toMatchObject({ events: 2, quarantined: 1, points_issued: 999 });
    expect((await read(a, 'live')).totals).toMatchObject({
      events: 1,
      webhook_attempts: 2,
      webhook_succeeded: 1,
    });
    expect(perDay(await read(a, 'live'))).toEqual(await recount(a, 'live', after.from));
  });

  it('adds the rows after the watermark (the tail), and a rollup in small batches agrees with a full recount', async () => {
    await send(a, { type: 'order.completed', participant: 'ov-3' });
    await send(a, { participant: 'ov-3' });
    await adjust(a, 'ov-3', 7);
    const red = await a.api('/v1/redemptions', { body: { participant: 'ov-3', reward_id: rewardId } });
    expect(red.status, red.text).toBe(422); // 7 points < 20: no redemption, nothing counted
    await adjust(a, 'ov-live', 5, 'live');
    await eventually(async () => (await read(a, 'live')).totals.webhook_succeeded === 2, 20_000);
    const liveTail = await read(a, 'live');
    expect(liveTail.totals).toMatchObject({
      points_issued: 15,
      webhook_attempts: 3,
      webhook_success_rate: 2 / 3,
    });

    const tail = await read(a);
    expect(tail.totals).toMatchObject({ events: 5, quarantined: 1, points_issued: 157, redemptions: 1 });
    expect(perDay(tail)).toEqual(await recount(a, 'test', tail.from));

    // Rows younger than the settle time are left to the tail.
    await rollUpDailyStats(app.ctx, { settleSeconds: 3600 });
    expect(await read(a)).toEqual(tail);
    await rollUpDailyStats(app.ctx, { settleSeconds: 0, batchRows: 1 });
    expect(await read(a)).toEqual(tail);
    expect(await read(a, 'live')).toEqual(liveTail);
    expect(perDay(liveTail)).toEqual(await recount(a, 'live', liveTail.from));
    const marks = await app.ctx.pool.query<{ source: string; last_id: string }>(
      `select source, last_id from daily_stats_watermarks order by source`,
    );
    expect(marks.rows.map((m) => m.source)).toEqual([
      'events',
      'ledger_entries',
      'redemptions',
      'webhook_attempts',
    ]);
    // Running it again counts nothing twice.
    expect(await rollUpDailyStats(app.ctx, { settleSeconds: 0 })).toBe(0);
    expect(await read(a)).toEqual(tail);
  });

  it('is served to the signed-in dashboard over tRPC, per mode, and refuses a bad window', async () => {
    const trpc = await signedInDashboard(app, a);
    const o = await trpc.overview.get.query({ mode: 'test' });
    expect(o.totals.events).toBe(5);
    expect((await trpc.overview.get.query({ mode: 'live', days: 7 })).days).toHaveLength(7);
    await expect(trpc.overview.get.query({ mode: 'test', days: 0 })).rejects.toMatchObject({
      data: { type: 'validation_error' },
    });
  });
});
