import jsonLogic from 'json-logic-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBackfill } from '../src/services/achievements/backfill.ts';
import { compileWhere, SqlParams } from '../src/services/achievements/where-sql.ts';
import { buildSubscription, closeReceivers, outboxOf } from './factories.ts';
import { eventually, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

// Achievements (docs/engagement.md#achievements) against the real Postgres through the REST doors:
// criteria on POST /v1/badges, awards by the engine once per key+tier, progress reads, rarity in
// the catalogue, and backfills (the job's service run directly to make two race).

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await closeReceivers();
  await app?.close();
});

let seq = 0;
const uid = (p: string) => `${p}-${++seq}-${Date.now().toString(36)}`;
const q = async <T = Record<string, any>>(sql: string, params: unknown[] = []) =>
  (await app.ctx.pool.query(sql, params)).rows as T[];

const COUNT3 = { event_type: 'order.completed', aggregate: 'count', window: 'all_time', target: 3 };

const defineBadge = async (
  ws: TestWorkspace,
  body: Record<string, unknown>,
  mode: 'test' | 'live' = 'test',
) => {
  const r = await ws.api('/v1/badges', { body: { name: 'A badge', ...body }, mode });
  expect([200, 201], r.text).toContain(r.status);
  return r.body;
};

/** Posts an event and waits until it is processed. */
const post = async (
  ws: TestWorkspace,
  participant: string,
  payload: Record<string, unknown> = {},
  opts: { type?: string; at?: Date; mode?: 'test' | 'live' } = {},
) => {
  const r = await ws.api('/v1/events', {
    body: {
      event_type: opts.type ?? 'order.completed',
      participant,
      payload,
      ...(opts.at ? { occurred_at: opts.at.toISOString() } : {}),
    },
    mode: opts.mode,
  });
  expect(r.status, r.text).toBe(202);
  const id = r.body.event_id as string;
  await eventually(
    async () => (await q(`select status from events where id = $1`, [id]))[0]?.status === 'processed',
  );
  return id;
};

const held = async (ws: TestWorkspace, participant: string, mode: 'test' | 'live' = 'test') => {
  const r = await ws.api(`/v1/participants/${participant}/badges`, { mode });
  expect(r.status, r.text).toBe(200);
  return (r.body.data as { key: string; tier: string | null; flow_run_id: string | null }[]).map((b) => ({
    key: b.key,
    tier: b.tier,
    flow_run_id: b.flow_run_id,
  }));
};

const achievements = async (ws: TestWorkspace, participant: string, mode: 'test' | 'live' = 'test') => {
  const r = await ws.api(`/v1/participants/${participant}/achievements`, { mode });
  expect(r.status, r.text).toBe(200);
  return r.body.data as Record<string, any>[];
};

const awardedTo = async (ws: TestWorkspace, participant: string) =>
  (await outboxOf(app, ws, 'badge.awarded')).filter((d) => d.participant.external_id === participant);

