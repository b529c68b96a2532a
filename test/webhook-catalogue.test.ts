import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RESULT_TYPES } from '../src/services/outbox/emit.ts';
import { RESULT_DOCS, webhookTestShape } from '../src/services/outbox/result-shapes.ts';
import { CATALOGUE_TYPES, dataJsonSchema } from '../src/services/webhooks/catalogue.ts';
import { launchBrowser, skipBrowser } from './browser.ts';
import { buildReceiver, buildReward, buildSubscription, closeReceivers } from './factories.ts';
import { eventually, request, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';
import { documentValidator } from './response-check.ts';
import type { Receiver } from './webhooks-receiver.ts';

// The event catalogue (docs/webhooks.md#catalogue): GET /v1/webhook-event-types and the OpenAPI
// document's `webhooks`, both generated from the zod shapes the emitters are typed by; and every
// body a real loopback receiver gets in a run through the whole product, validated against it.

type Json = any;

let app: TestApp;
let sms: Receiver;

beforeAll(async () => {
  // Live messages go out through the SMS transport: a loopback receiver answering 200.
  sms = await buildReceiver();
  app = await startTestApp({
    env: {
      LOYALTY_TICK_SECONDS: '1',
      SMS_WEBHOOK_URL: `${sms.url}/sms`,
      WEBHOOK_RETRY_SCHEDULE: '1,1',
      WEBHOOK_TIMEOUT_MS: '2000',
    },
  });
});
afterAll(async () => {
  await app?.close();
  await closeReceivers();
});

/** Ajv for the catalogue's schemas: draft 2020-12, formats checked, unknown keywords refused. */
function catalogueAjv() {
  const ajv = new Ajv2020({ allErrors: true, strictTypes: false });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  return ajv;
}

/** A validator of each type's `data`, closed at every level: a field the shape does not name fails. */
function closedValidators(): Map<string, ValidateFunction> {
  const ajv = catalogueAjv();
  const validators = new Map<string, ValidateFunction>(
    CATALOGUE_TYPES.map((type) => [type, ajv.compile(dataJsonSchema(type, { closed: true }))]),
  );
  validators.set('webhook.test', ajv.compile(z.toJSONSchema(webhookTestShape, { io: 'output' })));
  return validators;
}

describe('GET /v1/webhook-event-types', () => {
  it('answers any key with every result type: type, description, the JSON Schema of data and an example', async () => {
    // A key with one unrelated ability: the catalogue needs none.
    const ws = await app.workspace({ abilities: ['events:write'] });
    const res = await ws.api('/v1/webhook-event-types');
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data']);
    const entries = res.body.data as Json[];
    for (const e of entries) {
      expect(Object.keys(e)).toEqual(['type', 'description', 'schema', 'example']);
      expect(e.description.length, e.type).toBeGreaterThan(20);
      expect(e.schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    }
    const types = entries.map((e) => e.type);
    expect(types).toEqual(CATALOGUE_TYPES);
    expect(new Set(types).size).toBe(types.length);
    // Every result type a subscription can name, webhook.disabled among them; webhook.test is not one.
    for (const type of RESULT_TYPES) expect(types, type).toContain(type);
    expect(types).toContain('webhook.disabled');
    expect(types).not.toContain('webhook.test');
    // The same in the other mode, and without a key nothing.
    expect((await ws.api('/v1/webhook-event-types', { mode: 'live' })).body).toEqual(res.body);
    expect((await request(app.url, '/v1/webhook-event-types')).status).toBe(401);
  });

  it('publishes open schemas (results may gain fields) whose examples validate, and closed ones that fit the examples exactly', async () => {
    const ws = await app.workspace();
    const entries = (await ws.api('/v1/webhook-event-types')).body.data as Json[];
    const ajv = catalogueAjv();
    const closed = closedValidators();
    for (const { type, schema, example } of entries) {
      const validate = ajv.compile(schema);
      expect(validate(example), `${type}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      expect(closed.get(type)!(example), `${type} (closed)`).toBe(true);
      // The zod shape the emitters are typed by accepts it as well.
      expect(RESULT_DOCS[type as keyof typeof RESULT_DOCS].shape.safeParse(example).success, type).toBe(true);
      // Open: an extra field is allowed by the published schema, refused by the closed one.
      expect(validate({ ...example, added_later: 1 }), type).toBe(true);
      expect(closed.get(type)!({ ...example, added_later: 1 }), type).toBe(false);
      // No integer carries JavaScript's safe-integer bounds.
      expect(JSON.stringify(schema)).not.toContain(String(Number.MAX_SAFE_INTEGER));
    }
  });

  it('badge.awarded admits its three variants and nothing in between', () => {
    const validate = closedValidators().get('badge.awarded')!;
    const base = { participant: { external_id: 'p' }, badge: { key: 'k', tier: '', name: 'K' } };
    const run = '019a7c52-70a4-7f12-8d3e-5b6c7d8e9f01';
    expect(validate({ ...base, flow_run_id: run })).toBe(true);
    expect(validate({ ...base, flow_run_id: null, achievement: true })).toBe(true);
    expect(validate({ ...base, flow_run_id: null, referral_id: run })).toBe(true);
    expect(validate({ ...base, flow_run_id: null })).toBe(false);
    expect(validate({ ...base, flow_run_id: run, achievement: true })).toBe(false);
  });
});

describe('the OpenAPI document’s webhooks', () => {
  let doc: Json;
  beforeAll(async () => {
    doc = (await request(app.url, '/v1/openapi.json')).body;
  });

  it('list the catalogue’s types, each a POST of the delivery body with the signature headers', async () => {
    expect(Object.keys(doc.webhooks)).toEqual(CATALOGUE_TYPES);
    const { compile, resolve } = documentValidator(doc);
    for (const type of CATALOGUE_TYPES) {
      const op = doc.webhooks[type].post;
      expect(op, type).toBeDefined();
      expect(op.tags).toEqual(['Webhook events']);
      const headers = (op.parameters as Json[]).map(resolve);
      expect(headers.map((h) => `${h.in} ${h.name} ${h.required}`)).toEqual(
        [
          'X-Svc-Signature',
          'X-Svc-Delivery-Id',
          'X-Svc-Event-Type',
          'webhook-id',
          'webhook-timestamp',
          'webhook-signature',
        ].map((name) => `header ${name} true`),
      );
      expect(headers.find((h) => h.name === 'X-Svc-Event-Type').schema.const).toBe(type);
      const media = resolve(op.requestBody).content['application/json'];
      const body = resolve(media.schema);
      expect(Object.keys(body.properties)).toEqual(['id', 'type', 'tenant', 'created_at', 'data']);
      expect(body.properties.type.const).toBe(type);
      // The body's example, its data the catalogue's, validates against the document's schema.
      const validate = compile(media.schema);
      expect(media.example.data).toEqual(RESULT_DOCS[type].example);
      expect(validate(media.example), `${type}: ${JSON.stringify(validate.errors)}`).toBe(true);
      expect(validate({ ...media.example, type: 'other.type' }), type).toBe(false);
      expect(Object.keys(op.responses).sort()).toEqual(['2XX', '410', 'default']);
    }
    expect((doc.tags as Json[]).map((t) => t.name)).toContain('Webhook events');
  });
});

describe.skipIf(skipBrowser)('/docs in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('shows a Webhooks section with every type, and a type opens to its body schema', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(String(e)));
    await page.goto(`${app.url}/docs`);
    const section = page.locator('.webhooks');
    await section.waitFor({ timeout: 15_000 });
    await expect
      .poll(() => section.locator('.opblock').count(), { timeout: 10_000 })
      .toBe(CATALOGUE_TYPES.length);
    const text = await section.innerText();
    for (const type of CATALOGUE_TYPES) expect(text, type).toContain(type);
    await section.screenshot({ path: '.svc/screenshots/docs-webhooks-list.png' }).catch(() => {});
    const opened = section.locator('.opblock').filter({ hasText: 'badge.awarded' }).first();
    await opened.locator('.opblock-summary').first().click();
    await expect.poll(() => opened.innerText(), { timeout: 10_000 }).toContain('webhook-signature');
    await section.screenshot({ path: '.svc/screenshots/docs-webhooks.png' }).catch(() => {});
    expect(problems).toEqual([]);
    await page.close();
  });
});

// --- a run through the product, every delivery validated against the catalogue ---

describe('every body delivered in a run through the product', () => {
  let ws: TestWorkspace;
  const live = (path: string, init: { method?: string; body?: unknown } = {}) =>
    ws.api(path, { ...init, mode: 'live' });
  const ok = async (path: string, init: { method?: string; body?: unknown } = {}) => {
    const res = await live(path, init);
    expect(res.status, `${init.method ?? (init.body ? 'POST' : 'GET')} ${path}: ${res.text}`).toBeLessThan(
      300,
    );
    return res.body;
  };
  /** Sends one live event and waits until it is processed. */
  const send = async (participant: Record<string, unknown>, type: string, occurredAt?: string) => {
    const body = await ok('/v1/events', {
      body: { event_type: type, participant, payload: {}, ...(occurredAt && { occurred_at: occurredAt }) },
    });
    return eventually(async () => {
      const e = await live(`/v1/events/${body.event_id}`);
      return e.body.status === 'processed' ? e.body : null;
    }, 15_000);
  };

  it('covers every catalogued type, and each body matches its type’s schema exactly', async () => {
    ws = await app.workspace();
    const sub = await buildSubscription(ws); // live, `*`
    const rx = sub.receiver;
    // A receiver that is gone: its subscription is disabled at its first delivery, and the `*`
    // subscription hears about it (webhook.disabled).
    const gone = await buildReceiver();
    gone.respond(() => ({ status: 410, body: 'gone' }));
    await buildSubscription(ws, { receiver: gone, eventTypes: ['points.changed'] });

    // The programme: tiers, a flow (points, a badge, an SMS), an achievement, a streak, referrals, a reward.
    await ok('/v1/tiers', {
      method: 'PUT',
      body: {
        qualification: { window: 'lifetime' },
        downgrade: { policy: 'none' },
        levels: [
          { key: 'bronze', name: 'Bronze', threshold: 0 },
          { key: 'silver', name: 'Silver', threshold: 100 },
        ],
      },
    });
    await ok('/v1/message-templates', { body: { key: 'thanks', channel: 'sms', body: 'Thanks!' } });
    await ok('/v1/flows', {
      body: {
        name: 'Per order',
        event_type: 'order.completed',
        actions: [
          { type: 'award_points', points: 150 },
          { type: 'award_badge', badge: 'first-order' },
          { type: 'send_message', template: 'thanks' },
        ],
      },
    });
    await ok('/v1/badges', {
      body: {
        key: 'regular',
        name: 'Regular',
        criteria: { event_type: 'order.completed', aggregate: 'count', window: 'all_time', target: 2 },
      },
    });
    await ok('/v1/streaks', {
      body: { key: 'daily-workout', name: 'Daily workout', event_types: ['workout'], frequency: 'daily' },
    });
    await ok('/v1/referrals/program', {
      method: 'PUT',
      body: {
        qualifying_event_type: 'order.completed',
        qualify_within: 'P30D',
        hold: 'PT2S',
        friend_actions: [{ type: 'award_badge', badge: 'referred' }],
        advocate_actions: [
          { type: 'award_points', points: 100 },
          { type: 'award_badge', badge: 'ambassador' },
        ],
      },
    });
    const reward = await buildReward(
      ws,
      { type: 'voucher_code', cost_points: 10, codes: ['SAVE-1'] },
      'live',
    );

    // Orders (flow, achievement, tiers, message), a redemption.
    const alice = { external_id: 'alice', phone: '+15550000001' };
    await send(alice, 'order.completed');
    await send(alice, 'order.completed');
    await ok('/v1/redemptions', { body: { participant: 'alice', reward_id: reward.id } });
    // A referral: the advocate's code, the friend it brings, the friend's qualifying order.
    await send({ external_id: 'adv' }, 'signed_up');
    const { code } = await ok('/v1/participants/adv/referral-code');
    await send({ external_id: 'friend', referral_code: code }, 'signed_up');
    await send({ external_id: 'friend' }, 'order.completed');
    // A streak whose period ended days ago: extended now, broken by the app's tick.
    await send({ external_id: 'bob' }, 'workout', new Date(Date.now() - 4 * 86_400_000).toISOString());
    // Expiry: a lot announced (points.expiring) and then expired (points.changed, source expiry).
    await ok('/v1/program', {
      method: 'PATCH',
      body: { points_expiry: { mode: 'fixed', after: 'PT4S' }, expiry_notice: 'PT3S' },
    });
    await ok('/v1/participants/carol/points', { body: { points: 12, reason: 'expiring soon' } });

    const seenTypes = () => new Set(rx.received.map((r) => r.body.type as string));
    const badgeVariants = () =>
      new Set(
        rx.received
          .filter((r) => r.body.type === 'badge.awarded')
          .map((r: Json) =>
            r.body.data.flow_run_id ? 'flow' : r.body.data.achievement ? 'achievement' : 'referral',
          ),
      );
    const expiredSeen = () =>
      rx.received.some(
        (r: Json) => r.body.type === 'points.changed' && r.body.data.entry.source === 'expiry',
      );
    await eventually(
      async () =>
        CATALOGUE_TYPES.every((t) => seenTypes().has(t)) && badgeVariants().size === 3 && expiredSeen(),
      45_000,
    ).catch((err: Error) => {
      const missing = CATALOGUE_TYPES.filter((t) => !seenTypes().has(t));
      throw new Error(
        `${err.message}; not delivered: ${missing.join(', ') || 'none'}; badge variants: ${[...badgeVariants()].join(', ')}; expiry seen: ${expiredSeen()}`,
      );
    });
    // The one type outside the catalogue, sent by the test endpoint.
    const tested = await live(`/v1/webhook-subscriptions/${sub.id}/test`, { body: {} });
    expect(tested.body.ok, tested.text).toBe(true);

    const validators = closedValidators();
    const problems: string[] = [];
    for (const r of rx.received) {
      const body = r.body as Json;
      const where = `${body.type} ${body.id}`;
      if (Object.keys(body).join() !== 'id,type,tenant,created_at,data')
        problems.push(`${where}: keys ${Object.keys(body)}`);
      if (body.tenant !== ws.slug) problems.push(`${where}: tenant ${body.tenant}`);
      if (r.headers['x-svc-event-type'] !== body.type)
        problems.push(`${where}: X-Svc-Event-Type ${r.headers['x-svc-event-type']}`);
      if (r.headers['webhook-id'] !== body.id)
        problems.push(`${where}: webhook-id ${r.headers['webhook-id']}`);
      if (r.verifyError) problems.push(`${where}: signature ${r.verifyError}`);
      const validate = validators.get(body.type);
      if (!validate) problems.push(`${where}: not in the catalogue`);
      else if (!validate(body.data))
        problems.push(`${where}: ${JSON.stringify(validate.errors)} in ${JSON.stringify(body.data)}`);
    }
    expect(problems).toEqual([]);
    expect(rx.received.length).toBeGreaterThan(CATALOGUE_TYPES.length);
    expect(rx.received.filter((r) => r.body.type === 'webhook.test')).toHaveLength(1);
  }, 120_000);
});
