import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../src/db/tx.ts';
import type { Ability } from '../src/services/keys/abilities.ts';
import { issueKey } from '../src/services/keys/manage-keys.ts';
import { emitResult } from '../src/services/outbox/emit.ts';
import { buildFlow, buildReceiver, buildSubscription, closeReceivers, graphqlClient } from './factories.ts';
import { type ApiResponse, eventually, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

// The integrators' operations over GraphQL (docs/graphql.md#for-integrators): batch ingest, replay
// of quarantined events, simulation, a subscription's disabled status, re-enable, secret rotation
// and recover, and the event catalogue — each answering what its REST operation answers over the
// same service, with the same abilities.

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ env: { WEBHOOK_RETRY_SCHEDULE: '1,1', WEBHOOK_TIMEOUT_MS: '500' } });
});
afterAll(async () => {
  await app?.close();
  await closeReceivers();
});

const firstError = (res: ApiResponse) => {
  expect(res.body.errors?.length, res.text).toBeGreaterThan(0);
  return res.body.errors[0] as { message: string; extensions: Record<string, any> };
};
const fieldsOf = (res: ApiResponse) =>
  (firstError(res).extensions.errors as { field: string }[]).map((e) => e.field);

const snakeName = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
/** A GraphQL answer in REST's spelling: snake_case keys, null fields left out (REST omits absent ones). */
const asRest = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(asRest)
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.entries(v)
            .filter(([, x]) => x !== null)
            .map(([k, x]) => [snakeName(k), asRest(x)]),
        )
      : v;

const keyWith = async (ws: TestWorkspace, ...abilities: Ability[]) =>
  graphqlClient(app, ws, {
    key: (await issueKey(app.ctx, { workspace: ws.slug, mode: 'test', abilities })).key,
  });

const setSchema = (ws: TestWorkspace, type: string, schema: object | null) =>
  ws.api(`/v1/event-types/${type}/schema`, { method: 'PUT', body: { schema } });
const NUMBER_N = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };

describe('ingestEventBatch', () => {
  const BATCH = `mutation ($events: [IngestEventInput!]!) {
    ingestEventBatch(events: $events) { results { index eventId status replayed } }
  }`;

  it('stores the items in order, per-item results as POST /v1/events/batch gives them', async () => {
    const ws = await app.workspace();
    const gql = graphqlClient(app, ws);
    const events = [
      { type: 'order.completed', externalId: 'ada', payload: { total: 5 }, idempotencyKey: 'b-1' },
      { eventType: 'order.completed', payload: { total: 6 } },
      { type: 'order.completed', participant: { externalId: 'bob' }, idempotencyKey: 'b-1' },
    ];
    const { ingestEventBatch } = await gql.data<any>(BATCH, { events });
    expect(ingestEventBatch.results).toEqual([
      { index: 0, eventId: expect.any(String), status: 'RECEIVED', replayed: false },
      { index: 1, eventId: expect.any(String), status: 'QUARANTINED', replayed: false },
      { index: 2, eventId: ingestEventBatch.results[0].eventId, status: 'RECEIVED', replayed: true },
    ]);
    // REST's batch with the same keys answers the events GraphQL stored, as duplicates.
    const rest = await ws.api('/v1/events/batch', {
      body: { events: [{ type: 'order.completed', participant: 'ada', idempotency_key: 'b-1' }] },
    });
    expect(rest.status).toBe(202);
    // (The original's status by now: received, or already processed.)
    expect(rest.body.data).toEqual([
      { index: 0, event_id: ingestEventBatch.results[0].eventId, status: expect.any(String), replayed: true },
    ]);
    const stored = await ws.api(`/v1/events/${ingestEventBatch.results[1].eventId}`);
    expect(stored.body).toMatchObject({ status: 'quarantined', payload: { total: 6 } });
  });

  it('refuses the whole batch for one invalid item, naming it, and an empty one', async () => {
    const ws = await app.workspace();
    const gql = graphqlClient(app, ws);
    const bad = await gql(BATCH, {
      events: [
        { type: 'a.b', externalId: 'ada' },
        { type: 'a.b', externalId: 'x'.repeat(1000) },
      ],
    });
    expect(firstError(bad).extensions.code).toBe('validation_error');
    expect(fieldsOf(bad)).toEqual(['events.1.externalId']);
    const empty = await gql(BATCH, { events: [] });
    expect(fieldsOf(empty)).toEqual(['events']);
    expect((await ws.api('/v1/events')).body.data).toEqual([]);
  });
});

