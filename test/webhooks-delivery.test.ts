import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../src/db/tx.ts';
import type { Mode } from '../src/services/keys/principal.ts';
import { emitResult, emitResults, type ResultType } from '../src/services/outbox/emit.ts';
import { deliveryHeaders } from '../src/services/webhooks/send.ts';
import { buildReceiver, buildSubscription, closeReceivers, restClient } from './factories.ts';
import { eventually, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';
import { verifyWithStripe } from './webhooks-receiver.ts';

// A seconds-long ladder (1 initial attempt + 5 retries one second apart) and a short timeout.
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ env: { WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1', WEBHOOK_TIMEOUT_MS: '500' } });
});
afterAll(async () => {
  await app?.close();
  await closeReceivers();
});

/** A result committed the way the engine commits one: emitResult inside the change's transaction. */
function emit(ws: TestWorkspace, type: ResultType = 'points.changed', mode: Mode = 'live', data?: object) {
  return withTransaction(app.ctx.pool, (sql) =>
    emitResult(sql, {
      workspaceId: ws.id,
      mode,
      type,
      data: (data ?? { participant: { external_id: 'alice' }, balance: 42 }) as Record<string, unknown>,
    }),
  );
}

async function deliveriesOf(ws: TestWorkspace, subscriptionId: string, mode: Mode = 'live') {
  const res = await ws.api(`/v1/webhook-deliveries?subscription_id=${subscriptionId}`, { mode });
  expect(res.status, res.text).toBe(200);
  return res.body.data as { id: string; status: string; attempt_count: number }[];
}

