import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../src/db/tx.ts';
import { encryptSecret, standardWebhooksKey } from '../src/lib/secrets.ts';
import { uuidv7 } from '../src/lib/uuid7.ts';
import type { Mode } from '../src/services/keys/principal.ts';
import { emitResult, type ResultType } from '../src/services/outbox/emit.ts';
import { MAX_RETRY_AFTER_SECONDS, retryAfterSeconds } from '../src/services/webhooks/send.ts';
import { buildReceiver, buildSubscription, closeReceivers, restClient } from './factories.ts';
import { eventually, startTestApp, TEST_SECRET, type TestApp, type TestWorkspace } from './helpers.ts';
import type { Received, Receiver } from './webhooks-receiver.ts';
import { verifyWithStripe } from './webhooks-receiver.ts';

// docs/webhooks.md: Standard Webhooks headers, rotation, auto-disable, recover, Retry-After.
// A ladder of one-second rungs, a short timeout, a two-second failing streak disables, and one send
// at a time (so a recover's "oldest first" is the order the receiver sees).
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({
    env: {
      WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1,1,1,1',
      WEBHOOK_TIMEOUT_MS: '500',
      WEBHOOK_DISABLE_AFTER_SECONDS: '2',
      WEBHOOK_CONCURRENCY: '1',
    },
  });
});
afterAll(async () => {
  await app?.close();
  await closeReceivers();
});

function emit(
  ws: TestWorkspace,
  data: object = { balance: 1 },
  type: ResultType = 'points.changed',
  mode: Mode = 'live',
) {
  return withTransaction(app.ctx.pool, (sql) =>
    emitResult(sql, {
      workspaceId: ws.id,
      mode,
      type,
      data: { participant: { external_id: 'alice' }, ...data },
    }),
  );
}

const api = (ws: TestWorkspace, mode: Mode = 'live') => restClient(ws, mode);

async function deliveriesOf(ws: TestWorkspace, subscriptionId: string) {
  const res = await api(ws).get(`/v1/webhook-deliveries?subscription_id=${subscriptionId}`);
  expect(res.status, res.text).toBe(200);
  return res.body.data as { id: string; status: string; attempt_count: number; last_error: string | null }[];
}

const delivery = async (ws: TestWorkspace, id: string) =>
  (await api(ws).get(`/v1/webhook-deliveries/${id}`)).body;