describe('replayEvent and replayEvents', () => {
  const REPLAY = `mutation ($id: ID!, $input: ReplayEventInput) {
    replayEvent(id: $id, input: $input) { eventId status replayed }
  }`;

  it('replays a quarantined event with fixes, once, linked both ways, as REST does', async () => {
    const ws = await app.workspace();
    const gql = graphqlClient(app, ws);
    expect((await setSchema(ws, 'r.typed', NUMBER_N)).status).toBe(200);
    const bad = (
      await ws.api('/v1/events', { body: { type: 'r.typed', participant: 'ada', payload: { n: 'x' } } })
    ).body.event_id as string;

    const { replayEvent } = await gql.data<any>(REPLAY, { id: bad, input: { payload: { n: 1 } } });
    expect(replayEvent).toEqual({ eventId: expect.any(String), status: 'RECEIVED', replayed: false });
    const old = await gql.data<any>(`query ($id: ID!) { event(id: $id) { status replayedAs } }`, { id: bad });
    expect(old.event).toEqual({ status: 'QUARANTINED', replayedAs: replayEvent.eventId });

    // The same fixes again (either door) answer that replay; other fixes are invalid_state.
    const again = await gql.data<any>(REPLAY, { id: bad, input: { payload: { n: 1 } } });
    expect(again.replayEvent).toMatchObject({ eventId: replayEvent.eventId, replayed: true });
    const rest = await ws.api(`/v1/events/${bad}/replay`, { body: { payload: { n: 1 } } });
    expect(rest.body.event_id).toBe(replayEvent.eventId);
    expect(rest.headers.get('idempotent-replayed')).toBe('true');
    const other = await gql(REPLAY, { id: bad, input: { payload: { n: 2 } } });
    expect(firstError(other).extensions.code).toBe('invalid_state');
    const processed = await gql(REPLAY, { id: replayEvent.eventId });
    expect(firstError(processed).extensions.code).toBe('invalid_state');

    for (const id of ['not-a-uuid', '019a7c52-7e00-7b00-8c00-0d0e0f101112'])
      expect(firstError(await gql(REPLAY, { id })).extensions.code, id).toBe('not_found');
    const empty = await gql(REPLAY, { id: bad, input: { eventType: '' } });
    expect(fieldsOf(empty)).toEqual(['input.eventType']);
  });

  it('replays every quarantined event of a type unchanged after a schema fix', async () => {
    const ws = await app.workspace();
    const gql = graphqlClient(app, ws);
    await setSchema(ws, 'r.bulk', NUMBER_N);
    for (const n of ['a', 'b', 'c'])
      await ws.api('/v1/events', { body: { type: 'r.bulk', participant: 'ada', payload: { n } } });
    await setSchema(ws, 'r.bulk', null);
    const BULK = `mutation ($input: ReplayEventsInput) { replayEvents(input: $input) { replayed } }`;
    expect((await gql.data<any>(BULK, { input: { eventType: 'r.bulk' } })).replayEvents).toEqual({
      replayed: 3,
    });
    // REST finds nothing left to replay.
    expect((await ws.api('/v1/events/replay', { body: { event_type: 'r.bulk' } })).body).toEqual({
      replayed: 0,
    });
    const bad = await gql(BULK, { input: { since: 'yesterday' } });
    expect(fieldsOf(bad)).toEqual(['input.since']);
    const backwards = await gql(BULK, { input: { since: '2026-02-01', until: '2026-01-01' } });
    expect(fieldsOf(backwards)).toEqual(['input.until']);
  });
});

