import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type express from 'express';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSvcClient, ok, type SvcClient } from '../clients/typescript/index.ts';
import { type Delivery, receiver } from '../examples/receiver-express/server.ts';
import { eventually, startTestApp, type TestApp } from './helpers.ts';

// The Express receiver of examples/receiver-express, subscribed in the real service (live mode:
// sandbox results are never POSTed) and verifying real deliveries with `standardwebhooks`.
// A seconds-long retry ladder, so a delivery the receiver refused comes back within the test.
let app: TestApp;
const servers = new Set<http.Server>();

beforeAll(async () => {
  app = await startTestApp({ env: { WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1', WEBHOOK_TIMEOUT_MS: '2000' } });
});
afterAll(async () => {
  await app?.close();
  await Promise.all([...servers].map((s) => new Promise((r) => s.close(r))));
});

/**
 * A loopback port for the example: its URL goes into the subscription before the secret is
 * known, so the example's app is plugged in once the subscription has answered with it.
 */
async function listen() {
  let current: express.Express | null = null;
  const server = http.createServer((req, res) => {
    if (current) current(req, res);
    else res.writeHead(503).end();
  });
  servers.add(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: `${base}/webhooks/svc`, use: (a: express.Express) => (current = a) };
}

/** The example receiver with `secret`, recording what its handler was given. */
function example(secret: string, onDelivery?: (d: Delivery) => void) {
  const handled: Delivery[] = [];
  const a = receiver({
    secret,
    onDelivery(d) {
      onDelivery?.(d);
      handled.push(d);
    },
  });
  return { app: a, handled };
}

async function subscribe(svc: SvcClient, url: string, secret?: string) {
  return ok(
    svc.POST('/v1/webhook-subscriptions', {
      body: { url, event_types: ['points.changed'], ...(secret ? { secret } : {}) },
    }),
  );
}

describe('examples/receiver-express', () => {
  it('verifies the test ping of a generated whsec_ secret and answers 204', async () => {
    const ws = await app.workspace();
    const svc = createSvcClient({ baseUrl: app.url, apiKey: ws.keys.live });
    const port = await listen();
    const sub = await subscribe(svc, port.url);
    expect(sub.secret).toMatch(/^whsec_/);
    const rx = example(sub.secret);
    port.use(rx.app);

    const ping = await ok(
      svc.POST('/v1/webhook-subscriptions/{id}/test', { params: { path: { id: sub.id } } }),
    );
    expect(ping).toMatchObject({ ok: true, status_code: 204 });
    expect(rx.handled).toEqual([
      expect.objectContaining({
        type: 'webhook.test',
        tenant: ws.slug,
        data: expect.objectContaining({ subscription_id: sub.id }),
      }),
    ]);
  });

  it('verifies a real delivery (points.changed of an adjustment), handles it once, and svc records it succeeded', async () => {
    const ws = await app.workspace();
    const svc = createSvcClient({ baseUrl: app.url, apiKey: ws.keys.live });
    const port = await listen();
    const sub = await subscribe(svc, port.url);
    const rx = example(sub.secret);
    port.use(rx.app);

    await ok(
      svc.POST('/v1/participants/{external_id}/points', {
        params: { path: { external_id: 'alice' } },
        body: { points: 25, reason: 'welcome' },
      }),
    );
    const [got] = await eventually(async () => (rx.handled.length ? rx.handled : null));
    if (got?.type !== 'points.changed') throw new Error(`expected points.changed, got ${got?.type}`);
    expect(got.data.participant.external_id).toBe('alice');
    expect(got.data.balance).toBe(25);

    const delivery = await eventually(async () => {
      const page = await ok(
        svc.GET('/v1/webhook-deliveries', { params: { query: { subscription_id: sub.id } } }),
      );
      return page.data.find((d) => d.status === 'succeeded');
    });
    expect(delivery).toMatchObject({ id: got.id, attempt_count: 1, last_status_code: 204 });

    // A replay sends the same delivery id again: verified, and not handled twice.
    await ok(svc.POST('/v1/webhook-deliveries/{id}/replay', { params: { path: { id: got.id } } }));
    await eventually(async () => {
      const d = await ok(svc.GET('/v1/webhook-deliveries/{id}', { params: { path: { id: got.id } } }));
      return (
        d.status === 'succeeded' && d.attempt_count === 1 && d.last_attempt_at !== delivery.last_attempt_at
      );
    });
    expect(rx.handled).toHaveLength(1);
  });

  it('answers 500 when its handler throws, and handles the retry', async () => {
    const ws = await app.workspace();
    const svc = createSvcClient({ baseUrl: app.url, apiKey: ws.keys.live });
    const port = await listen();
    const sub = await subscribe(svc, port.url);
    let calls = 0;
    const rx = example(sub.secret, () => {
      calls++;
      if (calls === 1) throw new Error('database down');
    });
    port.use(rx.app);

    await ok(
      svc.POST('/v1/participants/{external_id}/points', {
        params: { path: { external_id: 'bob' } },
        body: { points: 5, reason: 'retry' },
      }),
    );
    await eventually(async () => rx.handled.length === 1);
    expect(calls).toBe(2);
    const page = await ok(
      svc.GET('/v1/webhook-deliveries', { params: { query: { subscription_id: sub.id } } }),
    );
    expect(page.data[0]).toMatchObject({ status: 'succeeded', attempt_count: 2, last_status_code: 204 });
  });

  it('verifies a caller-chosen secret as raw bytes', async () => {
    const ws = await app.workspace();
    const svc = createSvcClient({ baseUrl: app.url, apiKey: ws.keys.live });
    const port = await listen();
    const secret = 'my-own-signing-secret-0123456789';
    const sub = await subscribe(svc, port.url, secret);
    const rx = example(secret);
    port.use(rx.app);
    const ping = await ok(
      svc.POST('/v1/webhook-subscriptions/{id}/test', { params: { path: { id: sub.id } } }),
    );
    expect(ping).toMatchObject({ ok: true, status_code: 204 });
    expect(rx.handled).toHaveLength(1);
  });

  it('keeps verifying through a rotation: during the grace both the old and the new secret verify', async () => {
    const ws = await app.workspace();
    const svc = createSvcClient({ baseUrl: app.url, apiKey: ws.keys.live });
    const port = await listen();
    const sub = await subscribe(svc, port.url);
    const rotated = await ok(
      svc.POST('/v1/webhook-subscriptions/{id}/rotate-secret', {
        params: { path: { id: sub.id } },
        body: { grace_seconds: 3600 },
      }),
    );
    for (const secret of [sub.secret, rotated.secret]) {
      const rx = example(secret);
      port.use(rx.app);
      const ping = await ok(
        svc.POST('/v1/webhook-subscriptions/{id}/test', { params: { path: { id: sub.id } } }),
      );
      expect(ping, secret).toMatchObject({ ok: true, status_code: 204 });
      expect(rx.handled).toHaveLength(1);
    }
  });

  it('answers 400 to a wrong secret, a tampered body, a stale timestamp and missing headers', async () => {
    const port = await listen();
    const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
    const rx = example(secret);
    port.use(rx.app);
    const body = JSON.stringify({ id: 'msg_1', type: 'webhook.test', tenant: 't', created_at: '', data: {} });
    const post = (headers: Record<string, string>, raw = body) =>
      fetch(port.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: raw,
      });
    const signed = (key: string, at: Date, raw = body) => ({
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(key).sign('msg_1', at, raw),
    });
    const other = `whsec_${Buffer.from('another secret, not the subscription one').toString('base64')}`;

    expect((await post(signed(other, new Date()))).status).toBe(400);
    expect((await post(signed(secret, new Date()), body.replace('"t"', '"u"'))).status).toBe(400);
    expect((await post(signed(secret, new Date(Date.now() - 10 * 60_000)))).status).toBe(400);
    expect((await post({})).status).toBe(400);
    expect(rx.handled).toEqual([]);

    // The same request, signed with the right secret now, is accepted: the refusals were the signature's.
    expect((await post(signed(secret, new Date()))).status).toBe(204);
    expect(rx.handled).toHaveLength(1);
  });
});
