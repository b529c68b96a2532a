// POST /v1/events/simulate (docs/api.md#simulation): what an event would do, evaluated by the
// engine's own batch in a transaction that is rolled back — flows matched or not, each action's
// points after multipliers and caps or held pending, badges, messages rendered but never sent,
// streaks, level and balance — with nothing stored, sent or created, against the real app, its
// workers, a real SMTP server, an SMS receiver and a webhook receiver on loopback.
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildFlow,
  buildParticipant,
  buildSubscription,
  buildTemplate,
  buildWorkspace,
  closeReceivers,
} from './factories.ts';
import { eventually, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

let app: TestApp;
/** Every SMTP connection and SMS request the app made. */
const sent = { smtp: 0, sms: 0 };
let smtpServer: SMTPServer;
let smsServer: Server;

beforeAll(async () => {
  smtpServer = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onConnect(_session, cb) {
      sent.smtp++;
      cb();
    },
  });
  await new Promise<void>((r) => smtpServer.listen(0, '127.0.0.1', r));
  const smtpPort = (smtpServer.server.address() as AddressInfo).port;
  smsServer = http.createServer((_req, res) => {
    sent.sms++;
    res.end('{}');
  });
  await new Promise<void>((r) => smsServer.listen(0, '127.0.0.1', r));
  const smsPort = (smsServer.address() as AddressInfo).port;
  app = await startTestApp({
    env: {
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}/?from=shop%40example.com`,
      SMS_WEBHOOK_URL: `http://127.0.0.1:${smsPort}/sms`,
    },
  });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await closeReceivers();
  await new Promise<void>((r) => smtpServer.close(() => r()));
  await new Promise<void>((r) => smsServer.close(() => r()));
});

const simulate = (ws: TestWorkspace, body: unknown, mode: 'live' | 'test' = 'test') =>
  ws.api('/v1/events/simulate', { body, mode });

