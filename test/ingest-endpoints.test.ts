import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signPayload } from '../src/lib/secrets.ts';
import { request, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

let app: TestApp;
let ws: TestWorkspace;

beforeAll(async () => {
  app = await startTestApp();
  ws = await app.workspace();
});
afterAll(() => app?.close());

const create = async (body: unknown, mode: 'test' | 'live' = 'test') => {
  const res = await ws.api('/v1/ingest-endpoints', { body, mode });
  expect(res.status).toBe(201);
  return res.body as {
    id: string;
    key: string;
    secret: string;
    mode: string;
    default_event_type: string | null;
  };
};

const post = (key: string, raw: string, signature?: string, headers: Record<string, string> = {}) =>
  request(app.url, `/v1/ingest/${key}`, {
    method: 'POST',
    raw,
    headers: {
      'content-type': 'application/json',
      ...(signature !== undefined && { 'x-signature': signature }),
      ...headers,
    },
  });

describe('ingest endpoints (CONTRACT 6)', () => {
  it('creates an endpoint with an ing_ key and a secret shown only once', async () => {
    const ep = await create({ name: 'Shopify', default_event_type: 'order.paid' });
    expect(ep.key).toMatch(/^ing_[A-Za-z0-9]{32}$/);
    expect(ep.secret).toMatch(/^whsec_/);
    expect(ep).toMatchObject({
      name: 'Shopify',
      default_event_type: 'order.paid',
      mode: 'test',
      created_at: expect.any(String),
    });
    const shown = await ws.api(`/v1/ingest-endpoints/${ep.id}`);
    expect(shown.status).toBe(200);
    expect(shown.body.secret).toBeUndefined();
    const list = await ws.api('/v1/ingest-endpoints');
    expect(list.body.data.map((e: { id: string }) => e.id)).toContain(ep.id);
    expect(list.body.data.every((e: object) => !('secret' in e))).toBe(true);
    // Stored encrypted, never in plaintext.
    const { rows } = await app.ctx.pool.query('select secret_enc from ingest_endpoints where id = $1', [
      ep.id,
    ]);
    expect(rows[0].secret_enc).not.toContain(ep.secret);
  });

  it('takes a signed event through the same pipeline, with the default type and its source', async () => {
    const ep = await create({ name: 'hooks', default_event_type: 'order.paid' });
    const raw = JSON.stringify({
      participant: { external_id: 'ing-1', email: 'i@x.io' },
      payload: { amount: 3 },
    });
    const res = await post(ep.key, raw, signPayload(ep.secret, raw));
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ event_id: expect.any(String), status: 'received' });
    const shown = await ws.api(`/v1/events/${res.body.event_id}`);
    expect(shown.body).toMatchObject({
      event_type: 'order.paid',
      source: `ingest:${ep.id}`,
      is_sandbox: true,
    });
    // An explicit type wins over the default; idempotency works the same as on /v1/events.
    const raw2 = JSON.stringify({ type: 'order.refunded', participant: 'ing-1', idempotency_key: 'k1' });
    const a = await post(ep.key, raw2, signPayload(ep.secret, raw2));
    const b = await post(ep.key, raw2, signPayload(ep.secret, raw2));
    expect((await ws.api(`/v1/events/${a.body.event_id}`)).body.event_type).toBe('order.refunded');
    expect(b.body.event_id).toBe(a.body.event_id);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
  });

  it('quarantines an event without a type when the endpoint has no default', async () => {
    const ep = await create({ name: 'no default' });
    const raw = JSON.stringify({ participant: 'ing-2' });
    const res = await post(ep.key, raw, signPayload(ep.secret, raw));
    expect(res.body.status).toBe('quarantined');
  });

  it('belongs to the mode of the key that created it', async () => {
    const ep = await create({ name: 'live one', default_event_type: 'x.y' }, 'live');
    expect(ep.mode).toBe('live');
    const raw = JSON.stringify({ participant: 'ing-live' });
    const res = await post(ep.key, raw, signPayload(ep.secret, raw));
    expect((await ws.api(`/v1/events/${res.body.event_id}`, { mode: 'live' })).status).toBe(200);
    expect((await ws.api(`/v1/events/${res.body.event_id}`, { mode: 'test' })).status).toBe(404);
  });

  it('answers 401 for a missing, malformed, stale or wrong signature and for unknown keys', async () => {
    const ep = await create({ name: 'strict', default_event_type: 's.t' });
    const raw = JSON.stringify({ participant: 'ing-3' });
    const now = Math.floor(Date.now() / 1000);
    const cases: [string, string | undefined][] = [
      [ep.key, undefined],
      [ep.key, 'garbage'],
      [ep.key, `t=${now},v1=xyz`],
      [ep.key, signPayload(ep.secret, raw, now - 301)],
      [ep.key, signPayload(ep.secret, raw, now + 360)],
      [ep.key, signPayload('whsec_wrong', raw)],
      [ep.key, signPayload(ep.secret, `${raw} `)],
      [`ing_${'A'.repeat(32)}`, signPayload(ep.secret, raw)],
      ['not-a-key', signPayload(ep.secret, raw)],
    ];
    for (const [key, sig] of cases) {
      const res = await post(key, raw, sig);
      expect(res.status, `${key} ${sig}`).toBe(401);
      expect(res.body.error.type).toBe('authentication_error');
      expect(res.headers.get('x-request-id')).toBeTruthy();
    }
    // Inside the window is fine, and the hmac is over "<t>.<raw body>" exactly.
    const t = now - 200;
    const mac = createHmac('sha256', ep.secret).update(`${t}.${raw}`).digest('hex');
    expect((await post(ep.key, raw, `t=${t},v1=${mac}`)).status).toBe(202);
  });

  it('stops accepting events at once when deleted', async () => {
    const ep = await create({ name: 'doomed', default_event_type: 'd.d' });
    const raw = JSON.stringify({ participant: 'ing-4' });
    expect((await post(ep.key, raw, signPayload(ep.secret, raw))).status).toBe(202);
    const del = await ws.api(`/v1/ingest-endpoints/${ep.id}`, { method: 'DELETE' });
    expect(del.body).toEqual({ id: ep.id, deleted: true });
    expect((await post(ep.key, raw, signPayload(ep.secret, raw))).status).toBe(401);
    expect((await ws.api(`/v1/ingest-endpoints/${ep.id}`)).status).toBe(404);
  });

  it('validates its input and hides other workspaces’ endpoints', async () => {
    const bad = await ws.api('/v1/ingest-endpoints', { body: { name: '', default_event_type: 'has space' } });
    expect(bad.status).toBe(422);
    expect(bad.body.error.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'default_event_type',
      'name',
    ]);
    const ep = await create({ name: 'mine' });
    const other = await app.workspace();
    expect((await other.api(`/v1/ingest-endpoints/${ep.id}`)).status).toBe(404);
    expect((await other.api(`/v1/ingest-endpoints/${ep.id}`, { method: 'DELETE' })).status).toBe(404);
  });
});
