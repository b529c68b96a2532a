import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

let app: TestApp;
let ws: TestWorkspace;
const accepted: string[] = [];

beforeAll(async () => {
  app = await startTestApp();
  ws = await app.workspace();
});
afterAll(() => app?.close());

const raw = (body: string | Buffer, headers: Record<string, string> = {}) =>
  request(app.url, '/v1/events', {
    method: 'POST',
    raw: body,
    key: ws.keys.test,
    headers: { 'content-type': 'application/json', ...headers },
  });

const ok = async (body: unknown) => {
  const res = await ws.api('/v1/events', { body });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  accepted.push(res.body.event_id);
  return res;
};

const rejected = async (body: unknown, status: number, type: string, field?: string) => {
  const res = await ws.api('/v1/events', { body });
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error.type).toBe(type);
  expect(res.body.error.message).toEqual(expect.any(String));
  if (field) expect(res.body.error.errors.map((e: { field: string }) => e.field)).toContain(field);
  expect(res.text).not.toMatch(/at .*\.ts:\d+/); // no stack trace
  return res;
};

describe('bad input on the ingest routes', () => {
  it('rejects wrong types with 422 naming the field', async () => {
    await rejected({ event_type: 42, participant: 'x' }, 422, 'validation_error', 'event_type');
    await rejected({ type: ['a'], participant: 'x' }, 422, 'validation_error', 'type');
    await rejected({ type: 'a.b', participant: 7 }, 422, 'validation_error', 'participant');
    await rejected({ type: 'a.b', participant: { external_id: 7 } }, 422, 'validation_error', 'participant');
    await rejected(
      { type: 'a.b', participant: 'x', payload: 'not an object' },
      422,
      'validation_error',
      'payload',
    );
    await rejected({ type: 'a.b', participant: 'x', payload: [1, 2] }, 422, 'validation_error', 'payload');
    await rejected(
      { type: 'a.b', participant: 'x', idempotency_key: 5 },
      422,
      'validation_error',
      'idempotency_key',
    );
    await rejected(
      { type: 'a.b', participant: { external_id: 'x', email: { $ne: null } } },
      422,
      'validation_error',
    );
  });

  it('rejects unknown fields instead of silently dropping them', async () => {
    await rejected({ type: 'a.b', participant: 'x', extra: 1 }, 422, 'validation_error');
    await rejected(
      { type: 'a.b', participant: { external_id: 'x', is_admin: true } },
      422,
      'validation_error',
    );
  });

  it('rejects event types that are not dot-notation keys', async () => {
    await rejected({ type: 'has spaces', participant: 'x' }, 422, 'validation_error', 'type');
    await rejected({ type: 'x'.repeat(129), participant: 'x' }, 422, 'validation_error', 'type');
    await ok({ type: 'x'.repeat(128), participant: 'x' });
  });

  it('enforces the documented length limits', async () => {
    await rejected({ type: 'a.b', participant: 'p'.repeat(256) }, 422, 'validation_error', 'participant');
    await ok({ type: 'a.b', participant: 'p'.repeat(255) });
    await rejected(
      { type: 'a.b', participant: 'x', idempotency_key: 'k'.repeat(256) },
      422,
      'validation_error',
      'idempotency_key',
    );
    const long = await ws.api('/v1/events', {
      body: { type: 'a.b', participant: 'x' },
      headers: { 'idempotency-key': 'k'.repeat(256) },
    });
    expect(long.status).toBe(422);
    expect(long.body.error.errors[0].field).toBe('Idempotency-Key');
    await ok({ type: 'a.b', participant: 'x', idempotency_key: 'k'.repeat(255) });
    await rejected(
      { type: 'a.b', participant: { external_id: 'x', email: `${'e'.repeat(320)}@x.io` } },
      422,
      'validation_error',
    );
  });

  it('answers 413 for bodies over the limit and 400 for broken JSON or encodings', async () => {
    const huge = JSON.stringify({ type: 'a.b', participant: 'x', payload: { blob: 'z'.repeat(300_000) } });
    const big = await raw(huge);
    expect(big.status).toBe(413);
    expect(big.body.error.type).toBe('payload_too_large');
    for (const body of ['{"type": "a.b",', 'null', '[]', '"str"', '12', '{"a":1}{"b":2}']) {
      const res = await raw(body);
      expect(res.status, body).toBe(400);
      expect(res.body.error.type).toBe('invalid_request_error');
    }
    const invalidUtf8 = Buffer.concat([
      Buffer.from('{"type":"a.b","participant":"'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}'),
    ]);
    expect((await raw(invalidUtf8)).status).toBe(400);
    expect((await raw('type=a.b', { 'content-type': 'application/x-www-form-urlencoded' })).status).toBe(400);
  });

  it('rejects nesting deeper than 32 levels, and accepts 31', async () => {
    const nest = (n: number): unknown => (n === 0 ? 1 : { d: nest(n - 1) });
    await rejected({ type: 'a.b', participant: 'x', payload: nest(40) }, 422, 'validation_error');
    const deep = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000);
    const res = await raw(`{"type":"a.b","participant":"x","payload":${deep}}`);
    expect([400, 422]).toContain(res.status);
    await ok({ type: 'a.b', participant: 'x', payload: nest(30) });
  });

  it('rejects strings Postgres cannot store (NUL, lone surrogates) without failing neighbours', async () => {
    const bad = [
      { type: 'a.b', participant: 'x', payload: { s: 'nul\u0000here' } },
      { type: 'a.b', participant: 'nul\u0000id' },
      { type: 'a.b', participant: 'x', payload: { ['k\u0000']: 1 } },
    ];
    const lone = '{"type":"a.b","participant":"x","payload":{"s":"\\ud800"}}';
    const results = await Promise.all([
      ...bad.map((b) => ws.api('/v1/events', { body: b })),
      raw(lone),
      ...Array.from({ length: 10 }, (_, i) =>
        ws.api('/v1/events', { body: { type: 'fine.neighbour', participant: `n${i}` } }),
      ),
    ]);
    expect(results.slice(0, 4).map((r) => r.status)).toEqual([422, 422, 422, 422]);
    const good = results.slice(4);
    expect(good.every((r) => r.status === 202)).toBe(true);
    accepted.push(...good.map((r) => r.body.event_id));
  });

  it('stores SQL-ish and exotic strings verbatim', async () => {
    const evil = [
      "'; drop table events; --",
      'Robert"); DELETE FROM participants;--',
      '\\x00\\u0000',
      '🙂 ünïcödé ‮rtl',
      '$1 $$ $body$',
    ];
    for (const s of evil) {
      const res = await ok({
        type: 'evil.strings',
        participant: { external_id: s, name: s },
        payload: { [s]: s },
      });
      const shown = await ws.api(`/v1/events/${res.body.event_id}`);
      expect(shown.body.participant.external_id).toBe(s);
      expect(shown.body.payload).toEqual({ [s]: s });
    }
    const filtered = await ws.api(`/v1/events?participant=${encodeURIComponent(evil[0]!)}`);
    expect(filtered.body.data).toHaveLength(1);
  });

  it('keeps serving, and loses nothing it accepted', async () => {
    expect((await ws.api('/v1/events', { body: { type: 'still.alive', participant: 'z' } })).status).toBe(
      202,
    );
    const { rows } = await app.ctx.pool.query(
      'select count(*)::int as n from events where id = any($1::uuid[])',
      [accepted],
    );
    expect(rows[0].n).toBe(accepted.length);
    expect(accepted.length).toBeGreaterThan(10);
  });
});
