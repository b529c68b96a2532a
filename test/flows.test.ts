import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoFlows } from '../src/services/flows/seed-flows.ts';
import { buildFlow } from './factories.ts';
import {
  eventually,
  request,
  signedInDashboard,
  startTestApp,
  type TestApp,
  type TestWorkspace,
} from './helpers.ts';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

async function send(
  ws: TestWorkspace,
  type: string,
  externalId: string,
  payload: Record<string, unknown> = {},
) {
  const res = await ws.api('/v1/events', {
    body: {
      event_type: type,
      participant: { external_id: externalId, email: `${externalId}@example.com` },
      payload,
    },
  });
  expect(res.status).toBe(202);
  return res.body.event_id as string;
}

/** The event once the engine has finished with it (processed or failed). */
async function settled(ws: TestWorkspace, id: string, timeoutMs = 15_000) {
  return eventually(async () => {
    const r = await ws.api(`/v1/events/${id}`);
    return r.body.status === 'processed' || r.body.status === 'failed' ? r.body : null;
  }, timeoutMs);
}

const balanceOf = async (ws: TestWorkspace, externalId: string) => {
  const { rows } = await app.ctx.pool.query(
    `select p.balance, p.lifetime_points, (select coalesce(sum(points), 0) from ledger_entries l where l.participant_id = p.id) as sum
       from participants p where workspace_id = $1 and mode = 'test' and external_id = $2`,
    [ws.id, externalId],
  );
  return rows[0]
    ? {
        balance: Number(rows[0].balance),
        lifetime: Number(rows[0].lifetime_points),
        sum: Number(rows[0].sum),
      }
    : null;
};

const badgesOf = async (ws: TestWorkspace, externalId: string) =>
  (
    await app.ctx.pool.query(
      `select b.key, pb.tier from participant_badges pb join badges b on b.id = pb.badge_id
         join participants p on p.id = pb.participant_id
        where p.workspace_id = $1 and p.external_id = $2 order by b.key, pb.tier`,
      [ws.id, externalId],
    )
  ).rows;

const outbox = async (ws: TestWorkspace, type: string) =>
  (
    await app.ctx.pool.query(`select data from outbox where workspace_id = $1 and type = $2 order by id`, [
      ws.id,
      type,
    ])
  ).rows.map((r) => r.data);