describe('simulateEvent', () => {
  const SIMULATE = `mutation ($input: SimulateEventInput!) {
    simulateEvent(input: $input) {
      status error
      participant { externalId exists }
      flows {
        flowId name matched error
        actions { type status points cappedPoints pending availableAt badge tier template error }
      }
      badges { key tier }
      streaks { key length }
      tier { from to }
      balance { before after }
    }
  }`;

  it('answers what POST /v1/events/simulate answers, with an unsaved flow, storing nothing', async () => {
    const ws = await app.workspace();
    const gql = graphqlClient(app, ws);
    await buildFlow(ws, { name: 'Ten', actions: [{ type: 'award_points', points: 10 }] });
    await buildFlow(ws, { name: 'Big', conditions: { '>': [{ var: 'payload.total' }, 100] } });
    const unsaved = {
      name: 'Draft',
      event_type: 'order.completed',
      actions: [{ type: 'award_points', points: 3 }],
    };
    const { simulateEvent } = await gql.data<any>(SIMULATE, {
      input: {
        event: { type: 'order.completed', externalId: 'ada', payload: { total: 20 } },
        flow: { name: 'Draft', eventType: 'order.completed', actions: unsaved.actions },
      },
    });
    const rest = await ws.api('/v1/events/simulate', {
      body: { event: { type: 'order.completed', participant: 'ada', payload: { total: 20 } }, flow: unsaved },
    });
    expect(rest.status, rest.text).toBe(200);
    expect(asRest(simulateEvent)).toEqual(asRest(rest.body));
    expect(simulateEvent).toMatchObject({
      status: 'processed',
      participant: { externalId: 'ada', exists: false },
      balance: { before: 0, after: 13 },
    });
    expect(simulateEvent.flows.map((f: any) => [f.name, f.matched])).toEqual([
      ['Ten', true],
      ['Big', false],
      ['Draft', true],
    ]);
    expect((await ws.api('/v1/participants/ada')).status).toBe(404);
    expect((await ws.api('/v1/events')).body.data).toEqual([]);
  });

  it('names the field of an event ingest would quarantine, and of a flow of another type', async () => {
    const ws = await app.workspace();
    const gql = graphqlClient(app, ws);
    const noParticipant = await gql(SIMULATE, { input: { event: { type: 'order.completed' } } });
    expect(firstError(noParticipant).extensions.code).toBe('validation_error');
    expect(fieldsOf(noParticipant)).toEqual(['input.event.participant']);
    const otherType = await gql(SIMULATE, {
      input: {
        event: { type: 'order.completed', externalId: 'ada' },
        flow: { name: 'x', eventType: 'signup', actions: [{ type: 'award_points', points: 1 }] },
      },
    });
    expect(fieldsOf(otherType)).toEqual(['input.flow.eventType']);
    const badFlow = await gql(SIMULATE, {
      input: { event: { type: 'order.completed', externalId: 'ada' }, flow: { name: 'x', actions: [] } },
    });
    expect(firstError(badFlow).extensions.code).toBe('validation_error');
  });
});