describe('criteria on POST /v1/badges', () => {
  it('refuses invalid criteria with 422 naming the field, and defines nothing', async () => {
    const ws = await app.workspace();
    const bad: [Record<string, unknown>, string][] = [
      [{ ...COUNT3, event_type: '' }, 'criteria.event_type'],
      [{ ...COUNT3, event_type: 'has space' }, 'criteria.event_type'],
      [{ ...COUNT3, aggregate: 'avg' }, 'criteria.aggregate'],
      [{ ...COUNT3, aggregate: 'sum' }, 'criteria.field'],
      [{ ...COUNT3, field: 'amount' }, 'criteria.field'],
      [{ ...COUNT3, window: 'P-1D' }, 'criteria.window'],
      [{ ...COUNT3, window: 'forever' }, 'criteria.window'],
      [{ ...COUNT3, target: 0 }, 'criteria.target'],
      [{ ...COUNT3, target: 1.5 }, 'criteria.target'],
      [{ ...COUNT3, target: '3' }, 'criteria.target'],
      [{ ...COUNT3, where: { '+': [1, 2] } }, 'criteria.where'],
      [
        { ...COUNT3, where: { and: [{ '==': [1, 1] }, { var: 'participant.email' }] } },
        'criteria.where.and.1.var',
      ],
      [{ ...COUNT3, where: { in: [{ var: 'payload.c' }, 'abc'] } }, 'criteria.where.in.1'],
      [{ ...COUNT3, tier: 'gold' }, 'criteria.tier'],
      [{ ...COUNT3, extra: 1 }, 'criteria'],
    ];
    for (const [criteria, field] of bad) {
      const r = await ws.api('/v1/badges', { body: { key: 'b', name: 'B', criteria } });
      expect(r.status, JSON.stringify(criteria)).toBe(422);
      expect(r.body.error.type).toBe('validation_error');
      expect(
        r.body.error.errors.map((e: { field: string }) => e.field),
        JSON.stringify(criteria),
      ).toContain(field);
    }
    expect((await ws.api('/v1/badges')).body.data).toEqual([]);
  });

  it('stores criteria with every key, shows them in the catalogue, and a redefinition replaces them', async () => {
    const ws = await app.workspace();
    const body = await defineBadge(ws, {
      key: 'big-spender',
      tiers: ['gold'],
      criteria: { ...COUNT3, aggregate: 'sum', field: 'amount', target: 99.5, tier: 'gold', window: 'P30D' },
    });
    const criteria = {
      event_type: 'order.completed',
      aggregate: 'sum',
      field: 'amount',
      window: 'P30D',
      target: 99.5,
      where: null,
      tier: 'gold',
    };
    expect(body.criteria).toEqual(criteria);
    const list = (await ws.api('/v1/badges')).body.data;
    expect(list).toEqual([
      {
        key: 'big-spender',
        name: 'A badge',
        description: null,
        image_url: null,
        tiers: ['gold'],
        criteria,
        holders_count: 0,
        holders_percent: 0,
      },
    ]);
    const again = await ws.api('/v1/badges', { body: { key: 'big-spender', name: 'Renamed' } });
    expect(again.status).toBe(200);
    expect(again.body.criteria).toBeNull();
  });
});

