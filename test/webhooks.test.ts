import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../src/db/tx.ts';
import { emitResult } from '../src/services/outbox/emit.ts';
import {
  eventually,
  request,
  signedInDashboard,
  startTestApp,
  type TestApp,
  type TestWorkspace,
} from './helpers.ts';
import { type Receiver, startReceiver, verifyWithStripe } from './webhooks-receiver.ts';

let app: TestApp;
let rx: Receiver;

beforeAll(async () => {
  app = await startTestApp({ env: { WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1', WEBHOOK_TIMEOUT_MS: '500' } });
  rx = await startReceiver();
});
afterAll(async () => {
  await app?.close();
  await rx?.close();
});

const create = (ws: TestWorkspace, body: unknown, mode: 'live' | 'test' = 'live') =>
  ws.api('/v1/webhook-subscriptions', { mode, body });

describe('webhook subscriptions', () => {
  it('creates a subscription with a generated whsec_ secret, shown only in the create response and encrypted at rest', async () => {
    const ws = await app.workspace();
    const res = await create(ws, {
      url: `${rx.url}/a`,
      event_types: ['points.changed', 'badge.awarded', 'points.changed'],
      headers: { 'X-Team': 'growth' },
      description: 'CRM sync',
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      url: `${rx.url}/a`,
      event_types: ['points.changed', 'badge.awarded'],
      headers: { 'X-Team': 'growth' },
      description: 'CRM sync',
      status: 'active',
      mode: 'live',
    });
    // 32 random bytes in standard base64 (docs/webhooks.md#verifying-a-delivery).
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(res.body.secret.slice(6), 'base64')).toHaveLength(32);
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);

    const shown = await ws.api(`/v1/webhook-subscriptions/${res.body.id}`, { mode: 'live' });
    expect(shown.status).toBe(200);
    expect(shown.body).not.toHaveProperty('secret');
    expect(shown.text).not.toContain(res.body.secret);
    const listed = await ws.api('/v1/webhook-subscriptions', { mode: 'live' });
    expect(listed.text).not.toContain(res.body.secret);

    const { rows } = await app.ctx.pool.query('select secret_enc from webhook_subscriptions where id = $1', [
      res.body.id,
    ]);
    expect(rows[0].secret_enc).toMatch(/^v1\./);
    expect(rows[0].secret_enc).not.toContain(res.body.secret.slice(6));
  });

  it('uses a given secret, and `*` stands alone for every type', async () => {
    const ws = await app.workspace();
    const res = await create(ws, {
      url: rx.url,
      event_types: ['points.changed', '*'],
      secret: 'my-own-secret-123',
    });
    expect(res.status).toBe(201);
    expect(res.body.secret).toBe('my-own-secret-123');
    expect(res.body.event_types).toEqual(['*']);
  });

  it('refuses an egress-unsafe URL with 422 on `url` and never calls it', async () => {
    const ws = await app.workspace();
    const blocked = await startReceiver({ host: '127.0.0.2' });
    try {
      for (const url of [
        blocked.url,
        'http://10.0.0.5/hook',
        'http://169.254.169.254/latest/meta-data',
        'http://[::1]/x',
        'ftp://example.com/x',
      ]) {
        const res = await create(ws, { url, event_types: ['*'] });
        expect(res.status, url).toBe(422);
        expect(res.body.error.type).toBe('validation_error');
        expect(res.body.error.errors[0].field).toBe('url');
      }
      expect(blocked.received).toHaveLength(0);
      // A PATCH to such a URL is refused the same way.
      const ok = await create(ws, { url: rx.url, event_types: ['*'] });
      const patched = await ws.api(`/v1/webhook-subscriptions/${ok.body.id}`, {
        mode: 'live',
        method: 'PATCH',
        body: { url: blocked.url },
      });
      expect(patched.status).toBe(422);
      expect(patched.body.error.errors[0].field).toBe('url');
      expect(blocked.received).toHaveLength(0);
    } finally {
      await blocked.close();
    }
  });

  it('validates event_types, headers and unknown fields', async () => {
    const ws = await app.workspace();
    const cases: [unknown, string][] = [
      [{ url: rx.url, event_types: [] }, 'event_types'],
      [{ url: rx.url, event_types: ['order.completed'] }, 'event_types.0'],
      [{ url: rx.url }, 'event_types'],
      [
        { url: rx.url, event_types: ['*'], headers: { 'Content-Type': 'text/plain' } },
        'headers.Content-Type',
      ],
      [{ url: rx.url, event_types: ['*'], headers: { 'x-svc-anything': '1' } }, 'headers.x-svc-anything'],
      [{ url: rx.url, event_types: ['*'], headers: { 'X-Bad': 'a\r\nInjected: 1' } }, 'headers.X-Bad'],
      [{ url: rx.url, event_types: ['*'], colour: 'red' }, '(body)'],
    ];
    for (const [body, field] of cases) {
      const res = await create(ws, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
  });

  it('lists (paginated, newest first), shows, patches and deletes; the other mode and other workspaces see nothing', async () => {
    const ws = await app.workspace();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await create(ws, { url: `${rx.url}/${i}`, event_types: ['*'] })).body.id);
    const first = await ws.api('/v1/webhook-subscriptions?limit=2', { mode: 'live' });
    expect(first.status).toBe(200);
    expect(first.body.data.map((s: { id: string }) => s.id)).toEqual([ids[2], ids[1]]);
    expect(first.body.meta.per_page).toBe(2);
    const next = await request(first.body.links.next.replace(/^https?:\/\/[^/]+/, app.url), '', {
      key: ws.keys.live,
    });
    expect(next.body.data.map((s: { id: string }) => s.id)).toEqual([ids[0]]);
    expect(next.body.links.next).toBeNull();

    const patched = await ws.api(`/v1/webhook-subscriptions/${ids[0]}`, {
      mode: 'live',
      method: 'PATCH',
      body: {
        event_types: ['message.sent'],
        headers: { 'X-A': 'b' },
        description: 'changed',
        status: 'paused',
      },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({
      event_types: ['message.sent'],
      headers: { 'X-A': 'b' },
      description: 'changed',
      status: 'paused',
    });
    const cleared = await ws.api(`/v1/webhook-subscriptions/${ids[0]}`, {
      mode: 'live',
      method: 'PATCH',
      body: { description: null },
    });
    expect(cleared.body).toMatchObject({
      description: null,
      status: 'paused',
      event_types: ['message.sent'],
    });

    expect((await ws.api(`/v1/webhook-subscriptions/${ids[0]}`)).status).toBe(404); // test mode
    expect((await ws.api('/v1/webhook-subscriptions')).body.data).toEqual([]);
    const other = await app.workspace();
    expect((await other.api(`/v1/webhook-subscriptions/${ids[0]}`, { mode: 'live' })).status).toBe(404);
    expect(
      (await other.api(`/v1/webhook-subscriptions/${ids[0]}`, { mode: 'live', method: 'DELETE' })).status,
    ).toBe(404);

    const del = await ws.api(`/v1/webhook-subscriptions/${ids[1]}`, { mode: 'live', method: 'DELETE' });
    expect(del.body).toEqual({ id: ids[1], deleted: true });
    expect((await ws.api(`/v1/webhook-subscriptions/${ids[1]}`, { mode: 'live' })).status).toBe(404);
    expect((await ws.api('/v1/webhook-subscriptions/not-a-uuid', { mode: 'live' })).status).toBe(404);
    const after = await ws.api('/v1/webhook-subscriptions', { mode: 'live' });
    expect(after.body.data.map((s: { id: string }) => s.id)).toEqual([ids[2], ids[0]]);
  });

  it('needs webhooks:write to change and webhooks:read to read', async () => {
    const reader = await app.workspace({ abilities: ['webhooks:read'] });
    const writer = await app.workspace({ abilities: ['webhooks:write'] });
    expect((await create(reader, { url: rx.url, event_types: ['*'] })).status).toBe(403);
    expect((await reader.api('/v1/webhook-subscriptions', { mode: 'live' })).status).toBe(200);
    expect((await reader.api('/v1/webhook-deliveries', { mode: 'live' })).status).toBe(200);
    expect((await writer.api('/v1/webhook-subscriptions', { mode: 'live' })).status).toBe(403);
    expect((await create(writer, { url: rx.url, event_types: ['*'] })).status).toBe(201);
    expect((await reader.api('/v1/webhook-subscriptions', { key: null })).status).toBe(401);
  });
});

describe('send test', () => {
  it('POST /{id}/test sends one real signed webhook.test POST now and reports the answer', async () => {
    const ws = await app.workspace();
    const sub = await create(ws, {
      url: `${rx.url}/test-me`,
      event_types: ['badge.awarded'],
      headers: { 'X-T': '1' },
    });
    rx.setSecret(sub.body.secret);
    rx.respond((req) =>
      req.path === '/test-me' ? { status: 200, body: 'pong' } : { status: 500, body: 'nope' },
    );
    const seen = rx.received.length;
    const res = await ws.api(`/v1/webhook-subscriptions/${sub.body.id}/test`, {
      mode: 'live',
      method: 'POST',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ ok: true, status_code: 200, response_snippet: 'pong', error: null });
    expect(res.body.duration_ms).toBeGreaterThanOrEqual(0);
    expect(rx.received).toHaveLength(seen + 1);
    const got = rx.received.at(-1)!;
    expect(got.verifyError).toBeNull();
    const event = verifyWithStripe(got.rawBody, String(got.headers['x-svc-signature']), sub.body.secret);
    expect(event).toMatchObject({
      type: 'webhook.test',
      tenant: ws.slug,
      data: { subscription_id: sub.body.id },
    });
    expect(got.headers['x-svc-event-type']).toBe('webhook.test');
    expect(got.headers['x-t']).toBe('1');
    // Nothing is stored for a test send.
    expect(
      (await ws.api(`/v1/webhook-deliveries?subscription_id=${sub.body.id}`, { mode: 'live' })).body.data,
    ).toEqual([]);

    const failing = await create(ws, { url: `${rx.url}/other`, event_types: ['*'] });
    const bad = await ws.api(`/v1/webhook-subscriptions/${failing.body.id}/test`, {
      mode: 'live',
      method: 'POST',
    });
    expect(bad.status).toBe(200);
    expect(bad.body).toMatchObject({
      ok: false,
      status_code: 500,
      response_snippet: 'nope',
      error: 'receiver answered 500',
    });
    rx.respond(() => ({ status: 200, body: 'ok' }));
  });
});

describe('GraphQL and tRPC reads', () => {
  it('GraphQL lists subscriptions and deliveries with their attempts', async () => {
    const ws = await app.workspace();
    rx.respond(() => ({ status: 200, body: 'ok' }));
    const sub = await create(ws, { url: rx.url, event_types: ['*'] });
    await withTransaction(app.ctx.pool, (sql) =>
      emitResult(sql, { workspaceId: ws.id, mode: 'live', type: 'points.changed', data: { balance: 1 } }),
    );
    await eventually(async () => {
      const r = await ws.api('/v1/webhook-deliveries?status=succeeded', { mode: 'live' });
      return r.body.data.length === 1;
    });
    const res = await request(app.url, '/graphql', {
      key: ws.keys.live,
      body: {
        query: `{ webhookSubscriptions(first: 5) { nodes { id url eventTypes status headers } }
                  webhookDeliveries(status: SUCCEEDED) { nodes { id subscriptionId type status attemptCount
                    payload attempts { number statusCode responseSnippet durationMs error } } } }`,
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.webhookSubscriptions.nodes).toEqual([
      { id: sub.body.id, url: rx.url, eventTypes: ['*'], status: 'ACTIVE', headers: {} },
    ]);
    const [d] = res.body.data.webhookDeliveries.nodes;
    expect(d).toMatchObject({
      subscriptionId: sub.body.id,
      type: 'points.changed',
      status: 'SUCCEEDED',
      attemptCount: 1,
    });
    expect(d.payload).toMatchObject({
      id: d.id,
      type: 'points.changed',
      tenant: ws.slug,
      data: { balance: 1 },
    });
    expect(d.attempts).toEqual([
      { number: 1, statusCode: 200, responseSnippet: 'ok', durationMs: expect.any(Number), error: null },
    ]);
    const one = await request(app.url, '/graphql', {
      key: ws.keys.live,
      body: { query: `{ webhookDelivery(id: "${d.id}") { id attempts { number } } }` },
    });
    expect(one.body.data.webhookDelivery).toEqual({ id: d.id, attempts: [{ number: 1 }] });
    const denied = await request(app.url, '/graphql', {
      key: (await app.workspace({ abilities: ['events:read'] })).keys.live,
      body: { query: '{ webhookSubscriptions { nodes { id } } }' },
    });
    expect(denied.body.errors[0].extensions.code).toBe('permission_error');
  });

  it('tRPC gives the dashboard subscriptions CRUD, deliveries with attempts, replay and send test', async () => {
    const ws = await app.workspace();
    const client = await signedInDashboard(app, ws);

    rx.respond(() => ({ status: 500, body: 'down' }));
    const sub = await client.webhooks.subscriptions.create.mutate({
      mode: 'live',
      url: rx.url,
      event_types: ['*'],
    });
    expect(sub.secret).toMatch(/^whsec_/);
    expect((await client.webhooks.subscriptions.list.query({ mode: 'live' })).data.map((s) => s.id)).toEqual([
      sub.id,
    ]);
    expect((await client.webhooks.subscriptions.get.query({ mode: 'live', id: sub.id })).status).toBe(
      'active',
    );
    const tested = await client.webhooks.subscriptions.sendTest.mutate({ mode: 'live', id: sub.id });
    expect(tested).toMatchObject({ ok: false, status_code: 500 });

    await withTransaction(app.ctx.pool, (sql) =>
      emitResult(sql, { workspaceId: ws.id, mode: 'live', type: 'message.sent', data: {} }),
    );
    const [d] = await eventually(async () => {
      const page = await client.webhooks.deliveries.list.query({ mode: 'live', subscription_id: sub.id });
      return page.data.length ? page.data : null;
    });
    await eventually(
      async () =>
        (await client.webhooks.deliveries.get.query({ mode: 'live', id: d!.id })).attempts.length > 0,
    );
    // Pausing kills it; resuming then replaying sends it again.
    await client.webhooks.subscriptions.update.mutate({ mode: 'live', id: sub.id, status: 'paused' });
    expect((await client.webhooks.deliveries.get.query({ mode: 'live', id: d!.id })).status).toBe('dead');
    await client.webhooks.subscriptions.update.mutate({ mode: 'live', id: sub.id, status: 'active' });
    rx.respond(() => ({ status: 200, body: 'ok' }));
    const replayed = await client.webhooks.deliveries.replay.mutate({ mode: 'live', id: d!.id });
    expect(replayed).toMatchObject({ status: 'pending', attempt_count: 0 });
    await eventually(
      async () =>
        (await client.webhooks.deliveries.get.query({ mode: 'live', id: d!.id })).status === 'succeeded',
    );
    expect(await client.webhooks.subscriptions.delete.mutate({ mode: 'live', id: sub.id })).toEqual({
      id: sub.id,
      deleted: true,
    });
  });
});