describe('webhook subscriptions: disabled, re-enable, rotate and recover', () => {
  const SUB = `query ($id: ID!) { webhookSubscription(id: $id) { id status disabledReason disabledAt } }`;
  const RECOVER = `mutation ($id: ID!, $input: RecoverWebhookDeliveriesInput!) {
    recoverWebhookDeliveries(id: $id, input: $input) { recovered }
  }`;

  it('shows why and when a 410 disabled it, re-enables it with ACTIVE, and recovers its dead delivery', async () => {
    const ws = await app.workspace();
    const gql = graphqlClient(app, ws, { mode: 'live' });
    const rx = await buildReceiver();
    rx.respond(() => ({ status: 410, body: 'gone' }));
    const sub = await buildSubscription(ws, { receiver: rx, eventTypes: ['points.changed'] });
    const since = new Date(Date.now() - 60_000).toISOString();
    await withTransaction(app.ctx.pool, (sql) =>
      emitResult(sql, {
        workspaceId: ws.id,
        mode: 'live',
        type: 'points.changed',
        data: { participant: { external_id: 'ada' }, balance: 1 } as never,
      }),
    );
    const disabled = await eventually(async () => {
      const s = (await gql.data<any>(SUB, { id: sub.id })).webhookSubscription;
      return s.status === 'DISABLED' ? s : null;
    });
    const rest = (await ws.api(`/v1/webhook-subscriptions/${sub.id}`, { mode: 'live' })).body;
    expect(disabled).toEqual({
      id: sub.id,
      status: 'DISABLED',
      disabledReason: 'GONE',
      disabledAt: rest.disabled_at,
    });
    expect(rest.disabled_reason).toBe('gone');

    // Recover waits for a re-enable; DISABLED is never an input.
    const early = await gql(RECOVER, { id: sub.id, input: { since } });
    expect(firstError(early).extensions.code).toBe('invalid_state');
    const UPDATE = `mutation ($id: ID!, $status: WebhookSubscriptionStatus!) {
      updateWebhookSubscription(id: $id, input: { status: $status }) { status disabledReason disabledAt }
    }`;
    const refused = await gql(UPDATE, { id: sub.id, status: 'DISABLED' });
    expect(fieldsOf(refused)).toEqual(['input.status']);
    const { updateWebhookSubscription } = await gql.data<any>(UPDATE, { id: sub.id, status: 'ACTIVE' });
    expect(updateWebhookSubscription).toEqual({ status: 'ACTIVE', disabledReason: null, disabledAt: null });

    const tooOld = await gql(RECOVER, {
      id: sub.id,
      input: { since: new Date(Date.now() - 15 * 86_400_000).toISOString() },
    });
    expect(fieldsOf(tooOld)).toEqual(['input.since']);
    const backwards = await gql(RECOVER, { id: sub.id, input: { since, until: '2020-01-01T00:00:00Z' } });
    expect(fieldsOf(backwards)).toEqual(['input.until']);

    rx.respond(() => ({ status: 200, body: 'ok' }));
    const { recoverWebhookDeliveries } = await gql.data<any>(RECOVER, { id: sub.id, input: { since } });
    expect(recoverWebhookDeliveries).toEqual({ recovered: 1 });
    await eventually(async () => rx.received.length === 2);
    expect(rx.received[1]!.headers['webhook-id']).toBe(rx.received[0]!.headers['webhook-id']);
    // Nothing dead is left for REST to recover.
    const again = await ws.api(`/v1/webhook-subscriptions/${sub.id}/recover`, {
      mode: 'live',
      body: { since },
    });
    expect(again.body).toEqual({ recovered: 0 });
  });

  it('rotates the secret: the new one shown once, both signing during the grace', async () => {
    const ws = await app.workspace();
    const gql = graphqlClient(app, ws, { mode: 'live' });
    const sub = await buildSubscription(ws);
    const ROTATE = `mutation ($id: ID!, $input: RotateWebhookSecretInput) {
      rotateWebhookSecret(id: $id, input: $input) { secret previousExpiresAt }
    }`;
    const before = Date.now();
    const { rotateWebhookSecret } = await gql.data<any>(ROTATE, {
      id: sub.id,
      input: { graceSeconds: 3600 },
    });
    expect(rotateWebhookSecret.secret).toMatch(/^whsec_/);
    expect(rotateWebhookSecret.secret).not.toBe(sub.secret);
    const expires = Date.parse(rotateWebhookSecret.previousExpiresAt) - before;
    expect(expires).toBeGreaterThanOrEqual(3_599_000);
    expect(expires).toBeLessThan(3_610_000);

    await gql.data<any>(`mutation ($id: ID!) { testWebhookSubscription(id: $id) { ok } }`, { id: sub.id });
    const r = sub.receiver.received.at(-1)!;
    expect(String(r.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of [rotateWebhookSecret.secret, sub.secret])
      expect(() =>
        new Webhook(secret).verify(r.rawBody.toString(), r.headers as Record<string, string>),
      ).not.toThrow();

    // Without input: a day's grace; a chosen secret; bad input named; an unknown id is not_found.
    const chosen = await gql.data<any>(ROTATE, { id: sub.id, input: { secret: 'my-own-secret-123' } });
    expect(chosen.rotateWebhookSecret.secret).toBe('my-own-secret-123');
    const dflt = await gql.data<any>(ROTATE, { id: sub.id });
    expect(Date.parse(dflt.rotateWebhookSecret.previousExpiresAt) - Date.now()).toBeGreaterThan(86_390_000);
    const bad = await gql(ROTATE, { id: sub.id, input: { graceSeconds: 604_801, secret: 'short' } });
    expect(fieldsOf(bad).sort()).toEqual(['input.graceSeconds', 'input.secret']);
    for (const id of ['nope', '019a7c52-7e00-7b00-8c00-0d0e0f101112'])
      expect(firstError(await gql(ROTATE, { id })).extensions.code).toBe('not_found');
  });
});

describe('webhookEventTypes', () => {
  it('is the catalogue GET /v1/webhook-event-types answers, for any API key', async () => {
    const ws = await app.workspace();
    const reader = await keyWith(ws, 'flows:read');
    const { webhookEventTypes } = await reader.data<any>(
      `{ webhookEventTypes { type description schema example } }`,
    );
    const rest = await ws.api('/v1/webhook-event-types');
    expect(webhookEventTypes).toEqual(rest.body.data);
    expect(webhookEventTypes.map((t: any) => t.type)).toContain('webhook.disabled');
    const anonymous = graphqlClient(app, null, { key: null });
    expect(firstError(await anonymous(`{ webhookEventTypes { type } }`)).extensions.code).toBe(
      'authentication_error',
    );
  });
});

describe('abilities', () => {
  it('asks each new field for the ability its REST operation asks', async () => {
    const ws = await app.workspace();
    const eventsReader = await keyWith(ws, 'events:read', 'webhooks:read');
    const eventsWriter = await keyWith(ws, 'events:write');
    const webhooksWriter = await keyWith(ws, 'webhooks:write');
    const id = '019a7c52-7e00-7b00-8c00-0d0e0f101112';
    const eventOps = [
      `mutation { ingestEventBatch(events: [{ type: "a.b", externalId: "ada" }]) { results { eventId } } }`,
      `mutation { replayEvent(id: "${id}") { eventId } }`,
      `mutation { replayEvents { replayed } }`,
      `mutation { simulateEvent(input: { event: { type: "a.b", externalId: "ada" } }) { status } }`,
    ];
    const webhookOps = [
      `mutation { rotateWebhookSecret(id: "${id}") { secret } }`,
      `mutation { recoverWebhookDeliveries(id: "${id}", input: { since: "${new Date().toISOString()}" }) { recovered } }`,
    ];
    for (const q of eventOps) {
      for (const client of [eventsReader, webhooksWriter])
        expect(firstError(await client(q)).extensions.code, q).toBe('permission_error');
      expect((await eventsWriter(q)).body.errors?.[0]?.extensions.code, q).not.toBe('permission_error');
    }
    for (const q of webhookOps) {
      for (const client of [eventsReader, eventsWriter])
        expect(firstError(await client(q)).extensions.code, q).toBe('permission_error');
      expect(firstError(await webhooksWriter(q)).extensions.code, q).toBe('not_found');
    }
  });

  it('refuses a participant token on every new field', async () => {
    const ws = await app.workspace();
    await ws.api('/v1/events', { body: { type: 'a.b', participant: 'ada' } });
    await eventually(async () => (await ws.api('/v1/participants/ada')).status === 200);
    const token = (await ws.api('/v1/participants/ada/tokens', { body: {} })).body.token as string;
    const asAda = graphqlClient(app, null, { key: token });
    for (const q of [
      `{ webhookEventTypes { type } }`,
      `mutation { ingestEventBatch(events: [{ type: "a.b", externalId: "ada" }]) { results { eventId } } }`,
      `mutation { simulateEvent(input: { event: { type: "a.b", externalId: "ada" } }) { status } }`,
      `mutation { replayEvents { replayed } }`,
    ])
      expect(firstError(await asAda(q)).extensions.code, q).toBe('permission_error');
  });
});