describe('flows CRUD', () => {
  it('creates, reads, lists, updates and deletes a flow', async () => {
    const ws = await app.workspace();
    const flow = await buildFlow(ws, {
      name: 'Points per order',
      event_type: 'order.completed',
      conditions: { '>': [{ var: 'payload.total' }, 0] },
      actions: [{ type: 'award_points', points: { '*': [{ var: 'payload.total' }, 1] }, reason: 'order' }],
    });
    expect(flow).toMatchObject({
      id: expect.any(String),
      name: 'Points per order',
      event_type: 'order.completed',
      active: true,
      max_runs_per_participant: null,
      actions: [{ type: 'award_points', points: { '*': [{ var: 'payload.total' }, 1] }, reason: 'order' }],
    });
    expect((await ws.api(`/v1/flows/${flow.id}`)).body).toEqual(flow);
    const list = await ws.api('/v1/flows?limit=1');
    expect(list.status).toBe(200);
    expect(list.body.data.map((f: { id: string }) => f.id)).toEqual([flow.id]);
    expect(list.body.meta.per_page).toBe(1);

    const patched = await ws.api(`/v1/flows/${flow.id}`, {
      method: 'PATCH',
      body: { active: false, max_runs_per_participant: 2 },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      active: false,
      max_runs_per_participant: 2,
      name: 'Points per order',
    });

    // The other mode never sees it.
    expect((await ws.api(`/v1/flows/${flow.id}`, { mode: 'live' })).status).toBe(404);

    expect((await ws.api(`/v1/flows/${flow.id}`, { method: 'DELETE' })).body).toEqual({
      id: flow.id,
      deleted: true,
    });
    expect((await ws.api(`/v1/flows/${flow.id}`)).status).toBe(404);
  });

  it('rejects invalid flows with 422 validation_error naming the field', async () => {
    const ws = await app.workspace();
    const cases: [Record<string, unknown>, string][] = [
      [{ event_type: 'x', actions: [{ type: 'award_points', points: 1 }] }, 'name'],
      [{ name: 'n', event_type: 'x', actions: [] }, 'actions'],
      [{ name: 'n', event_type: 'x', actions: [{ type: 'teleport' }] }, 'actions.0.type'],
      [{ name: 'n', event_type: 'x', actions: [{ type: 'award_points', points: 1.5 }] }, 'actions.0.points'],
      [{ name: 'n', event_type: 'x', actions: [{ type: 'award_badge' }] }, 'actions.0.badge'],
      [
        {
          name: 'n',
          event_type: 'x',
          conditions: { nope: [1, 2] },
          actions: [{ type: 'award_points', points: 1 }],
        },
        'conditions',
      ],
      // `method` would run arbitrary methods of values: refused.
      [
        {
          name: 'n',
          event_type: 'x',
          conditions: { method: ['a', 'toUpperCase'] },
          actions: [{ type: 'award_points', points: 1 }],
        },
        'conditions',
      ],
      [
        {
          name: 'n',
          event_type: 'x',
          max_runs_per_participant: 0,
          actions: [{ type: 'award_points', points: 1 }],
        },
        'max_runs_per_participant',
      ],
    ];
    for (const [body, field] of cases) {
      const res = await ws.api('/v1/flows', { body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.type).toBe('validation_error');
      expect(res.body.error.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
  });

  it('refuses text Postgres cannot store (NUL, lone surrogates) anywhere in a flow with a 422', async () => {
    const ws = await app.workspace();
    const valid = {
      name: 'n',
      event_type: 'order.completed',
      actions: [{ type: 'award_points', points: 1 }],
    };
    for (const bad of ['nul \u0000', 'lone \ud800']) {
      for (const body of [
        { ...valid, name: bad },
        { ...valid, conditions: { '==': [{ var: 'payload.x' }, bad] } },
        { ...valid, actions: [{ type: 'award_points', points: { '+': [1, { var: bad }] } }] },
        { ...valid, actions: [{ type: 'award_badge', badge: bad }] },
      ]) {
        const res = await ws.api('/v1/flows', { body });
        expect(res.status, JSON.stringify(body)).toBe(422);
        expect(res.body.error.type).toBe('validation_error');
      }
    }
  });

  it('needs flows:write to create and flows:read to list', async () => {
    const ws = await app.workspace({ abilities: ['flows:read'] });
    expect((await ws.api('/v1/flows')).status).toBe(200);
    const res = await ws.api('/v1/flows', {
      body: { name: 'n', event_type: 'x', actions: [{ type: 'award_points', points: 1 }] },
    });
    expect(res.status).toBe(403);
    const none = await app.workspace({ abilities: ['events:write'] });
    expect((await none.api('/v1/flows')).status).toBe(403);
  });
});

describe('badges catalogue', () => {
  it('defines badges with flows:write and lists them for any key', async () => {
    const ws = await app.workspace();
    const res = await ws.api('/v1/badges', {
      body: {
        key: 'vip',
        name: 'VIP',
        description: 'Big spender',
        image_url: 'https://example.com/vip.png',
        tiers: ['silver', 'gold'],
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      key: 'vip',
      name: 'VIP',
      description: 'Big spender',
      image_url: 'https://example.com/vip.png',
      tiers: ['silver', 'gold'],
      criteria: null,
    });
    expect((await ws.api('/v1/badges', { body: { key: 'vip', name: 'V.I.P.' } })).status).toBe(200);
    expect((await ws.api('/v1/badges', { body: { key: '', name: 'x' } })).status).toBe(422);
    const reader = await app.workspace({ abilities: ['events:write'] });
    expect((await reader.api('/v1/badges')).body).toEqual({ data: [] });
    expect((await ws.api('/v1/badges')).body.data).toEqual([
      {
        key: 'vip',
        name: 'V.I.P.',
        description: null,
        image_url: null,
        tiers: [],
        criteria: null,
        holders_count: 0,
        holders_percent: 0,
      },
    ]);
    expect((await reader.api('/v1/badges', { body: { key: 'k', name: 'n' } })).status).toBe(403);
  });
});

describe('GraphQL and tRPC doors', () => {
  it('GraphQL lists the badge catalogue for any key', async () => {
    const ws = await app.workspace({ abilities: ['events:write'] });
    const admin = await app.workspace();
    await request(app.url, '/v1/badges', { key: ws.keys.test, body: { key: 'x', name: 'X' } });
    const def = await admin.api('/v1/badges', { body: { key: 'star', name: 'Star', tiers: ['bronze'] } });
    expect(def.status).toBe(201);
    const res = await request(app.url, '/graphql', {
      key: admin.keys.test,
      body: { query: '{ badges { key name description imageUrl tiers } }' },
    });
    expect(res.body).toEqual({
      data: { badges: [{ key: 'star', name: 'Star', description: null, imageUrl: null, tiers: ['bronze'] }] },
    });
    const other = await request(app.url, '/graphql', {
      key: ws.keys.test,
      body: { query: '{ badges { key } }' },
    });
    expect(other.body).toEqual({ data: { badges: [] } });
  });

  it('tRPC creates, updates and lists flows and their runs for a signed-in dashboard', async () => {
    const ws = await app.workspace();
    const client = await signedInDashboard(app, ws);
    const flow = await client.flows.create.mutate({
      mode: 'test',
      name: 'Dash flow',
      event_type: 'dash.event',
      actions: [{ type: 'award_badge', badge: 'dash', tier: 'one' }],
    });
    const updated = await client.flows.update.mutate({
      mode: 'test',
      id: flow.id,
      patch: { name: 'Dash flow 2' },
    });
    expect(updated.name).toBe('Dash flow 2');
    expect((await client.flows.list.query({ mode: 'test' })).data.map((f) => f.id)).toEqual([flow.id]);
    expect((await client.flows.list.query({ mode: 'live' })).data).toEqual([]);
    const id = await send(ws, 'dash.event', 'dash-user');
    await settled(ws, id);
    const runs = await client.flows.runs.list.query({ mode: 'test', flow_id: flow.id });
    expect(runs.data).toEqual([expect.objectContaining({ event_id: id, status: 'completed' })]);
    expect(await client.flows.runs.get.query({ mode: 'test', id: runs.data[0]!.id })).toEqual(runs.data[0]);
    expect((await client.flows.badges.query({ mode: 'test' })).data).toEqual([
      {
        key: 'dash',
        name: 'dash',
        description: null,
        image_url: null,
        tiers: ['one'],
        criteria: null,
        holders_count: 1,
        holders_percent: 100,
      },
    ]);
  });
});

describe('the engine', () => {
  it('awards 1 point per currency unit, floored, only for orders over 100', async () => {
    const ws = await app.workspace();
    const flow = await buildFlow(ws, {
      name: 'Big orders',
      event_type: 'order.completed',
      conditions: { '>': [{ var: 'payload.total' }, 100] },
      actions: [
        { type: 'award_points', points: { '*': [{ var: 'payload.total' }, 1] }, reason: 'big order' },
      ],
    });
    const small = await send(ws, 'order.completed', 'alice', { total: 40 });
    const big = await send(ws, 'order.completed', 'alice', { total: 150.9 });
    expect((await settled(ws, small)).flow_runs).toEqual([]);
    const ev = await settled(ws, big);
    expect(ev.status).toBe('processed');
    expect(ev.flow_runs).toEqual([
      {
        id: expect.any(String),
        flow_id: flow.id,
        event_id: big,
        participant: { external_id: 'alice' },
        status: 'completed',
        steps: [
          {
            action: 'award_points',
            status: 'completed',
            result: { points: 150, multiplier: 1, entry_id: expect.any(Number) },
            error: null,
          },
        ],
        started_at: expect.any(String),
        finished_at: expect.any(String),
      },
    ]);
    expect(await balanceOf(ws, 'alice')).toEqual({ balance: 150, lifetime: 150, sum: 150 });
    const run = (await ws.api(`/v1/flow-runs/${ev.flow_runs[0].id}`)).body;
    expect(run).toEqual(ev.flow_runs[0]);
    const entry = (await app.ctx.pool.query(`select * from ledger_entries where reference = $1`, [run.id]))
      .rows[0];
    expect(entry).toMatchObject({
      source: 'flow',
      reason: 'big order',
      idempotency_key: `${big}:${flow.id}:0`,
    });
    expect(await outbox(ws, 'flow.completed')).toEqual([
      {
        participant: { external_id: 'alice' },
        flow: { id: flow.id, name: 'Big orders' },
        flow_run_id: run.id,
        event_id: big,
        status: 'completed',
      },
    ]);
    expect((await outbox(ws, 'points.changed')).length).toBe(1);
  });

  it('multiplies flow points by the active multiplier (highest factor, floored)', async () => {
    const ws = await app.workspace();
    await buildFlow(ws, {
      name: 'Per order',
      event_type: 'order.completed',
      actions: [{ type: 'award_points', points: 15 }],
    });
    await settled(ws, await send(ws, 'order.completed', 'mia'));
    const { rows } = await app.ctx.pool.query(
      `select id from participants where workspace_id = $1 and external_id = 'mia'`,
      [ws.id],
    );
    for (const factor of [1.5, 2.5])
      await app.ctx.pool.query(
        `insert into participant_multipliers (workspace_id, mode, participant_id, factor, expires_at)
         values ($1, 'test', $2, $3, now() + interval '1 hour')`,
        [ws.id, rows[0].id, factor],
      );
    const ev = await settled(ws, await send(ws, 'order.completed', 'mia'));
    expect(ev.flow_runs[0].steps[0].result).toMatchObject({ points: 37, multiplier: 2.5 });
    expect(await balanceOf(ws, 'mia')).toEqual({ balance: 52, lifetime: 52, sum: 52 });
  });

  it('skips the points step when the expression is not positive', async () => {
    const ws = await app.workspace();
    await buildFlow(ws, {
      name: 'Refund-aware',
      event_type: 'order.completed',
      actions: [{ type: 'award_points', points: { '-': [{ var: 'payload.total' }, 100] } }],
    });
    const ev = await settled(ws, await send(ws, 'order.completed', 'bob', { total: 30 }));
    expect(ev.flow_runs[0]).toMatchObject({
      status: 'skipped',
      steps: [{ action: 'award_points', status: 'skipped', result: { points: 0 } }],
    });
    expect(await balanceOf(ws, 'bob')).toEqual({ balance: 0, lifetime: 0, sum: 0 });
  });

  it('rewards the 10th purchase with event_count, counting each processed event once', async () => {
    const ws = await app.workspace();
    await buildFlow(ws, {
      name: 'Tenth purchase',
      event_type: 'purchase',
      conditions: { '==': [{ event_count: 'purchase' }, 10] },
      actions: [
        { type: 'award_points', points: 500 },
        { type: 'award_badge', badge: 'loyal', tier: 'gold' },
      ],
    });
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push(await send(ws, 'purchase', 'carol', { n: i + 1 }));
    const events = [];
    for (const id of ids) events.push(await settled(ws, id));
    expect(events.map((e) => e.flow_runs.length)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0]);
    expect(events[9].payload).toEqual({ n: 10 });
    expect(await balanceOf(ws, 'carol')).toEqual({ balance: 500, lifetime: 500, sum: 500 });
    expect(await badgesOf(ws, 'carol')).toEqual([{ key: 'loyal', tier: 'gold' }]);
    const [awarded] = await outbox(ws, 'badge.awarded');
    expect(awarded).toEqual({
      participant: { external_id: 'carol' },
      badge: { key: 'loyal', tier: 'gold', name: 'loyal' },
      flow_run_id: events[9].flow_runs[0].id,
    });
    // The flow created the undefined badge on first use.
    expect((await ws.api('/v1/badges')).body.data).toEqual([
      {
        key: 'loyal',
        name: 'loyal',
        description: null,
        image_url: null,
        tiers: ['gold'],
        criteria: null,
        holders_count: 1,
        holders_percent: 100,
      },
    ]);
  });

  it('runs a once-only welcome flow once per participant (max_runs_per_participant)', async () => {
    const ws = await app.workspace();
    const flow = await buildFlow(ws, {
      name: 'Welcome',
      event_type: 'app.opened',
      max_runs_per_participant: 1,
      actions: [{ type: 'award_points', points: 100 }],
    });
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push(await send(ws, 'app.opened', 'dave'));
    ids.push(await send(ws, 'app.opened', 'erin'));
    for (const id of ids) await settled(ws, id);
    expect(await balanceOf(ws, 'dave')).toEqual({ balance: 100, lifetime: 100, sum: 100 });
    expect(await balanceOf(ws, 'erin')).toEqual({ balance: 100, lifetime: 100, sum: 100 });
    const runs = await ws.api(`/v1/flow-runs?flow_id=${flow.id}&participant=dave`);
    expect(runs.body.data).toHaveLength(1);
    expect((await ws.api(`/v1/flow-runs?flow_id=${flow.id}&status=completed`)).body.data).toHaveLength(2);
  });

  it('awards a badge key+tier once, whatever the number of matching events', async () => {
    const ws = await app.workspace();
    await buildFlow(ws, {
      name: 'Reviewer',
      event_type: 'review.posted',
      actions: [
        { type: 'award_badge', badge: 'reviewer' },
        { type: 'award_points', points: 5 },
      ],
    });
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await send(ws, 'review.posted', 'frank'));
    const evs = [];
    for (const id of ids) evs.push(await settled(ws, id));
    expect(await badgesOf(ws, 'frank')).toEqual([{ key: 'reviewer', tier: '' }]);
    expect(evs.map((e) => e.flow_runs[0].steps[0].status)).toEqual(['completed', 'skipped', 'skipped']);
    expect(await outbox(ws, 'badge.awarded')).toHaveLength(1);
    expect(await balanceOf(ws, 'frank')).toEqual({ balance: 15, lifetime: 15, sum: 15 });
  });

  it('sees the balance a previous flow of the same event awarded', async () => {
    const ws = await app.workspace();
    await buildFlow(ws, {
      name: 'A',
      event_type: 'level.up',
      actions: [{ type: 'award_points', points: 60 }],
    });
    await buildFlow(ws, {
      name: 'B',
      event_type: 'level.up',
      conditions: { '>=': [{ var: 'participant.balance' }, 100] },
      actions: [{ type: 'award_badge', badge: 'centurion' }],
    });
    await settled(ws, await send(ws, 'level.up', 'gina'));
    expect(await badgesOf(ws, 'gina')).toEqual([]);
    await settled(ws, await send(ws, 'level.up', 'gina'));
    expect(await badgesOf(ws, 'gina')).toEqual([{ key: 'centurion', tier: '' }]);
  });
});

describe('latency', () => {
  it('wakes the worker on commit: an event is processed well within the 2 s polling interval', async () => {
    const ws = await app.workspace();
    await buildFlow(ws, { name: 'P', event_type: 'ping', actions: [{ type: 'award_points', points: 1 }] });
    const took: number[] = [];
    for (let i = 0; i < 7; i++) {
      const id = await send(ws, 'ping', 'lat');
      const { rows } = await app.ctx.pool.query(
        `select extract(epoch from processed_at - received_at) * 1000 as ms from events where id = $1`,
        [(await settled(ws, id)).id],
      );
      took.push(Number(rows[0].ms));
    }
    took.sort((a, b) => a - b);
    // Polling alone would put the median near 1 s (uniform over 0-2 s).
    expect(took[3]).toBeLessThan(600);
  });
});

describe('demo seed', () => {
  it('seeds the demo flows and badges once, and they work', async () => {
    const ws = await app.workspace();
    await seedDemoFlows(app.ctx, ws);
    await seedDemoFlows(app.ctx, ws);
    const flows = (await ws.api('/v1/flows')).body.data.map((f: { name: string }) => f.name).sort();
    expect(flows).toEqual([
      '1 point per currency unit',
      'Review badge',
      'Third order badge',
      'Welcome bonus',
    ]);
    expect((await ws.api('/v1/flows', { mode: 'live' })).body.data).toHaveLength(4);
    expect((await ws.api('/v1/badges')).body.data.map((b: { key: string }) => b.key)).toEqual([
      'regular',
      'reviewer',
    ]);
    const ids = [await send(ws, 'app.opened', 'demo-1'), await send(ws, 'app.opened', 'demo-1')];
    for (let i = 0; i < 3; i++) ids.push(await send(ws, 'order.completed', 'demo-1', { total: 10.9 }));
    for (const id of ids) await settled(ws, id);
    expect(await balanceOf(ws, 'demo-1')).toEqual({ balance: 130, lifetime: 130, sum: 130 });
    expect(await badgesOf(ws, 'demo-1')).toEqual([{ key: 'regular', tier: '' }]);
  });
});

describe('failures', () => {
  // Short retries for this file's queue, so "after the retries run out" comes in seconds.
  beforeAll(async () => {
    await app.ctx.boss.updateQueue('events.process', { retryLimit: 2, retryDelay: 2, retryBackoff: false });
  });

  const failingFlow = (ws: TestWorkspace) =>
    buildFlow(ws, {
      name: 'Welcome mail',
      event_type: 'signup',
      actions: [
        { type: 'award_points', points: 10 },
        { type: 'send_message', template: 'welcome' },
        { type: 'award_badge', badge: 'member' },
      ],
    });

  it('a failing step fails the run and, once the retries run out, the event (error stored), with earlier effects once', async () => {
    const ws = await app.workspace();
    const flow = await failingFlow(ws);
    const id = await send(ws, 'signup', 'hank');
    const ev = await settled(ws, id, 30_000);
    expect(ev.status).toBe('failed');
    expect(ev.error).toMatch(/Welcome mail.*send_message.*welcome/);
    expect(ev.flow_runs).toEqual([
      expect.objectContaining({
        flow_id: flow.id,
        status: 'failed',
        steps: [
          {
            action: 'award_points',
            status: 'completed',
            result: { points: 10, multiplier: 1, entry_id: expect.any(Number) },
            error: null,
          },
          {
            action: 'send_message',
            status: 'failed',
            result: null,
            error: expect.stringMatching(/template "welcome"/),
          },
          { action: 'award_badge', status: 'pending', result: null, error: null },
        ],
      }),
    ]);
    // Three attempts, one credit; flow.completed once, when the run ended for good.
    expect(await balanceOf(ws, 'hank')).toEqual({ balance: 10, lifetime: 10, sum: 10 });
    expect(await badgesOf(ws, 'hank')).toEqual([]);
    expect(await outbox(ws, 'flow.completed')).toEqual([
      expect.objectContaining({ event_id: id, status: 'failed', flow_run_id: ev.flow_runs[0].id }),
    ]);
    expect((await ws.api(`/v1/flow-runs?status=failed`)).body.data).toHaveLength(1);
  });

  it('a retry resumes a failed run where it stopped once the cause is fixed', async () => {
    const ws = await app.workspace();
    await failingFlow(ws);
    const id = await send(ws, 'signup', 'ivy');
    const firstAttempt = await eventually(async () => {
      const r = (await ws.api(`/v1/events/${id}`)).body;
      return r.flow_runs[0]?.status === 'failed' ? r : null;
    });
    expect(firstAttempt.status).toBe('received');
    const tpl = await ws.api('/v1/message-templates', {
      body: { key: 'welcome', channel: 'email', subject: 'Hi', body: 'Welcome {{participant.name}}' },
    });
    expect(tpl.status).toBe(201);
    const ev = await settled(ws, id, 30_000);
    expect(ev.status).toBe('processed');
    expect(ev.flow_runs[0]).toMatchObject({
      id: firstAttempt.flow_runs[0].id,
      status: 'completed',
      steps: [
        { action: 'award_points', status: 'completed' },
        { action: 'send_message', status: 'completed', result: { status: 'simulated' }, error: null },
        { action: 'award_badge', status: 'completed' },
      ],
    });
    expect(await balanceOf(ws, 'ivy')).toEqual({ balance: 10, lifetime: 10, sum: 10 });
    expect(await badgesOf(ws, 'ivy')).toEqual([{ key: 'member', tier: '' }]);
    expect(await outbox(ws, 'flow.completed')).toEqual([
      expect.objectContaining({ event_id: id, status: 'completed' }),
    ]);
    expect(await outbox(ws, 'message.sent')).toHaveLength(1);
  });
});