describe('awards by the engine', () => {
  it('counts every processed event toward an all-time target, also when they arrive newest first', async () => {
    const ws = await app.workspace();
    await defineBadge(ws, { key: 'regular', criteria: COUNT3 });
    const p = uid('p');
    // A history imported newest first: each event occurred before the ones already processed.
    await post(ws, p, {}, { at: new Date('2026-11-10T10:00:00Z') });
    await post(ws, p, {}, { at: new Date('2026-11-05T10:00:00Z') });
    expect(await awardedTo(ws, p)).toEqual([]);
    await post(ws, p, {}, { at: new Date('2026-11-01T10:00:00Z') });
    expect(await awardedTo(ws, p)).toHaveLength(1);
  });

  it('awards a count once on reaching the target, with badge.awarded marked as an achievement', async () => {
    const ws = await app.workspace();
    await buildSubscription(ws, { mode: 'test', eventTypes: ['badge.awarded'] });
    await defineBadge(ws, { key: 'regular', name: 'Regular', criteria: COUNT3 });
    const alice = uid('alice');
    await post(ws, alice);
    await post(ws, alice, {}, { type: 'page.viewed' });
    await post(ws, alice);
    expect(await held(ws, alice)).toEqual([]);
    expect(await achievements(ws, alice)).toEqual([
      {
        badge: { key: 'regular', tier: null, name: 'Regular' },
        progress: 2,
        target: 3,
        percent: 66,
        completed_at: null,
      },
    ]);
    await post(ws, alice);
    expect(await held(ws, alice)).toEqual([{ key: 'regular', tier: null, flow_run_id: null }]);
    await post(ws, alice);
    await post(ws, alice);
    expect(await held(ws, alice)).toHaveLength(1);
    const data = {
      participant: { external_id: alice },
      badge: { key: 'regular', tier: '', name: 'Regular' },
    };
    expect(await awardedTo(ws, alice)).toEqual([{ ...data, flow_run_id: null, achievement: true }]);
    // The delivery's body carries the same data, its bytes in the documented key order.
    const [delivery] = await q(
      `select d.body from webhook_deliveries d where d.workspace_id = $1 and d.type = 'badge.awarded'`,
      [ws.id],
    );
    expect(delivery!.body).toContain(
      `"data":{"participant":{"external_id":"${alice}"},"badge":{"key":"regular","tier":"","name":"Regular"},"flow_run_id":null,"achievement":true}`,
    );
    const [read] = await achievements(ws, alice);
    expect(read).toMatchObject({ progress: 5, target: 3, percent: 100 });
    expect(new Date(read!.completed_at).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('sums a numeric payload field over the events a where matches; non-numbers count 0', async () => {
    const ws = await app.workspace();
    await defineBadge(ws, {
      key: 'euro-spender',
      tiers: ['gold'],
      criteria: {
        event_type: 'order.completed',
        aggregate: 'sum',
        field: 'order.total',
        window: 'all_time',
        target: 100,
        tier: 'gold',
        where: {
          and: [{ '==': [{ var: 'payload.currency' }, 'EUR'] }, { '!=': [{ var: 'payload.test' }, true] }],
        },
      },
    });
    const bob = uid('bob');
    await post(ws, bob, { currency: 'EUR', order: { total: 40 } });
    await post(ws, bob, { currency: 'USD', order: { total: 500 } });
    await post(ws, bob, { currency: 'EUR', order: { total: '70' } });
    await post(ws, bob, { currency: 'EUR', order: { total: 100 }, test: true });
    await post(ws, bob, { currency: 'EUR', order: { total: 59.5 } });
    expect(await held(ws, bob)).toEqual([]);
    expect((await achievements(ws, bob))[0]).toMatchObject({ progress: 99.5, target: 100, percent: 99 });
    await post(ws, bob, { currency: 'EUR', order: { total: 0.5 } });
    expect(await held(ws, bob)).toEqual([{ key: 'euro-spender', tier: 'gold', flow_run_id: null }]);
    expect(await awardedTo(ws, bob)).toEqual([
      {
        participant: { external_id: bob },
        badge: { key: 'euro-spender', tier: 'gold', name: 'A badge' },
        flow_run_id: null,
        achievement: true,
      },
    ]);
  });

  it('counts a window ending at each event’s own occurred_at, backdated events included', async () => {
    const ws = await app.workspace();
    await defineBadge(ws, {
      key: 'binge',
      criteria: { event_type: 'video.played', aggregate: 'count', window: 'PT1H', target: 3 },
    });
    const carol = uid('carol');
    const t0 = Date.now() - 2 * 86_400_000;
    const at = (minutes: number) => new Date(t0 + minutes * 60_000);
    const play = (minutes: number) => post(ws, carol, {}, { type: 'video.played', at: at(minutes) });
    // Three plays, never three within an hour.
    await play(0);
    await play(50);
    await play(110);
    expect(await held(ws, carol)).toEqual([]);
    // One backdated to 55 minutes: the hour ending at its own occurred_at holds 0, 50 and 55.
    await play(55);
    expect(await held(ws, carol)).toEqual([{ key: 'binge', tier: null, flow_run_id: null }]);
    // Progress now counts the hour ending now: none, but completed shows 100.
    expect((await achievements(ws, carol))[0]).toMatchObject({ progress: 0, percent: 100 });
    expect((await achievements(ws, carol))[0]!.completed_at).not.toBeNull();

    const dan = uid('dan');
    for (const m of [0, 70, 140]) await post(ws, dan, {}, { type: 'video.played', at: at(m) });
    expect(await held(ws, dan)).toEqual([]);
  });

  it('awards once per participant from a burst processed in shared batches', async () => {
    const ws = await app.workspace();
    await defineBadge(ws, { key: 'regular', criteria: COUNT3 });
    const people = [uid('x'), uid('y'), uid('z')];
    const ids = await Promise.all(
      Array.from({ length: 24 }, async (_, i) => {
        const r = await ws.api('/v1/events', {
          body: { event_type: 'order.completed', participant: people[i % 3] },
        });
        return r.body.event_id as string;
      }),
    );
    await eventually(
      async () =>
        (
          await q(`select count(*)::int as n from events where id = any($1) and status = 'processed'`, [ids])
        )[0]!.n === 24,
    );
    const results = await outboxOf(app, ws, 'badge.awarded');
    expect(results.map((d) => d.participant.external_id).sort()).toEqual([...people].sort());
    for (const p of people) expect(await held(ws, p)).toHaveLength(1);
  });

  it('does not award a key+tier a flow already awarded; the flow’s award completes the achievement', async () => {
    const ws = await app.workspace();
    await defineBadge(ws, { key: 'regular', criteria: COUNT3 });
    const flow = await ws.api('/v1/flows', {
      body: {
        name: 'Welcome',
        event_type: 'order.completed',
        actions: [{ type: 'award_badge', badge: 'regular' }],
      },
    });
    expect(flow.status, flow.text).toBe(201);
    const gina = uid('gina');
    for (let i = 0; i < 4; i++) await post(ws, gina);
    const [badge] = await held(ws, gina);
    expect(badge!.flow_run_id).not.toBeNull();
    const results = await awardedTo(ws, gina);
    expect(results).toHaveLength(1);
    expect(results[0]).not.toHaveProperty('achievement');
    expect((await achievements(ws, gina))[0]).toMatchObject({ progress: 4, percent: 100 });
  });

  it('matches event.type and in-lists, and keeps modes apart', async () => {
    const ws = await app.workspace();
    await defineBadge(ws, {
      key: 'explorer',
      criteria: {
        event_type: 'page.viewed',
        aggregate: 'count',
        window: 'all_time',
        target: 2,
        where: {
          and: [
            { '===': [{ var: 'event.type' }, 'page.viewed'] },
            { in: [{ var: 'payload.section' }, ['docs', 'blog']] },
            { '>': [{ var: ['payload.seconds', 0] }, 10] },
          ],
        },
      },
    });
    const erin = uid('erin');
    await post(ws, erin, { section: 'docs', seconds: 30 }, { type: 'page.viewed' });
    await post(ws, erin, { section: 'shop', seconds: 30 }, { type: 'page.viewed' });
    await post(ws, erin, { section: 'blog', seconds: '30' }, { type: 'page.viewed' });
    await post(ws, erin, { section: 'blog' }, { type: 'page.viewed' });
    await post(ws, erin, { section: 'docs', seconds: 30 }, { type: 'page.viewed', mode: 'live' });
    expect(await held(ws, erin)).toEqual([]);
    await post(ws, erin, { section: 'blog', seconds: 11 }, { type: 'page.viewed' });
    expect(await held(ws, erin)).toEqual([{ key: 'explorer', tier: null, flow_run_id: null }]);
    // Live has no such badge: its events count toward nothing there.
    expect(await achievements(ws, erin, 'live')).toEqual([]);
  });

  it('does not award retroactively when criteria are set; the next matching event or a backfill does', async () => {
    const ws = await app.workspace();
    const frank = uid('frank');
    for (let i = 0; i < 3; i++) await post(ws, frank);
    await defineBadge(ws, { key: 'regular', criteria: COUNT3 });
    expect(await held(ws, frank)).toEqual([]);
    expect((await achievements(ws, frank))[0]).toMatchObject({
      progress: 3,
      percent: 100,
      completed_at: null,
    });
    await post(ws, frank, {}, { type: 'page.viewed' });
    expect(await held(ws, frank)).toEqual([]);
    await post(ws, frank);
    expect(await held(ws, frank)).toHaveLength(1);
  });

  it('answers 404 for the achievements of an unknown participant, and needs participants:read', async () => {
    const ws = await app.workspace();
    expect((await ws.api('/v1/participants/nobody/achievements')).status).toBe(404);
    const narrow = await app.workspace({ abilities: ['events:write'] });
    expect((await narrow.api('/v1/participants/nobody/achievements')).status).toBe(403);
    expect((await narrow.api('/v1/badges/x/backfill', { body: {} })).status).toBe(403);
  });
});

describe('rarity in the catalogue', () => {
  it('counts distinct holders of any tier over the mode’s participants, to 2 decimals', async () => {
    const ws = await app.workspace();
    await ws.api('/v1/flows', {
      body: {
        name: 'Gold',
        event_type: 'gold.earned',
        actions: [{ type: 'award_badge', badge: 'medal', tier: 'gold' }],
      },
    });
    await ws.api('/v1/flows', {
      body: {
        name: 'Silver',
        event_type: 'silver.earned',
        actions: [{ type: 'award_badge', badge: 'medal', tier: 'silver' }],
      },
    });
    const a = uid('a');
    await post(ws, a, {}, { type: 'gold.earned' });
    await post(ws, a, {}, { type: 'silver.earned' });
    await post(ws, uid('b'), {}, { type: 'silver.earned' });
    await post(ws, uid('c'), {}, { type: 'nothing' });
    const liveFlow = await ws.api('/v1/flows', {
      mode: 'live',
      body: { name: 'Gold', event_type: 'gold.earned', actions: [{ type: 'award_badge', badge: 'medal' }] },
    });
    expect(liveFlow.status, liveFlow.text).toBe(201);
    await post(ws, uid('live'), {}, { type: 'gold.earned', mode: 'live' });
    const medal = (await ws.api('/v1/badges')).body.data.find((b: { key: string }) => b.key === 'medal');
    expect(medal).toMatchObject({ holders_count: 2, holders_percent: 66.67 });
    const live = (await ws.api('/v1/badges', { mode: 'live' })).body.data;
    expect(live).toEqual([expect.objectContaining({ key: 'medal', holders_count: 1, holders_percent: 100 })]);
  });
});

describe('POST /v1/badges/{key}/backfill', () => {
  /** A workspace with `n` participants who each have `orders(i)` orders processed before any criteria. */
  const withHistory = async (n: number, orders: (i: number) => number) => {
    const ws = await app.workspace();
    const names = Array.from({ length: n }, (_, i) => `p${i}`);
    for (let i = 0; i < n; i++)
      for (let k = 0; k < orders(i); k++) {
        const r = await ws.api('/v1/events', {
          body: { event_type: 'order.completed', participant: names[i] },
        });
        expect(r.status).toBe(202);
      }
    await eventually(
      async () =>
        (
          await q(`select count(*)::int as n from events where workspace_id = $1 and status <> 'processed'`, [
            ws.id,
          ])
        )[0]!.n === 0,
    );
    return { ws, names };
  };

  it('counts in a dry run, then awards every participant who meets the criteria once', async () => {
    const { ws } = await withHistory(6, (i) => i % 4); // 0,1,2,3,0,1 orders
    await defineBadge(ws, { key: 'duo', criteria: { ...COUNT3, target: 2 } });
    const dry = await ws.api('/v1/badges/duo/backfill', { body: { dry_run: true } });
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body).toEqual({ would_award: 2 });
    expect(await outboxOf(app, ws, 'badge.awarded')).toEqual([]);

    const queued = await ws.api('/v1/badges/duo/backfill', { body: {} });
    expect(queued.status, queued.text).toBe(202);
    expect(queued.body).toEqual({ queued: true });
    await eventually(async () => (await outboxOf(app, ws, 'badge.awarded')).length === 2, 20_000);
    expect(await held(ws, 'p2')).toEqual([{ key: 'duo', tier: null, flow_run_id: null }]);
    expect(await held(ws, 'p3')).toHaveLength(1);
    expect(await held(ws, 'p1')).toEqual([]);
    expect((await ws.api('/v1/badges/duo/backfill', { body: { dry_run: true } })).body).toEqual({
      would_award: 0,
    });
    // Of the 4 participants (those with no event were never created).
    const [duo] = (await ws.api('/v1/badges')).body.data;
    expect(duo).toMatchObject({ holders_count: 2, holders_percent: 50 });
  });

  it('awards each participant once when backfills race, with exactly one badge.awarded each', async () => {
    const { ws, names } = await withHistory(30, (i) => (i % 3 === 0 ? 1 : 2));
    await defineBadge(ws, { key: 'pair', criteria: { ...COUNT3, target: 2 } });
    const job = { workspaceId: ws.id, mode: 'test' as const, badgeId: 0 };
    job.badgeId = Number(
      (await q(`select id from badges where workspace_id = $1 and key = 'pair'`, [ws.id]))[0]!.id,
    );
    const runs = await Promise.all([
      runBackfill(app.ctx, job, { chunk: 4 }),
      runBackfill(app.ctx, job, { chunk: 7 }),
      runBackfill(app.ctx, job, { chunk: 5 }),
    ]);
    expect(runs.reduce((s, r) => s + r.awarded, 0)).toBe(20);
    const rows = await q<{ participant_id: string; n: number }>(
      `select participant_id, count(*)::int as n from participant_badges where workspace_id = $1 group by 1`,
      [ws.id],
    );
    expect(rows).toHaveLength(20);
    expect(rows.every((r) => r.n === 1)).toBe(true);
    const results = await outboxOf(app, ws, 'badge.awarded');
    expect(results).toHaveLength(20);
    const expected = names.filter((_, i) => i % 3 !== 0).sort();
    expect(results.map((d) => d.participant.external_id).sort()).toEqual(expected);
    expect(results.every((d) => d.achievement === true && d.flow_run_id === null)).toBe(true);
    // Again: nothing left to award.
    expect((await runBackfill(app.ctx, job, { chunk: 3 })).awarded).toBe(0);
  });

  it('answers 404 for an unknown badge and 409 for a badge without criteria, and checks dry_run', async () => {
    const ws = await app.workspace();
    expect((await ws.api('/v1/badges/none/backfill', { body: {} })).status).toBe(404);
    await defineBadge(ws, { key: 'plain' });
    const r = await ws.api('/v1/badges/plain/backfill', { body: { dry_run: true } });
    expect(r.status).toBe(409);
    expect(r.body.error.type).toBe('invalid_state');
    const bad = await ws.api('/v1/badges/plain/backfill', { body: { dry_run: 'yes' } });
    expect(bad.status).toBe(422);
    expect(bad.body.error.errors[0].field).toBe('dry_run');
  });
});

describe('the where compiler in Postgres', () => {
  /** Whether the compiled where holds for an event of this type and payload, as Postgres answers. */
  const pg = async (where: unknown, type: string, payload: unknown) => {
    const params = new SqlParams([type, JSON.stringify(payload)]);
    const sql = compileWhere(where, 'e', params);
    const rows = await q<{ ok: boolean }>(
      `select ${sql} as ok from (select $1::text as event_type, $2::jsonb as payload) e`,
      params.values,
    );
    return rows[0]!.ok;
  };

  // Cases where JSON Logic's own answer is the contract's (no type coercion involved).
  const cases: [unknown, Record<string, unknown>][] = [
    [{ '==': [{ var: 'payload.a' }, 1] }, { a: 1 }],
    [{ '==': [{ var: 'payload.a' }, 1] }, { a: 2 }],
    [{ '===': [{ var: 'payload.a.b' }, 'x'] }, { a: { b: 'x' } }],
    [{ '===': [{ var: 'payload.a.b' }, 'x'] }, { a: 'x' }],
    [{ '==': [{ var: 'payload.missing' }, null] }, {}],
    [{ '!=': [{ var: 'payload.missing' }, 1] }, {}],
    [{ '!==': [{ var: 'payload.a' }, true] }, { a: true }],
    [{ '<': [{ var: 'payload.n' }, 10] }, { n: 3 }],
    [{ '<': [{ var: 'payload.n' }, 10] }, { n: 30 }],
    [{ '<=': [1, { var: 'payload.n' }, 5] }, { n: 5 }],
    [{ '<=': [1, { var: 'payload.n' }, 5] }, { n: 6 }],
    [{ '<': [1, { var: 'payload.n' }, 5] }, { n: 1 }],
    [{ '>': [{ var: 'payload.n' }, 2.5] }, { n: 2.51 }],
    [{ '>=': [{ var: 'payload.n' }, 3] }, { n: 3 }],
    [{ and: [{ var: 'payload.a' }, { '==': [{ var: 'payload.b' }, 'x'] }] }, { a: 1, b: 'x' }],
    [{ and: [{ var: 'payload.a' }, { '==': [{ var: 'payload.b' }, 'x'] }] }, { a: 0, b: 'x' }],
    [{ or: [{ var: 'payload.a' }, { var: 'payload.b' }] }, { a: '', b: [] }],
    [{ or: [{ var: 'payload.a' }, { var: 'payload.b' }] }, { a: '', b: [1] }],
    [{ '!': { var: 'payload.a' } }, { a: null }],
    [{ '!': [{ var: 'payload.a' }] }, { a: {} }],
    [{ in: [{ var: 'payload.c' }, ['FR', 'DE']] }, { c: 'DE' }],
    [{ in: [{ var: 'payload.c' }, ['FR', 'DE']] }, { c: 'US' }],
    [{ in: [{ var: 'payload.n' }, [1, 2]] }, { n: 2 }],
    [{ '==': [{ var: ['payload.c', 'none'] }, 'none'] }, {}],
    [{ '==': [{ var: 'event.type' }, 'order.completed'] }, {}],
    [{ '==': [{ '>': [{ var: 'payload.n' }, 1] }, true] }, { n: 2 }],
  ];
  it.each(cases)('answers %j over %j as JSON Logic does', async (where, payload) => {
    const expected = jsonLogic.truthy(
      jsonLogic.apply(where as jsonLogic.RulesLogic, { event: { type: 'order.completed' }, payload }),
    );
    expect(await pg(where, 'order.completed', payload)).toBe(expected);
  });

  it('compares values exactly where JSON Logic would coerce, and numbers only as numbers', async () => {
    expect(await pg({ '==': [{ var: 'payload.a' }, 1] }, 't', { a: '1' })).toBe(false);
    expect(await pg({ '==': [{ var: 'payload.a' }, 1] }, 't', { a: 1.0 })).toBe(true);
    expect(await pg({ '<': [{ var: 'payload.a' }, 10] }, 't', { a: '3' })).toBe(false);
    expect(await pg({ '<': [{ var: 'payload.a' }, 10] }, 't', {})).toBe(false);
    expect(await pg({ '!': { '<': [{ var: 'payload.a' }, 10] } }, 't', {})).toBe(true);
    expect(await pg({ '==': [{ var: 'payload.a.0' }, 'first'] }, 't', { a: ['first'] })).toBe(true);
  });
});