async function delivery(ws: TestWorkspace, id: string, mode: Mode = 'live') {
  const res = await ws.api(`/v1/webhook-deliveries/${id}`, { mode });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

async function onlyDelivery(ws: TestWorkspace, subscriptionId: string) {
  const list = await eventually(async () => {
    const l = await deliveriesOf(ws, subscriptionId);
    return l.length ? l : null;
  });
  expect(list).toHaveLength(1);
  return list[0]!.id;
}

/**
 * A deliberate window, for proving that nothing (more) arrives: there is no event to wait for
 * when nothing is supposed to happen. Waits for something that does happen use `eventually`.
 */
const quietFor = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('delivery of committed results', () => {
  it('POSTs a committed live result once, signed so that stripe.webhooks.constructEvent accepts it', async () => {
    const ws = await app.workspace();
    const rx = await buildReceiver();
    const sub = await buildSubscription(ws, { receiver: rx, path: '/hook' });
    const resultId = await emit(ws, 'points.changed', 'live', {
      participant: { external_id: 'alice' },
      balance: 7,
    });

    const [got] = await eventually(async () => (rx.received.length ? rx.received : null));
    expect(got!.verifyError).toBeNull();
    const event = verifyWithStripe(got!.rawBody, String(got!.headers['x-svc-signature']), sub.secret);
    expect(Object.keys(event)).toEqual(['id', 'type', 'tenant', 'created_at', 'data']);
    expect(event).toMatchObject({
      type: 'points.changed',
      tenant: ws.slug,
      data: { participant: { external_id: 'alice' }, balance: 7 },
    });
    expect(String(event.created_at)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(got!.headers['content-type']).toBe('application/json');
    expect(got!.headers['x-svc-delivery-id']).toBe(event.id);
    expect(got!.headers['x-svc-event-type']).toBe('points.changed');
    expect(String(got!.headers['x-svc-signature'])).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);

    const d = await eventually(async () => {
      const x = await delivery(ws, String(event.id));
      return x.status === 'succeeded' ? x : null;
    });
    expect(d).toMatchObject({
      subscription_id: sub.id,
      result_id: resultId,
      attempt_count: 1,
      type: 'points.changed',
    });
    expect(d.payload).toEqual(event);
    expect(d.attempts).toHaveLength(1);
    expect(d.attempts[0]).toMatchObject({ number: 1, status_code: 200, response_snippet: 'ok', error: null });
    await quietFor(300);
    expect(rx.received).toHaveLength(1);
  });

  it('wakes on commit: a result reaches an idle receiver far sooner than the idle poll (5 s)', async () => {
    const ws = await app.workspace();
    const rx = await buildReceiver();
    await buildSubscription(ws, { receiver: rx });
    // Let the dispatcher handle the subscription's own NOTIFY and fall idle: the wake from idle is
    // what is measured, and idleness has no outside sign to wait on (so a short fixed pause).
    await quietFor(200);
    const started = Date.now();
    await emit(ws);
    await eventually(async () => rx.received.length === 1, 5_000);
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('the stripe verifier rejects a tampered body, a wrong secret and a timestamp older than 300 s', async () => {
    const ws = await app.workspace();
    const rx = await buildReceiver();
    const sub = await buildSubscription(ws, { receiver: rx });
    await emit(ws);
    const [got] = await eventually(async () => (rx.received.length ? rx.received : null));
    const header = String(got!.headers['x-svc-signature']);
    const raw = got!.rawBody.toString('utf8');
    expect(() => verifyWithStripe(raw, header, sub.secret)).not.toThrow();
    expect(() => verifyWithStripe(raw.replace('"balance":42', '"balance":43'), header, sub.secret)).toThrow(
      /signature/i,
    );
    expect(() => verifyWithStripe(raw, header, 'whsec_not_the_secret')).toThrow(/signature/i);
    const old = deliveryHeaders(
      { id: 'x', type: 'points.changed', url: rx.url, secrets: [sub.secret], body: raw, customHeaders: {} },
      Math.floor(Date.now() / 1000) - 301,
    )['x-svc-signature'];
    expect(() => verifyWithStripe(raw, old, sub.secret)).toThrow(/tolerance/i);
  });

  it('retries a 500 on the next rung and succeeds, sending identical body bytes with a fresh signature', async () => {
    const ws = await app.workspace();
    const rx = await buildReceiver();
    rx.respond((_req, n) => (n === 0 ? { status: 500, body: 'boom' } : { status: 204 }));
    const sub = await buildSubscription(ws, { receiver: rx });
    await emit(ws);
    const id = await onlyDelivery(ws, sub.id);
    const d = await eventually(async () => {
      const x = await delivery(ws, id);
      return x.status === 'succeeded' ? x : null;
    });
    expect(d.attempt_count).toBe(2);
    expect(d.attempts.map((a: { status_code: number }) => a.status_code)).toEqual([500, 204]);
    expect(d.attempts[0]).toMatchObject({
      number: 1,
      response_snippet: 'boom',
      error: 'receiver answered 500',
    });
    expect(d.attempts[1]).toMatchObject({ number: 2, error: null });
    expect(rx.received).toHaveLength(2);
    const [a, b] = rx.received;
    expect(a!.rawBody.equals(b!.rawBody)).toBe(true);
    expect(a!.verifyError).toBeNull();
    expect(b!.verifyError).toBeNull();
    // One second apart on this ladder: the second signature has a later timestamp.
    expect(a!.headers['x-svc-signature']).not.toBe(b!.headers['x-svc-signature']);
    expect(b!.at - a!.at).toBeGreaterThanOrEqual(900);
  });

  it('a receiver that does not answer within WEBHOOK_TIMEOUT_MS is a failed attempt (timeout)', async () => {
    const ws = await app.workspace();
    const rx = await buildReceiver();
    rx.respond((_req, n) => (n === 0 ? { hang: true } : { status: 200 }));
    const sub = await buildSubscription(ws, { receiver: rx });
    await emit(ws);
    const id = await onlyDelivery(ws, sub.id);
    const d = await eventually(async () => {
      const x = await delivery(ws, id);
      return x.status === 'succeeded' ? x : null;
    });
    expect(d.attempts[0].status_code).toBeNull();
    expect(d.attempts[0].error).toMatch(/within 500 ms/);
    expect(d.attempts[0].duration_ms).toBeGreaterThanOrEqual(450);
    expect(d.attempts[0].duration_ms).toBeLessThan(2_000);
    expect(d.attempts[1].status_code).toBe(200);
  });

  it('a 3xx is a failure and the redirect is not followed', async () => {
    const ws = await app.workspace();
    const rx = await buildReceiver();
    rx.respond((req) =>
      req.path === '/moved' ? { status: 302, headers: { location: `${rx.url}/elsewhere` } } : { status: 200 },
    );
    const sub = await buildSubscription(ws, { receiver: rx, path: '/moved' });
    await emit(ws);
    const id = await onlyDelivery(ws, sub.id);
    const d = await eventually(async () => {
      const x = await delivery(ws, id);
      return x.attempt_count >= 2 ? x : null;
    });
    expect(d.status).toBe('pending');
    expect(d.attempts[0]).toMatchObject({ status_code: 302 });
    expect(d.attempts[0].error).toMatch(/redirects are not followed/);
    expect(rx.received.every((r) => r.path === '/moved')).toBe(true);
  });

  it('a slow-loris body (200, then a byte every 100 ms) fails at the timeout instead of hanging the worker', async () => {
    const ws = await app.workspace();
    const rx = await buildReceiver();
    rx.respond((_req, n) => (n === 0 ? { drip: true, intervalMs: 100 } : { status: 200 }));
    const sub = await buildSubscription(ws, { receiver: rx });
    await emit(ws);
    const id = await onlyDelivery(ws, sub.id);
    const d = await eventually(async () => {
      const x = await delivery(ws, id);
      return x.status === 'succeeded' ? x : null;
    });
    expect(d.attempts[0].error).toMatch(/within 500 ms/);
    expect(d.attempts[0].duration_ms).toBeLessThan(2_000);
  });

  it('an endless fast body is read up to 1 KiB only, and the 2xx counts', async () => {
    const ws = await app.workspace();
    const rx = await buildReceiver();
    rx.respond(() => ({ endless: true }));
    const sub = await buildSubscription(ws, { receiver: rx });
    await emit(ws);
    const id = await onlyDelivery(ws, sub.id);
    const d = await eventually(async () => {
      const x = await delivery(ws, id);
      return x.attempt_count >= 1 ? x : null;
    });
    expect(d.status).toBe('succeeded');
    expect(d.attempts[0].status_code).toBe(200);
    expect(d.attempts[0].response_snippet).toBe('x'.repeat(1024));
  });

  it('a refused connection is a failed attempt with the next rung scheduled', async () => {
    const ws = await app.workspace();
    const rx = await buildReceiver();
    const sub = await buildSubscription(ws, { receiver: rx });
    await rx.close(); // nothing listens on its port any more
    await emit(ws);
    const id = await onlyDelivery(ws, sub.id);
    const d = await eventually(async () => {
      const x = await delivery(ws, id);
      return x.attempt_count >= 1 ? x : null;
    });
    expect(d.attempts[0].status_code).toBeNull();
    expect(d.attempts[0].error).toMatch(/ECONNREFUSED/);
    if (d.status === 'pending') expect(d.next_attempt_at).not.toBeNull();
  });

  it('a delivery that always fails walks the whole ladder — 1 attempt + 5 retries, a rung apart — then is dead', async () => {
    const ws = await app.workspace();
    const rx = await buildReceiver();
    rx.respond(() => ({ status: 503, body: 'down' }));
    const sub = await buildSubscription(ws, { receiver: rx });
    await emit(ws);
    const id = await onlyDelivery(ws, sub.id);
    const d = await eventually(async () => {
      const x = await delivery(ws, id);
      return x.status === 'dead' ? x : null;
    }, 20_000);
    expect(d.attempt_count).toBe(6);
    expect(d.attempts.map((a: { number: number }) => a.number)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(d.next_attempt_at).toBeNull();
    const times = d.attempts.map((a: { attempted_at: string }) => Date.parse(a.attempted_at));
    for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(950);
    await quietFor(1_500);
    expect(rx.received).toHaveLength(6);
    const all = await ws.api(`/v1/webhook-deliveries?status=dead&subscription_id=${sub.id}`, {
      mode: 'live',
    });
    expect(all.body.data.map((x: { id: string }) => x.id)).toEqual([id]);
  }, 30_000);

  it('replay sends a dead delivery again — same id and bytes — with its attempt count reset', async () => {
    const ws = await app.workspace();
    const rx = await buildReceiver();
    let up = false;
    rx.respond(() => (up ? { status: 200 } : { status: 500 }));
    const sub = await buildSubscription(ws, { receiver: rx });
    await emit(ws);
    const id = await onlyDelivery(ws, sub.id);
    await eventually(async () => (await delivery(ws, id)).status === 'dead', 20_000);
    const before = rx.received.length;

    up = true;
    const replayed = await restClient(ws, 'live').post(`/v1/webhook-deliveries/${id}/replay`);
    expect(replayed.status, replayed.text).toBe(200);
    expect(replayed.body).toMatchObject({ id, status: 'pending', attempt_count: 0 });
    const d = await eventually(async () => {
      const x = await delivery(ws, id);
      return x.status === 'succeeded' ? x : null;
    });
    expect(d.attempt_count).toBe(1);
    expect(d.attempts).toHaveLength(7);
    expect(d.attempts.at(-1)).toMatchObject({ number: 1, status_code: 200 });
    expect(rx.received).toHaveLength(before + 1);
    expect(rx.received.at(-1)!.rawBody.equals(rx.received[0]!.rawBody)).toBe(true);
    expect(rx.received.at(-1)!.headers['x-svc-delivery-id']).toBe(id);

    // A succeeded delivery can be replayed too; a pending one cannot.
    const again = await restClient(ws, 'live').post(`/v1/webhook-deliveries/${id}/replay`);
    expect(again.status).toBe(200);
    const twice = await restClient(ws, 'live').post(`/v1/webhook-deliveries/${id}/replay`);
    if (twice.status !== 200) {
      expect(twice.status).toBe(409);
      expect(twice.body.error.type).toBe('invalid_state');
    }
  }, 30_000);

  it('replaying a pending delivery is 409 invalid_state; an unknown one is 404', async () => {
    const ws = await app.workspace();
    const rx = await buildReceiver();
    rx.respond(() => ({ status: 500 }));
    const sub = await buildSubscription(ws, { receiver: rx });
    await emit(ws);
    const id = await onlyDelivery(ws, sub.id);
    const res = await restClient(ws, 'live').post(`/v1/webhook-deliveries/${id}/replay`);
    expect(res.status).toBe(409);
    expect(res.body.error.type).toBe('invalid_state');
    const unknown = await ws.api('/v1/webhook-deliveries/019a7c52-6f1e-7b3a-9c41-2d5e8f0a1b2c/replay', {
      mode: 'live',
      method: 'POST',
    });
    expect(unknown.status).toBe(404);
    // Another workspace cannot see it.
    const other = await app.workspace();
    expect((await restClient(other, 'live').get(`/v1/webhook-deliveries/${id}`)).status).toBe(404);
    await restClient(ws, 'live').delete(`/v1/webhook-subscriptions/${sub.id}`);
  });

  it('pausing a subscription makes its pending deliveries dead at once and sends nothing new until resumed', async () => {
    const ws = await app.workspace();
    const rx = await buildReceiver();
    rx.respond(() => ({ status: 500 }));
    const sub = await buildSubscription(ws, { receiver: rx });
    await emit(ws);
    const id = await onlyDelivery(ws, sub.id);
    await eventually(async () => (await delivery(ws, id)).attempt_count >= 1);

    const paused = await restClient(ws, 'live').patch(`/v1/webhook-subscriptions/${sub.id}`, {
      status: 'paused',
    });
    expect(paused.status, paused.text).toBe(200);
    expect(paused.body.status).toBe('paused');
    const d = await delivery(ws, id);
    expect(d.status).toBe('dead');
    expect(d.last_error).toBe('subscription paused');
    const seen = rx.received.length;

    await emit(ws); // not delivered to a paused subscription
    await quietFor(2_500);
    expect(rx.received).toHaveLength(seen);
    expect(await deliveriesOf(ws, sub.id)).toHaveLength(1);
    // Replay waits for the subscription to be resumed.
    const refused = await restClient(ws, 'live').post(`/v1/webhook-deliveries/${id}/replay`);
    expect(refused.status).toBe(409);

    rx.respond(() => ({ status: 200 }));
    await restClient(ws, 'live').patch(`/v1/webhook-subscriptions/${sub.id}`, { status: 'active' });
    await emit(ws);
    await eventually(async () => rx.received.length === seen + 1);
    expect((await delivery(ws, id)).status).toBe('dead');
  });

  it('a new URL and new headers apply to the next attempt of a pending delivery; its body bytes do not change', async () => {
    const ws = await app.workspace();
    const oldRx = await buildReceiver();
    const newRx = await buildReceiver();
    oldRx.respond(() => ({ status: 500 }));
    const sub = await buildSubscription(ws, { receiver: oldRx });
    newRx.setSecret(sub.secret);
    await emit(ws);
    const id = await onlyDelivery(ws, sub.id);
    await eventually(async () => (await delivery(ws, id)).attempt_count >= 1);
    const patched = await ws.api(`/v1/webhook-subscriptions/${sub.id}`, {
      mode: 'live',
      method: 'PATCH',
      body: { url: newRx.url, headers: { 'X-Moved': 'yes' } },
    });
    expect(patched.status, patched.text).toBe(200);
    const d = await eventually(async () => {
      const x = await delivery(ws, id);
      return x.status === 'succeeded' ? x : null;
    });
    expect(newRx.received).toHaveLength(1);
    expect(newRx.received[0]!.verifyError).toBeNull();
    expect(newRx.received[0]!.headers['x-moved']).toBe('yes');
    expect(newRx.received[0]!.rawBody.equals(oldRx.received[0]!.rawBody)).toBe(true);
    expect(d.attempts.at(-1)).toMatchObject({ status_code: 200 });
  });

  it('an attempt in flight when the subscription is paused is logged; the delivery stays dead with the pause as its reason', async () => {
    const ws = await app.workspace();
    const rx = await buildReceiver();
    rx.respond(() => ({ status: 500, delayMs: 300 }));
    const sub = await buildSubscription(ws, { receiver: rx });
    await emit(ws);
    const id = await onlyDelivery(ws, sub.id);
    await eventually(async () => (rx.received.length >= 1 ? true : null)); // the attempt is in flight
    const paused = await restClient(ws, 'live').patch(`/v1/webhook-subscriptions/${sub.id}`, {
      status: 'paused',
    });
    expect(paused.status, paused.text).toBe(200);
    const d = await eventually(async () => {
      const x = await delivery(ws, id);
      return x.attempts.length >= 1 ? x : null;
    });
    expect(d.status).toBe('dead');
    expect(d.last_error).toBe('subscription paused');
    expect(d.attempts).toHaveLength(1);
    expect(d.attempts[0]).toMatchObject({ status_code: 500, error: 'receiver answered 500' });
    await quietFor(1_500); // the 1 s retry rung is not taken: nothing more is sent
    expect(rx.received).toHaveLength(1);
  });

  it('deleting a subscription makes its pending deliveries dead; its log stays readable', async () => {
    const ws = await app.workspace();
    const rx = await buildReceiver();
    rx.respond(() => ({ status: 500 }));
    const sub = await buildSubscription(ws, { receiver: rx });
    await emit(ws);
    const id = await onlyDelivery(ws, sub.id);
    const del = await restClient(ws, 'live').delete(`/v1/webhook-subscriptions/${sub.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ id: sub.id, deleted: true });
    const d = await delivery(ws, id);
    expect(d.status).toBe('dead');
    expect(d.last_error).toBe('subscription deleted');
    const seen = rx.received.length;
    await quietFor(1_500);
    expect(rx.received).toHaveLength(seen);
  });

  it('test-mode results are logged as simulated and never POSTed: the receiver sees nothing', async () => {
    const ws = await app.workspace();
    const rx = await buildReceiver();
    const sub = await buildSubscription(ws, { receiver: rx, mode: 'test' });
    await emit(ws, 'badge.awarded', 'test');
    const list = await eventually(async () => {
      const l = await deliveriesOf(ws, sub.id, 'test');
      return l.length ? l : null;
    });
    expect(list[0]).toMatchObject({ status: 'simulated', attempt_count: 0, type: 'badge.awarded' });
    const d = await delivery(ws, list[0]!.id, 'test');
    expect(d.payload).toMatchObject({ type: 'badge.awarded', tenant: ws.slug });
    expect(d.attempts).toEqual([]);
    // Live data does not see it; and a simulated delivery cannot be replayed into a real POST.
    expect((await restClient(ws, 'live').get(`/v1/webhook-deliveries/${d.id}`)).status).toBe(404);
    const replay = await ws.api(`/v1/webhook-deliveries/${d.id}/replay`, { method: 'POST' });
    expect(replay.status).toBe(409);
    await quietFor(1_500);
    expect(rx.received).toHaveLength(0);
  });

  it('a * subscription receives every type, a typed one only its types', async () => {
    const ws = await app.workspace();
    const all = await buildReceiver();
    const badges = await buildReceiver();
    await buildSubscription(ws, { receiver: all, eventTypes: ['*'] });
    const typed = await buildSubscription(ws, {
      receiver: badges,
      eventTypes: ['badge.awarded', 'flow.completed'],
    });
    await emit(ws, 'points.changed');
    await emit(ws, 'badge.awarded');
    await emit(ws, 'message.sent');
    await eventually(async () => all.received.length === 3 && badges.received.length === 1);
    await quietFor(500);
    expect(all.received.map((r) => r.body.type).sort()).toEqual([
      'badge.awarded',
      'message.sent',
      'points.changed',
    ]);
    expect(badges.received.map((r) => r.body.type)).toEqual(['badge.awarded']);
    expect(badges.received[0]!.verifyError).toBeNull();
    // One result, one delivery per subscription, each with its own id.
    expect(all.received.find((r) => r.body.type === 'badge.awarded')!.body.id).not.toBe(
      badges.received[0]!.body.id,
    );
    const typedList = await ws.api(`/v1/webhook-deliveries?type=badge.awarded&subscription_id=${typed.id}`, {
      mode: 'live',
    });
    expect(typedList.body.data).toHaveLength(1);
  });

  it('custom headers are sent with every delivery and can never override ours', async () => {
    const ws = await app.workspace();
    const rx = await buildReceiver();
    const refused = await ws.api('/v1/webhook-subscriptions', {
      mode: 'live',
      body: { url: rx.url, event_types: ['*'], headers: { 'X-Svc-Signature': 't=1,v1=forged' } },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error.errors[0].field).toBe('headers.X-Svc-Signature');
    const sub = await buildSubscription(ws, {
      receiver: rx,
      headers: { 'X-Team': 'growth', Authorization: 'Bearer r3ceiver' },
    });
    // Even a row that somehow holds reserved names (written straight to the database) cannot win.
    await app.ctx.pool.query(
      `update webhook_subscriptions set headers = headers || '{"content-type":"text/plain","X-SVC-EVENT-TYPE":"forged","x-svc-delivery-id":"forged"}'::jsonb where id = $1`,
      [sub.id],
    );
    await emit(ws, 'flow.completed');
    const [got] = await eventually(async () => (rx.received.length ? rx.received : null));
    expect(got!.headers['x-team']).toBe('growth');
    expect(got!.headers.authorization).toBe('Bearer r3ceiver');
    expect(got!.headers['content-type']).toBe('application/json');
    expect(got!.headers['x-svc-event-type']).toBe('flow.completed');
    expect(got!.headers['x-svc-delivery-id']).toBe(got!.body.id);
    expect(got!.verifyError).toBeNull();
  });

  it('a rolled-back transaction emits nothing: no outbox row, no delivery, no POST', async () => {
    const ws = await app.workspace();
    const rx = await buildReceiver();
    const sub = await buildSubscription(ws, { receiver: rx });
    let emitted = '';
    await expect(
      withTransaction(app.ctx.pool, async (sql) => {
        emitted = await emitResult(sql, {
          workspaceId: ws.id,
          mode: 'live',
          type: 'reward.redeemed',
          data: { participant: { external_id: 'bob' } },
        });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(emitted).not.toBe('');
    const outbox = await app.ctx.pool.query('select 1 from outbox where id = $1', [emitted]);
    expect(outbox.rowCount).toBe(0);
    await quietFor(1_000);
    expect(await deliveriesOf(ws, sub.id)).toHaveLength(0);
    expect(rx.received).toHaveLength(0);
  });

  it('the egress guard is checked again at every send: a destination that became private is never called', async () => {
    const ws = await app.workspace();
    const ok = await buildReceiver();
    // 127.0.0.2 is loopback outside the test allow-list (127.0.0.1/32).
    const blocked = await buildReceiver({ host: '127.0.0.2' });
    const sub = await buildSubscription(ws, { receiver: ok });
    // As if the name now resolved elsewhere: the stored URL points at a refused address.
    await app.ctx.pool.query('update webhook_subscriptions set url = $2 where id = $1', [
      sub.id,
      blocked.url,
    ]);
    await emit(ws);
    const id = await onlyDelivery(ws, sub.id);
    const d = await eventually(async () => {
      const x = await delivery(ws, id);
      return x.attempt_count >= 1 ? x : null;
    });
    expect(d.attempts[0].status_code).toBeNull();
    expect(d.attempts[0].error).toMatch(/^egress blocked: 127\.0\.0\.2 is a loopback address/);
    expect(blocked.received).toHaveLength(0);
    expect(ok.received).toHaveLength(0);
  });

  it('emitResults fans a batch of results out in one statement: every result to every matching subscription', async () => {
    const ws = await app.workspace();
    const rx = await buildReceiver();
    const sub = await buildSubscription(ws, {
      receiver: rx,
      eventTypes: ['points.changed', 'badge.awarded'],
    });
    const ids = await withTransaction(app.ctx.pool, (sql) =>
      emitResults(sql, [
        {
          workspaceId: ws.id,
          mode: 'live',
          type: 'points.changed',
          data: { n: 1, note: 'ünïcødé "quoted"' },
        },
        { workspaceId: ws.id, mode: 'live', type: 'message.sent', data: { n: 2 } },
        { workspaceId: ws.id, mode: 'live', type: 'badge.awarded', data: { n: 3 } },
        { workspaceId: ws.id, mode: 'test', type: 'badge.awarded', data: { n: 4 } },
      ]),
    );
    expect(ids).toHaveLength(4);
    const { rows } = await app.ctx.pool.query('select id from outbox where id = any($1::uuid[])', [ids]);
    expect(rows).toHaveLength(4);
    await eventually(async () => rx.received.length === 2);
    await quietFor(300);
    expect(rx.received.map((r) => r.body.data as { n: number }).sort((a, b) => a.n - b.n)).toEqual([
      { n: 1, note: 'ünïcødé "quoted"' },
      { n: 3 },
    ]);
    expect(rx.received.every((r) => r.verifyError === null)).toBe(true);
    const list = await deliveriesOf(ws, sub.id);
    expect(list.map((d) => d.status).sort()).toEqual(['succeeded', 'succeeded']);
  });

  it('a real change delivers its result: a points adjustment → points.changed; a refused debit → nothing', async () => {
    const ws = await app.workspace();
    const rx = await buildReceiver();
    await buildSubscription(ws, { receiver: rx, eventTypes: ['points.changed'] });
    const credit = await ws.api('/v1/participants/alice/points', {
      mode: 'live',
      body: { points: 25, reason: 'welcome bonus' },
    });
    expect(credit.status, credit.text).toBe(201);
    const [got] = await eventually(async () => (rx.received.length ? rx.received : null));
    expect(got!.verifyError).toBeNull();
    expect(got!.body).toMatchObject({
      type: 'points.changed',
      tenant: ws.slug,
      data: { participant: { external_id: 'alice' }, entry: { id: credit.body.id, points: 25 }, balance: 25 },
    });
    // A debit beyond the balance is refused and rolled back: no result, no delivery.
    const debit = await ws.api('/v1/participants/alice/points', {
      mode: 'live',
      body: { points: -1000, reason: 'too much' },
    });
    expect(debit.status).toBe(422);
    await quietFor(1_000);
    expect(rx.received).toHaveLength(1);
  });

  it('sends many deliveries at once rather than one after another', async () => {
    const ws = await app.workspace();
    const rx = await buildReceiver();
    rx.respond(() => ({ status: 200, delayMs: 300 }));
    await buildSubscription(ws, { receiver: rx });
    await withTransaction(app.ctx.pool, async (sql) => {
      for (let i = 0; i < 40; i++)
        await emitResult(sql, { workspaceId: ws.id, mode: 'live', type: 'points.changed', data: { i } });
    });
    const started = Date.now();
    await eventually(async () => rx.received.length === 40, 10_000);
    // One at a time this would take 40 × 300 ms = 12 s.
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(rx.maxConcurrent()).toBeGreaterThanOrEqual(10);
    expect(rx.received.every((r) => r.verifyError === null)).toBe(true);
  });
});