const subscription = async (ws: TestWorkspace, id: string) => {
  const res = await api(ws).get(`/v1/webhook-subscriptions/${id}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
};

/** The requests a receiver got, once there are at least `n`. */
const received = (rx: Receiver, n = 1, timeoutMs?: number) =>
  eventually(async () => (rx.received.length >= n ? rx.received : null), timeoutMs);

/** The Standard Webhooks headers as the libraries take them. */
const standardHeaders = (r: Received) => ({
  'webhook-id': String(r.headers['webhook-id']),
  'webhook-timestamp': String(r.headers['webhook-timestamp']),
  'webhook-signature': String(r.headers['webhook-signature']),
});

/** Verified by the `standardwebhooks` package: the secret as given, or its raw-key option. */
const verifyStandard = (r: Received, secret: string, raw = false) =>
  (raw ? new Webhook(secret, { format: 'raw' }) : new Webhook(secret)).verify(r.rawBody, standardHeaders(r));

/** A deliberate window for proving that nothing (more) happens. */
const quietFor = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function dbSubscription(id: string) {
  const { rows } = await app.ctx.pool.query(
    `select previous_secrets, failing_since, last_success_at, disabled_reason, disabled_at, status
       from webhook_subscriptions where id = $1`,
    [id],
  );
  return rows[0];
}

describe('Standard Webhooks headers', () => {
  it('a delivery verifies with the standardwebhooks package given the generated secret as is, and with Stripe’s verifier', async () => {
    const ws = await app.workspace();
    const rx = await buildReceiver();
    rx.respond((_r, n) => (n === 0 ? { status: 500 } : { status: 200 }));
    const sub = await buildSubscription(ws, { receiver: rx });
    expect(sub.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await emit(ws, { balance: 5 });
    const [first, second] = await received(rx, 2);

    for (const r of [first!, second!]) {
      expect(verifyStandard(r, sub.secret)).toEqual(JSON.parse(r.rawBody.toString()));
      expect(r.verifyError).toBeNull(); // X-Svc-Signature, by stripe.webhooks.constructEvent
      expect(r.headers['webhook-id']).toBe(r.headers['x-svc-delivery-id']);
      expect(r.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
      const t = /^t=(\d+),v1=[0-9a-f]{64}$/.exec(String(r.headers['x-svc-signature']))![1];
      expect(r.headers['webhook-timestamp']).toBe(t);
      expect(Math.abs(Number(t) - Date.now() / 1000)).toBeLessThan(5);
    }
    // As docs/webhooks.md#node does it: the raw body and node:http's request headers, as they came.
    expect(
      new Webhook(sub.secret).verify(first!.rawBody, first!.headers as Record<string, string>),
    ).toMatchObject({
      type: 'points.changed',
      data: { balance: 5 },
    });
    // The same id on every attempt (receivers dedupe on it), a fresh timestamp per attempt.
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(second!.rawBody.equals(first!.rawBody)).toBe(true);
    expect(Number(second!.headers['webhook-timestamp'])).toBeGreaterThanOrEqual(
      Number(first!.headers['webhook-timestamp']),
    );

    // The library refuses a changed body, another secret and another id.
    const tampered = {
      ...first!,
      rawBody: Buffer.from(first!.rawBody.toString().replace('"balance":5', '"balance":6')),
    };
    expect(() => verifyStandard(tampered, sub.secret)).toThrow(/signature/i);
    expect(() => verifyStandard(first!, `whsec_${Buffer.alloc(32, 1).toString('base64')}`)).toThrow(
      /signature/i,
    );
    expect(() =>
      new Webhook(sub.secret).verify(first!.rawBody, { ...standardHeaders(first!), 'webhook-id': uuidv7() }),
    ).toThrow(/signature/i);
  });

  it('a caller-chosen secret that is not whsec_<base64> is keyed by its UTF-8 bytes: the raw-key option verifies it', async () => {
    const ws = await app.workspace();
    const rx = await buildReceiver();
    const secret = 'my-own_secret.123';
    const created = await api(ws).post('/v1/webhook-subscriptions', {
      url: rx.url,
      event_types: ['*'],
      secret,
    });
    expect(created.status, created.text).toBe(201);
    rx.setSecret(secret);
    await emit(ws);
    const [r] = await received(rx);
    expect(verifyStandard(r!, secret, true)).toMatchObject({ type: 'points.changed' });
    expect(r!.verifyError).toBeNull();
    expect(() => verifyWithStripe(r!.rawBody, String(r!.headers['x-svc-signature']), secret)).not.toThrow();
  });

  it('a caller-chosen whsec_<base64> secret, and an old-style generated one, verify with the library as given', async () => {
    const ws = await app.workspace();
    const rx1 = await buildReceiver();
    const chosen = `whsec_${Buffer.from('twenty-four bytes of key').toString('base64')}`;
    await api(ws).post('/v1/webhook-subscriptions', { url: rx1.url, event_types: ['*'], secret: chosen });
    // Before standard base64, secrets were whsec_ + 32 letters and digits; they keep verifying.
    const rx2 = await buildReceiver();
    const legacy = 'whsec_Q8dLw2VxZk7RfT1mN4pY9sB3hJ6cE0aU';
    await app.ctx.pool.query(
      `insert into webhook_subscriptions (id, workspace_id, mode, url, event_types, secret_enc)
       values ($1, $2, 'live', $3, '["*"]', $4)`,
      [uuidv7(), ws.id, rx2.url, encryptSecret(legacy, TEST_SECRET)],
    );
    rx1.setSecret(chosen);
    rx2.setSecret(legacy);
    await emit(ws);
    const [a] = await received(rx1);
    const [b] = await received(rx2);
    expect(verifyStandard(a!, chosen)).toMatchObject({ type: 'points.changed' });
    expect(verifyStandard(b!, legacy)).toMatchObject({ type: 'points.changed' });
    expect(a!.verifyError).toBeNull();
    expect(b!.verifyError).toBeNull();
  });

  it('the key rule: whsec_ + standard base64 decodes; anything else is its UTF-8 bytes', () => {
    const key = Buffer.from('0123456789abcdef0123456789abcdef');
    expect(standardWebhooksKey(`whsec_${key.toString('base64')}`)).toEqual(key);
    expect(standardWebhooksKey('whsec_YWJj')).toEqual(Buffer.from('abc'));
    for (const s of [
      'whsec_',
      'whsec_not base64',
      'whsec_abc',
      'whsec_YWJj_-',
      'whsec_YW=j',
      'plain-secret',
      'YWJj',
    ]) {
      expect(standardWebhooksKey(s), s).toEqual(Buffer.from(s, 'utf8'));
    }
  });

  it('POST /test carries the same headers, verifiable by the library', async () => {
    const ws = await app.workspace();
    const rx = await buildReceiver();
    const sub = await buildSubscription(ws, { receiver: rx });
    const res = await api(ws).post(`/v1/webhook-subscriptions/${sub.id}/test`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.ok).toBe(true);
    const [r] = rx.received;
    expect(verifyStandard(r!, sub.secret)).toMatchObject({ type: 'webhook.test' });
    expect(r!.headers['webhook-id']).toBe(r!.headers['x-svc-delivery-id']);
    expect(r!.verifyError).toBeNull();
  });

  it('custom headers cannot set webhook-id, webhook-timestamp or webhook-signature', async () => {
    const ws = await app.workspace();
    for (const name of ['webhook-id', 'Webhook-Timestamp', 'WEBHOOK-SIGNATURE']) {
      const res = await api(ws).post('/v1/webhook-subscriptions', {
        url: 'http://127.0.0.1:9/',
        event_types: ['*'],
        headers: { [name]: 'x' },
      });
      expect(res.status, name).toBe(422);
      expect(res.body.error.errors.map((e: { field: string }) => e.field)).toContain(`headers.${name}`);
    }
  });
});

describe('secret rotation', () => {
  it('signs with the new and the old secret during the grace, new first, in both headers', async () => {
    const ws = await app.workspace();
    const rx = await buildReceiver();
    const sub = await buildSubscription(ws, { receiver: rx });
    const before = Date.now();
    const rotated = await api(ws).post(`/v1/webhook-subscriptions/${sub.id}/rotate-secret`, {});
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(rotated.body.secret).not.toBe(sub.secret);
    const expires = Date.parse(rotated.body.previous_expires_at);
    expect(expires).toBeGreaterThanOrEqual(before + 86_400_000 - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 86_400_000 + 1000);

    await emit(ws);
    const [r] = await received(rx);
    const sigs = String(r!.headers['webhook-signature']).split(' ');
    expect(sigs).toHaveLength(2);
    const svc = String(r!.headers['x-svc-signature']);
    expect(svc).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    // Each secret alone verifies; the new one's signature comes first.
    verifyStandard(r!, rotated.body.secret);
    verifyStandard(r!, sub.secret);
    expect(
      new Webhook(rotated.body.secret).sign(
        String(r!.headers['webhook-id']),
        new Date(Number(r!.headers['webhook-timestamp']) * 1000),
        r!.rawBody.toString(),
      ),
    ).toBe(sigs[0]);
    verifyWithStripe(r!.rawBody, svc, rotated.body.secret);
    verifyWithStripe(r!.rawBody, svc, sub.secret);

    // The old secret stays encrypted at rest.
    const row = await dbSubscription(sub.id);
    expect(row.previous_secrets).toHaveLength(1);
    expect(row.previous_secrets[0].secret_enc).toMatch(/^v1\./);
    expect(JSON.stringify(row.previous_secrets)).not.toContain(sub.secret.slice(6));
    // The subscription never shows a secret.
    expect(JSON.stringify(await subscription(ws, sub.id))).not.toContain('whsec_');
  });

  it('grace 0 stops the replaced secret at once; a caller-chosen secret is taken; at most 5 old secrets are kept', async () => {
    const ws = await app.workspace();
    const rx = await buildReceiver();
    const sub = await buildSubscription(ws, { receiver: rx });
    const a = await api(ws).post(`/v1/webhook-subscriptions/${sub.id}/rotate-secret`, { grace_seconds: 600 });
    const b = await api(ws).post(`/v1/webhook-subscriptions/${sub.id}/rotate-secret`, {
      secret: 'caller-chosen-secret-b',
      grace_seconds: 0,
    });
    expect(b.status, b.text).toBe(200);
    expect(b.body.secret).toBe('caller-chosen-secret-b');
    expect(Math.abs(Date.parse(b.body.previous_expires_at) - Date.now())).toBeLessThan(5000);
    await emit(ws);
    const [r] = await received(rx);
    // b (current), then the original secret (still in a's grace); a itself stopped at once.
    expect(String(r!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    verifyStandard(r!, 'caller-chosen-secret-b', true);
    verifyStandard(r!, sub.secret);
    expect(() => verifyStandard(r!, a.body.secret)).toThrow(/signature/i);
    expect(() =>
      verifyWithStripe(r!.rawBody, String(r!.headers['x-svc-signature']), a.body.secret),
    ).toThrow();

    const secrets = [sub.secret, 'caller-chosen-secret-b'];
    for (let i = 0; i < 6; i++) {
      const res = await api(ws).post(`/v1/webhook-subscriptions/${sub.id}/rotate-secret`, {});
      expect(res.status).toBe(200);
      secrets.push(res.body.secret);
    }
    expect((await dbSubscription(sub.id)).previous_secrets).toHaveLength(5);
    await emit(ws);
    const [, r2] = await received(rx, 2);
    expect(String(r2!.headers['webhook-signature']).split(' ')).toHaveLength(6);
    // The newest six sign (current + 5 old); the oldest were dropped.
    for (const s of secrets.slice(-6)) verifyStandard(r2!, s);
    expect(() => verifyStandard(r2!, sub.secret)).toThrow(/signature/i);
  });

  it('an expired old secret no longer signs, and is dropped from storage', async () => {
    const ws = await app.workspace();
    const rx = await buildReceiver();
    const sub = await buildSubscription(ws, { receiver: rx });
    const rotated = await api(ws).post(`/v1/webhook-subscriptions/${sub.id}/rotate-secret`, {
      grace_seconds: 1,
    });
    expect((await dbSubscription(sub.id)).previous_secrets).toHaveLength(1);
    await quietFor(1_100);
    await emit(ws);
    const [r] = await received(rx);
    expect(String(r!.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(String(r!.headers['x-svc-signature'])).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    verifyStandard(r!, rotated.body.secret);
    expect(() => verifyStandard(r!, sub.secret)).toThrow(/signature/i);
    // Dropped once an attempt is recorded (and by the next rotation).
    await eventually(async () => (await dbSubscription(sub.id)).previous_secrets.length === 0);
  });

  it('refuses a grace outside 0–604800 s, a bad secret and unknown fields (422); an unknown subscription is 404', async () => {
    const ws = await app.workspace();
    const sub = await buildSubscription(ws);
    const cases: [unknown, string][] = [
      [{ grace_seconds: 604_801 }, 'grace_seconds'],
      [{ grace_seconds: -1 }, 'grace_seconds'],
      [{ grace_seconds: 1.5 }, 'grace_seconds'],
      [{ secret: 'short' }, 'secret'],
      [{ secret: 'has a space in it' }, 'secret'],
      [{ colour: 'red' }, '(body)'],
    ];
    for (const [body, field] of cases) {
      const res = await api(ws).post(`/v1/webhook-subscriptions/${sub.id}/rotate-secret`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    const week = await api(ws).post(`/v1/webhook-subscriptions/${sub.id}/rotate-secret`, {
      grace_seconds: 604_800,
    });
    expect(week.status).toBe(200);
    const unknown = await api(ws).post(`/v1/webhook-subscriptions/${uuidv7()}/rotate-secret`, {});
    expect(unknown.status).toBe(404);
    const other = await app.workspace();
    expect((await api(other).post(`/v1/webhook-subscriptions/${sub.id}/rotate-secret`, {})).status).toBe(404);
  });
});

describe('auto-disable', () => {
  it('disables a subscription failing for WEBHOOK_DISABLE_AFTER_SECONDS: pending deliveries die, the others hear webhook.disabled; PATCH active re-enables', async () => {
    const ws = await app.workspace();
    const failing = await buildReceiver();
    failing.respond(() => ({ status: 500, body: 'down' }));
    const watcher = await buildReceiver();
    const other = await app.workspace();
    const otherRx = await buildReceiver();
    const testRx = await buildReceiver();
    const sub = await buildSubscription(ws, { receiver: failing, eventTypes: ['points.changed'] });
    await buildSubscription(ws, { receiver: watcher, eventTypes: ['webhook.disabled'] });
    await buildSubscription(ws, { receiver: testRx, mode: 'test' });
    await buildSubscription(other, { receiver: otherRx });
    await emit(ws, { balance: 1 });
    await emit(ws, { balance: 2 });

    const disabled = await eventually(async () => {
      const s = await subscription(ws, sub.id);
      return s.status === 'disabled' ? s : null;
    }, 15_000);
    expect(disabled.disabled_reason).toBe('failing');
    const row = await dbSubscription(sub.id);
    expect(row.failing_since).not.toBeNull();
    // Disabled once the streak was 2 s old, not before, and by the check after the first attempt
    // that arrived when it was: how late that attempt came is the machine's load, not the rule's.
    const since = row.failing_since.getTime();
    const disabledAt = Date.parse(disabled.disabled_at);
    expect(disabledAt - since).toBeGreaterThanOrEqual(2_000);
    // (An attempt that arrived just before 2 s may be the one whose check disabled it.)
    const due = failing.received.find((r) => r.at >= since + 2_000) ?? failing.received.at(-1);
    expect(disabledAt).toBeLessThan(due!.at + 2_500);

    const list = await deliveriesOf(ws, sub.id);
    expect(list).toHaveLength(2);
    for (const d of list) {
      expect(d.status).toBe('dead');
      expect(d.last_error).toMatch(/disabled/);
    }
    const [notice] = await received(watcher);
    expect(notice!.verifyError).toBeNull();
    expect(notice!.body).toMatchObject({
      type: 'webhook.disabled',
      tenant: ws.slug,
      data: { subscription: { id: sub.id, url: sub.url }, reason: 'failing' },
    });
    const attempts = failing.received.length;
    await emit(ws, { balance: 3 });
    await quietFor(1_500);
    // Never to the disabled one, nor to another workspace; the test-mode subscription gets no POST.
    expect(failing.received).toHaveLength(attempts);
    expect(failing.received.some((r) => r.body.type === 'webhook.disabled')).toBe(false);
    expect(otherRx.received).toHaveLength(0);
    expect(testRx.received).toHaveLength(0);
    expect(watcher.received).toHaveLength(1);
    // No delivery was made for the result emitted while it was disabled.
    expect(await deliveriesOf(ws, sub.id)).toHaveLength(2);

    // PATCH cannot set `disabled`; `active` re-enables with a clean record.
    const bad = await api(ws).patch(`/v1/webhook-subscriptions/${sub.id}`, { status: 'disabled' });
    expect(bad.status).toBe(422);
    expect(bad.body.error.errors[0].field).toBe('status');
    const back = await api(ws).patch(`/v1/webhook-subscriptions/${sub.id}`, { status: 'active' });
    expect(back.status, back.text).toBe(200);
    expect(back.body).toMatchObject({ status: 'active', disabled_reason: null, disabled_at: null });
    const clean = await dbSubscription(sub.id);
    expect(clean.failing_since).toBeNull();
    expect(clean.disabled_reason).toBeNull();

    // Recover what died, now that the receiver answers: oldest first, attempt counts reset.
    failing.respond(() => ({ status: 200 }));
    const before = failing.received.length;
    const recovered = await api(ws).post(`/v1/webhook-subscriptions/${sub.id}/recover`, {
      since: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(recovered.status, recovered.text).toBe(202);
    expect(recovered.body).toEqual({ recovered: 2 });
    await received(failing, before + 2);
    expect(failing.received.slice(before).map((r) => (r.body.data as { balance: number }).balance)).toEqual([
      1, 2,
    ]);
    await eventually(async () => {
      const l = await deliveriesOf(ws, sub.id);
      return l.every((d) => d.status === 'succeeded' && d.attempt_count === 1);
    });
    const healthy = await dbSubscription(sub.id);
    expect(healthy.last_success_at).not.toBeNull();
    expect(healthy.failing_since).toBeNull();
  }, 30_000);

  it('a 410 Gone disables at once, with reason gone', async () => {
    const ws = await app.workspace();
    const gone = await buildReceiver();
    gone.respond(() => ({ status: 410, body: 'gone' }));
    const watcher = await buildReceiver();
    const sub = await buildSubscription(ws, { receiver: gone, eventTypes: ['points.changed'] });
    await buildSubscription(ws, { receiver: watcher, eventTypes: ['*'] });
    await emit(ws);
    const s = await eventually(async () => {
      const x = await subscription(ws, sub.id);
      return x.status === 'disabled' ? x : null;
    });
    expect(s.disabled_reason).toBe('gone');
    expect(gone.received).toHaveLength(1);
    const [d] = await deliveriesOf(ws, sub.id);
    expect(d).toMatchObject({ status: 'dead', attempt_count: 1 });
    const notices = await eventually(async () => {
      const n = watcher.received.filter((r) => r.body.type === 'webhook.disabled');
      return n.length ? n : null;
    });
    expect(notices[0]!.body.data).toEqual({ subscription: { id: sub.id, url: sub.url }, reason: 'gone' });
    // A disabled subscription can still be tested (the answer is reported, nothing is stored).
    const test = await api(ws).post(`/v1/webhook-subscriptions/${sub.id}/test`);
    expect(test.body).toMatchObject({ ok: false, status_code: 410 });
  });

  it('a success resets the streak: failures interleaved with successes never disable; once successes stop, it is disabled', async () => {
    const ws = await app.workspace();
    const rx = await buildReceiver();
    // Results with balance 0 always fail; the others succeed.
    rx.respond((r) =>
      (r.body.data as { balance: number }).balance === 0 ? { status: 500 } : { status: 200 },
    );
    const sub = await buildSubscription(ws, { receiver: rx });
    await emit(ws, { balance: 0 });
    const until = Date.now() + 3_500;
    for (let i = 1; Date.now() < until; i++) {
      await emit(ws, { balance: i });
      await quietFor(400);
    }
    expect((await subscription(ws, sub.id)).status).toBe('active');
    expect((await dbSubscription(sub.id)).last_success_at).not.toBeNull();
    const s = await eventually(async () => {
      const x = await subscription(ws, sub.id);
      return x.status === 'disabled' ? x : null;
    }, 10_000);
    expect(s.disabled_reason).toBe('failing');
  }, 30_000);
});

describe('recover', () => {
  /** A subscription with three dead deliveries created 20, 3 and 1 days ago (balances 20, 3, 1). */
  async function withDeadDeliveries() {
    const ws = await app.workspace();
    const rx = await buildReceiver();
    const sub = await buildSubscription(ws, { receiver: rx });
    const ids: string[] = [];
    for (const days of [20, 3, 1]) {
      // Dead and backdated in the transaction that makes it: it is never sent.
      const id = await withTransaction(app.ctx.pool, async (sql) => {
        await emitResult(sql, {
          workspaceId: ws.id,
          mode: 'live',
          type: 'points.changed',
          data: { participant: { external_id: 'alice' }, balance: days },
        });
        const { rows } = await sql.query<{ id: string }>(
          `update webhook_deliveries set status = 'dead', next_attempt_at = null, last_error = 'gave up',
             created_at = now() - make_interval(days => $2)
           where subscription_id = $1 and status = 'pending' returning id`,
          [sub.id, days],
        );
        return rows[0]!.id;
      });
      ids.push(id);
    }
    return { ws, rx, sub, ids };
  }

  it('recovers the dead deliveries created in [since, until], oldest first; 14 days back at most', async () => {
    const { ws, rx, sub, ids } = await withDeadDeliveries();
    const day = 86_400_000;
    const tooOld = await api(ws).post(`/v1/webhook-subscriptions/${sub.id}/recover`, {
      since: new Date(Date.now() - 15 * day).toISOString(),
    });
    expect(tooOld.status).toBe(422);
    expect(tooOld.body.error.errors[0].field).toBe('since');
    const backwards = await api(ws).post(`/v1/webhook-subscriptions/${sub.id}/recover`, {
      since: new Date(Date.now() - 2 * day).toISOString(),
      until: new Date(Date.now() - 4 * day).toISOString(),
    });
    expect(backwards.status).toBe(422);
    expect(backwards.body.error.errors[0].field).toBe('until');
    for (const body of [{}, { since: 'yesterday' }, { since: new Date().toISOString(), colour: 1 }]) {
      expect((await api(ws).post(`/v1/webhook-subscriptions/${sub.id}/recover`, body)).status).toBe(422);
    }

    // [4 days ago, 2 days ago]: only the one of 3 days ago.
    const one = await api(ws).post(`/v1/webhook-subscriptions/${sub.id}/recover`, {
      since: new Date(Date.now() - 4 * day).toISOString(),
      until: new Date(Date.now() - 2 * day).toISOString(),
    });
    expect(one.status, one.text).toBe(202);
    expect(one.body).toEqual({ recovered: 1 });
    await received(rx, 1);
    expect(rx.received[0]!.headers['webhook-id']).toBe(ids[1]);
    await eventually(async () => (await delivery(ws, ids[1]!)).status === 'succeeded');

    // Since 14 days ago: the remaining one of 1 day ago (the 20-day-old one stays dead; succeeded ones stay).
    const rest = await api(ws).post(`/v1/webhook-subscriptions/${sub.id}/recover`, {
      since: new Date(Date.now() - 14 * day + 60_000).toISOString(),
    });
    expect(rest.body).toEqual({ recovered: 1 });
    await received(rx, 2);
    expect(rx.received[1]!.headers['webhook-id']).toBe(ids[2]);
    const d = await eventually(async () => {
      const x = await delivery(ws, ids[2]!);
      return x.status === 'succeeded' ? x : null;
    });
    expect(d.attempt_count).toBe(1);
    expect((await delivery(ws, ids[0]!)).status).toBe('dead');
  });

  it('sends recovered deliveries oldest first', async () => {
    const { ws, rx, sub, ids } = await withDeadDeliveries();
    await app.ctx.pool.query(
      `update webhook_deliveries set created_at = now() - interval '1 hour' where id = $1`,
      [ids[0]],
    );
    const res = await api(ws).post(`/v1/webhook-subscriptions/${sub.id}/recover`, {
      since: new Date(Date.now() - 13 * 86_400_000).toISOString(),
    });
    expect(res.body).toEqual({ recovered: 3 });
    await received(rx, 3);
    // Created 3 days, 1 day and 1 hour ago.
    expect(rx.received.map((r) => r.headers['webhook-id'])).toEqual([ids[1], ids[2], ids[0]]);
  });

  it('a paused or disabled subscription is 409 invalid_state until it is active again; unknown is 404', async () => {
    const { ws, sub } = await withDeadDeliveries();
    const since = new Date(Date.now() - 86_400_000 * 5).toISOString();
    await api(ws).patch(`/v1/webhook-subscriptions/${sub.id}`, { status: 'paused' });
    const paused = await api(ws).post(`/v1/webhook-subscriptions/${sub.id}/recover`, { since });
    expect(paused.status).toBe(409);
    expect(paused.body.error.type).toBe('invalid_state');
    await app.ctx.pool.query(
      `update webhook_subscriptions set status = 'disabled', disabled_reason = 'gone', disabled_at = now() where id = $1`,
      [sub.id],
    );
    const disabled = await api(ws).post(`/v1/webhook-subscriptions/${sub.id}/recover`, { since });
    expect(disabled.status).toBe(409);
    expect(disabled.body.error.message).toMatch(/disabled/);
    expect((await subscription(ws, sub.id)).disabled_reason).toBe('gone');
    await api(ws).patch(`/v1/webhook-subscriptions/${sub.id}`, { status: 'active' });
    const ok = await api(ws).post(`/v1/webhook-subscriptions/${sub.id}/recover`, { since });
    expect(ok.status).toBe(202);
    expect(ok.body.recovered).toBe(2);
    expect((await api(ws).post(`/v1/webhook-subscriptions/${uuidv7()}/recover`, { since })).status).toBe(404);
  });
});

describe('Retry-After', () => {
  it('a 429 with Retry-After in seconds moves the next attempt past the ladder’s rung', async () => {
    const ws = await app.workspace();
    const rx = await buildReceiver();
    rx.respond((_r, n) => (n === 0 ? { status: 429, headers: { 'Retry-After': '3' } } : { status: 200 }));
    await buildSubscription(ws, { receiver: rx });
    await emit(ws);
    const [first, second] = await received(rx, 2, 15_000);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(2_900);
  });

  it('a 503 with an HTTP date waits until then; a 500 with Retry-After keeps the ladder', async () => {
    const ws = await app.workspace();
    const rx = await buildReceiver();
    const sub = await buildSubscription(ws, { receiver: rx, eventTypes: ['points.changed'] });
    rx.respond((_r, n) => {
      if (n > 0) return { status: 200 };
      const at = new Date(Date.now() + 4_000).toUTCString();
      return { status: 503, headers: { 'Retry-After': at } };
    });
    await emit(ws);
    const [first, second] = await received(rx, 2, 15_000);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(2_900);

    const rx2 = await buildReceiver();
    rx2.respond((_r, n) => (n === 0 ? { status: 500, headers: { 'Retry-After': '30' } } : { status: 200 }));
    await buildSubscription(ws, { receiver: rx2, eventTypes: ['badge.awarded'] });
    await emit(ws, {}, 'badge.awarded');
    // The ladder's 1 s rung, however late a loaded machine takes it: far from the header's 30 s.
    const [a, b] = await received(rx2, 2, 20_000);
    expect(b!.at - a!.at).toBeLessThan(15_000);
    expect(sub).toBeTruthy();
  });

  it('a Retry-After beyond a day is capped at 24 h; one shorter than the rung never shortens it', async () => {
    const ws = await app.workspace();
    const rx = await buildReceiver();
    rx.respond(() => ({ status: 429, headers: { 'Retry-After': '9999999' } }));
    const sub = await buildSubscription(ws, { receiver: rx });
    await emit(ws);
    const [d] = await eventually(async () => {
      const l = await deliveriesOf(ws, sub.id);
      return l[0]?.attempt_count === 1 ? l : null;
    });
    const due = Date.parse((await delivery(ws, d!.id)).next_attempt_at) - Date.now();
    expect(due).toBeGreaterThan(86_400_000 - 60_000);
    expect(due).toBeLessThanOrEqual(86_400_000);
  });

  it('parses delta-seconds and HTTP dates, only for 429 and 503', () => {
    const now = Date.parse('2026-11-28T12:00:00Z');
    expect(retryAfterSeconds(429, '120', now)).toBe(120);
    expect(retryAfterSeconds(503, ' 7 ', now)).toBe(7);
    expect(retryAfterSeconds(503, 'Sat, 28 Nov 2026 12:01:30 GMT', now)).toBe(90);
    expect(retryAfterSeconds(429, 'Sat, 28 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(retryAfterSeconds(429, String(10 * 86_400), now)).toBe(MAX_RETRY_AFTER_SECONDS);
    expect(retryAfterSeconds(500, '120', now)).toBeNull();
    expect(retryAfterSeconds(429, undefined, now)).toBeNull();
    for (const junk of ['soon', '-5', '1.5', '', '2026-11-28'])
      expect(retryAfterSeconds(429, junk, now), junk).toBeNull();
  });
});