async function ok(ws: TestWorkspace, body: unknown, mode: 'live' | 'test' = 'test') {
  const res = await simulate(ws, body, mode);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** Sends a real event and waits until the engine processed it. */
async function processed(ws: TestWorkspace, body: unknown, mode: 'live' | 'test' = 'test') {
  const res = await ws.api('/v1/events', { body, mode });
  expect(res.status, res.text).toBe(202);
  await eventually(async () => {
    const e = await ws.api(`/v1/events/${res.body.event_id}`, { mode });
    return e.body.status === 'processed';
  });
}

/**
 * Every table an event can touch, hashed whole (and the two job queues an event can feed): equal
 * hashes before and after mean nothing was stored, changed or deleted. (Not the leaderboards'
 * count deltas: a job folds the real events' deltas meanwhile.)
 */
const TABLES = [
  'events',
  'participants',
  'ledger_entries',
  'point_lots',
  'pending_grants',
  'earning_counts',
  'outbox',
  'webhook_deliveries',
  'flow_runs',
  'flows',
  'messages',
  'badges',
  'participant_badges',
  'participant_streaks',
  'streak_changes',
  'tier_history',
  'tier_credits',
  'participant_event_counts',
  'event_types',
  'event_type_counts',
  'referrals',
  'leaderboard_scores',
];
async function snapshot(): Promise<Record<string, string>> {
  const parts = TABLES.map(
    (t) =>
      `(select count(*) || ':' || coalesce(md5(string_agg(x::text, ',' order by x::text)), '') from ${t} x) as ${t}`,
  );
  const { rows } = await app.ctx.pool.query(
    `select ${parts.join(', ')},
            (select count(*)::text from pgboss.job where name in ('events.process', 'messages.send')) as jobs`,
  );
  return rows[0];
}

const order = (participant: unknown, payload: Record<string, unknown> = {}) => ({
  event_type: 'order.completed',
  participant,
  payload,
});

describe('POST /v1/events/simulate', () => {
  it('lists each flow of the type, matched or not, with the points it would credit, and stores nothing', async () => {
    const ws = await buildWorkspace(app);
    const big = await buildFlow(ws, {
      name: 'big orders',
      conditions: { '>=': [{ var: 'payload.total' }, 100] },
      actions: [{ type: 'award_points', points: { '*': [{ var: 'payload.total' }, 0.1] } }],
    });
    const refunds = await buildFlow(ws, {
      name: 'never',
      conditions: { '<': [{ var: 'payload.total' }, 0] },
      actions: [{ type: 'award_points', points: 5 }],
    });
    await buildFlow(ws, { name: 'other type', event_type: 'signup' });
    await buildParticipant(app, ws, { externalId: 'alice', points: 50 });

    const before = await snapshot();
    const sim = await ok(ws, { event: order('alice', { total: 150 }) });
    expect(sim).toEqual({
      status: 'processed',
      error: null,
      participant: { external_id: 'alice', exists: true },
      flows: [
        {
          flow_id: big.id,
          name: 'big orders',
          matched: true,
          actions: [
            { type: 'award_points', status: 'completed', points: 15, capped_points: 0, pending: false },
          ],
        },
        { flow_id: refunds.id, name: 'never', matched: false, actions: [] },
      ],
      badges: [],
      streaks: [],
      tier: { from: null, to: null },
      balance: { before: 50, after: 65 },
    });
    expect(await snapshot()).toEqual(before);
    expect((await ws.api('/v1/participants/alice')).body.balance).toBe(50);
  });

  it('applies a level’s earn multiplier and reports the level an award reaches, leaving the level as it was', async () => {
    const ws = await buildWorkspace(app);
    const tiers = await ws.api('/v1/tiers', {
      method: 'PUT',
      body: {
        qualification: { window: 'lifetime' },
        downgrade: { policy: 'none' },
        levels: [
          { key: 'base', name: 'Base', threshold: 0 },
          { key: 'silver', name: 'Silver', threshold: 100, earn_multiplier: 2 },
        ],
      },
    });
    expect(tiers.status, tiers.text).toBe(200);
    await buildFlow(ws, { actions: [{ type: 'award_points', points: 10 }] });
    await processed(ws, order('bob'));
    await processed(ws, order('carol'));
    const set = await ws.api('/v1/participants/carol/tier', {
      method: 'PUT',
      body: { key: 'silver', reason: 'test' },
    });
    expect(set.status, set.text).toBe(200);

    const silver = await ok(ws, { event: order('carol') });
    expect(silver.flows[0].actions[0]).toMatchObject({ points: 20 });
    expect(silver.tier).toEqual({ from: 'silver', to: 'silver' });
    expect(silver.balance).toEqual({ before: 10, after: 30 });

    // Bob has 10 lifetime points: an order of 95 reaches silver.
    const flow = await buildFlow(ws, {
      name: 'by total',
      event_type: 'big.order',
      actions: [{ type: 'award_points', points: { var: 'payload.total' } }],
    });
    const up = await ok(ws, { event: { type: 'big.order', participant: 'bob', payload: { total: 95 } } });
    expect(up.flows).toEqual([
      {
        flow_id: flow.id,
        name: 'by total',
        matched: true,
        actions: [
          { type: 'award_points', status: 'completed', points: 95, capped_points: 0, pending: false },
        ],
      },
    ]);
    expect(up.tier).toEqual({ from: 'base', to: 'silver' });
    expect((await ws.api('/v1/participants/bob')).body.tier.key).toBe('base');
  });

  it('cuts awards at an earning cap (capped_points) and holds pending_for awards pending', async () => {
    const ws = await buildWorkspace(app);
    const program = await ws.api('/v1/program', {
      method: 'PATCH',
      body: { earning_caps: [{ period: 'day', max_points: 15 }] },
    });
    expect(program.status, program.text).toBe(200);
    await buildFlow(ws, {
      actions: [
        { type: 'award_points', points: 10 },
        { type: 'award_points', points: 10 },
        { type: 'award_points', points: 10 },
      ],
    });
    const capped = await ok(ws, { event: order('dave') });
    expect(capped.flows[0].actions).toEqual([
      { type: 'award_points', status: 'completed', points: 10, capped_points: 0, pending: false },
      { type: 'award_points', status: 'completed', points: 5, capped_points: 5, pending: false },
      { type: 'award_points', status: 'capped', points: 0, capped_points: 10, pending: false },
    ]);
    expect(capped.balance).toEqual({ before: 0, after: 15 });
    // The cap's counter was not moved: the next simulation starts from the same day's 0.
    expect((await ok(ws, { event: order('dave') })).balance.after).toBe(15);

    // Pending points count toward the cap as they are granted; a signup has no saved flow here.
    const held = await ok(ws, {
      event: { type: 'signup', participant: 'erin' },
      flow: {
        name: 'held',
        event_type: 'signup',
        actions: [{ type: 'award_points', points: 7, pending_for: 'P7D' }],
      },
    });
    expect(held.flows).toHaveLength(1);
    const action = held.flows[0].actions[0];
    expect(action).toMatchObject({ type: 'award_points', status: 'completed', points: 7, pending: true });
    const days = (Date.parse(action.available_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThan(7.1);
    expect(held.balance).toEqual({ before: 0, after: 0 });
  });

  it('awards badges (a flow’s and an achievement) and renders messages that are never sent or stored', async () => {
    const ws = await buildWorkspace(app);
    for (const mode of ['live', 'test'] as const) {
      await buildTemplate(ws, { key: 'thanks', channel: 'email' }, mode);
      await buildTemplate(ws, { key: 'text', channel: 'sms', body: 'Thanks' }, mode);
      await buildFlow(
        ws,
        {
          name: 'welcome',
          actions: [
            { type: 'award_badge', badge: 'vip', tier: 'gold' },
            { type: 'send_message', template: 'thanks' },
            { type: 'send_message', template: 'text' },
          ],
        },
        mode,
      );
      const badge = await ws.api('/v1/badges', {
        mode,
        body: {
          key: 'first-order',
          name: 'First order',
          criteria: { event_type: 'order.completed', aggregate: 'count', window: 'all_time', target: 1 },
        },
      });
      expect(badge.status, badge.text).toBe(201);
    }
    const sub = await buildSubscription(ws, { mode: 'live' });
    await buildParticipant(app, ws, { externalId: 'frank', mode: 'live', email: 'frank@example.com' });

    const before = await snapshot();
    const smtp = sent.smtp;
    const sms = sent.sms;
    for (const mode of ['live', 'test'] as const) {
      const sim = await ok(
        ws,
        {
          event: order(
            { external_id: 'frank', email: 'frank@example.com', phone: '+15550100', name: 'Frank' },
            { total: 1 },
          ),
        },
        mode,
      );
      expect(sim.flows[0].actions).toEqual([
        { type: 'award_badge', status: 'completed', badge: 'vip', tier: 'gold' },
        { type: 'send_message', status: 'completed', template: 'thanks' },
        { type: 'send_message', status: 'completed', template: 'text' },
      ]);
      expect(sim.badges).toEqual([
        { key: 'vip', tier: 'gold' },
        { key: 'first-order', tier: null },
      ]);
      expect(sim.participant.exists).toBe(mode === 'live');
    }
    // A participant without an e-mail address: the step is skipped, as the engine would record it.
    const noMail = await ok(ws, { event: order('gina') }, 'live');
    expect(noMail.flows[0].actions[1]).toEqual({
      type: 'send_message',
      status: 'skipped',
      template: 'thanks',
    });

    // Long enough for a send job's worker, a webhook's dispatcher or an SMTP connection to happen.
    await new Promise((r) => setTimeout(r, 1500));
    expect(await snapshot()).toEqual(before);
    expect(sent).toEqual({ smtp, sms });
    expect(sub.receiver.received).toEqual([]);
    const messages = await app.ctx.pool.query(
      `select count(*)::int as n from messages where workspace_id = $1`,
      [ws.id],
    );
    expect(messages.rows[0].n).toBe(0);
  });

  it('answers a template that does not exist as the failure the engine would record', async () => {
    const ws = await buildWorkspace(app);
    await buildFlow(ws, {
      name: 'broken',
      actions: [
        { type: 'award_points', points: 3 },
        { type: 'send_message', template: 'missing' },
        { type: 'award_points', points: 4 },
      ],
    });
    const sim = await ok(ws, { event: order({ external_id: 'hal', email: 'hal@example.com' }) });
    expect(sim.status).toBe('failed');
    expect(sim.error).toContain('message template "missing" does not exist');
    expect(sim.flows[0].actions).toEqual([
      { type: 'award_points', status: 'completed', points: 3, capped_points: 0, pending: false },
      {
        type: 'send_message',
        status: 'failed',
        template: 'missing',
        error: 'message template "missing" does not exist',
      },
      { type: 'award_points', status: 'not_run', points: 0, capped_points: 0, pending: false },
    ]);
  });

  it('extends a streak before the flows read it, in the answer only', async () => {
    const ws = await buildWorkspace(app);
    const streak = await ws.api('/v1/streaks', {
      body: { key: 'daily', name: 'Daily', event_types: ['order.completed'], frequency: 'daily' },
    });
    expect(streak.status, streak.text).toBe(201);
    await buildFlow(ws, {
      name: 'two days running',
      conditions: { '>=': [{ streak: 'daily' }, 2] },
      actions: [{ type: 'award_points', points: 2 }],
    });
    const yesterday = new Date(Date.now() - 86_400_000).toISOString();
    await processed(ws, { ...order('ivy'), occurred_at: yesterday });

    const sim = await ok(ws, { event: order('ivy') });
    expect(sim.streaks).toEqual([{ key: 'daily', length: 2 }]);
    expect(sim.flows[0]).toMatchObject({ matched: true, actions: [{ points: 2 }] });
    const stored = await ws.api('/v1/participants/ivy/streaks');
    expect(stored.body.data[0]).toMatchObject({ key: 'daily', length: 1 });
  });

  it('does not create an unknown participant', async () => {
    const ws = await buildWorkspace(app);
    await buildFlow(ws);
    const before = await snapshot();
    const sim = await ok(ws, { event: order({ external_id: 'new-one', email: 'n@example.com' }) });
    expect(sim.participant).toEqual({ external_id: 'new-one', exists: false });
    expect(sim.balance).toEqual({ before: 0, after: 10 });
    expect((await ws.api('/v1/participants/new-one')).status).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  it('evaluates an unsaved flow after the saved ones, as if saved and active', async () => {
    const ws = await buildWorkspace(app);
    const saved = await buildFlow(ws, { name: 'saved' });
    await buildParticipant(app, ws, { externalId: 'jo' });
    const body = {
      event: { type: 'order.completed', participant: 'jo', payload: { total: 40 } },
      flow: {
        name: 'draft',
        event_type: 'order.completed',
        active: false,
        conditions: { '>': [{ var: 'participant.balance' }, 5] },
        actions: [
          { type: 'award_points', points: { var: 'payload.total' } },
          { type: 'award_badge', badge: 'new' },
        ],
      },
    };
    const before = await snapshot();
    const sim = await ok(ws, body);
    expect(sim.flows).toEqual([
      {
        flow_id: saved.id,
        name: 'saved',
        matched: true,
        actions: [
          { type: 'award_points', status: 'completed', points: 10, capped_points: 0, pending: false },
        ],
      },
      {
        flow_id: null,
        name: 'draft',
        matched: true,
        actions: [
          { type: 'award_points', status: 'completed', points: 40, capped_points: 0, pending: false },
          { type: 'award_badge', status: 'completed', badge: 'new', tier: null },
        ],
      },
    ]);
    expect(sim.balance).toEqual({ before: 0, after: 50 });
    expect(await snapshot()).toEqual(before);
    expect((await ws.api('/v1/flows')).body.data.map((f: { name: string }) => f.name)).toEqual(['saved']);
  });

  it('refuses a bad body with 422 naming the field', async () => {
    const ws = await buildWorkspace(app);
    await ws.api('/v1/event-types/typed/schema', {
      method: 'PUT',
      body: { type: 'object', properties: { total: { type: 'number' } }, required: ['total'] },
    });
    const cases: [unknown, string][] = [
      [{}, 'event'],
      [{ event: { type: 'order.completed' } }, 'event.participant'],
      [{ event: { participant: 'a' } }, 'event.event_type'],
      [{ event: { type: 'x', participant: 'a', surprise: 1 } }, 'event'],
      [
        { event: { type: 'x', participant: 'a' }, flow: { name: 'f', event_type: 'x', actions: [] } },
        'flow.actions',
      ],
      [
        {
          event: { type: 'x', participant: 'a' },
          flow: { name: 'f', event_type: 'y', actions: [{ type: 'award_points', points: 1 }] },
        },
        'flow.event_type',
      ],
      [
        {
          event: { type: 'x', participant: 'a' },
          flow: {
            name: 'f',
            trigger: { type: 'inactivity', after: 'P7D' },
            actions: [{ type: 'award_points', points: 1 }],
          },
        },
        'flow.trigger',
      ],
      [{ event: { type: 'typed', participant: 'a', payload: { total: 'many' } } }, 'event.payload'],
      [{ event: { type: 'x', participant: 'a' }, extra: true }, '(body)'],
    ];
    for (const [body, field] of cases) {
      const res = await simulate(ws, body);
      expect(res.status, `${JSON.stringify(body)}: ${res.text}`).toBe(422);
      expect(res.body.error.type).toBe('validation_error');
      const fields = res.body.error.errors.map((e: { field: string }) => e.field);
      expect(
        fields.some((f: string) => f === field || f.startsWith(`${field}.`)),
        `${JSON.stringify(body)} → ${fields}`,
      ).toBe(true);
    }
  });

  it('needs a key with events:write', async () => {
    const reader = await buildWorkspace(app, { abilities: ['events:read'] });
    const denied = await simulate(reader, { event: order('a') });
    expect(denied.status).toBe(403);
    expect(denied.body.error.type).toBe('permission_error');
    const anonymous = await reader.api('/v1/events/simulate', { body: { event: order('a') }, key: null });
    expect(anonymous.status).toBe(401);
    const writer = await buildWorkspace(app, { abilities: ['events:write'] });
    expect((await simulate(writer, { event: order('a') })).status).toBe(200);
  });
});
