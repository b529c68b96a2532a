// POST /v1/events/batch (docs/api.md#batch-ingest): per-item results in request order, each item
// through the single-event pipeline (shorthand, idempotency, quarantine, schemas, participants),
// the whole batch in one transaction, its body limit and abilities.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const batch = (ws: TestWorkspace, events: unknown[], init: { key?: string } = {}) =>
  ws.api('/v1/events/batch', { body: { events }, ...init });

const stored = async (ws: TestWorkspace) =>
  Number(
    (await app.ctx.pool.query('select count(*) from events where workspace_id = $1', [ws.id])).rows[0].count,
  );

const dbEvent = async (id: string) =>
  (await app.ctx.pool.query('select * from events where id = $1', [id])).rows[0];

describe('POST /v1/events/batch', () => {
  it('answers 202 with one result per item in request order, each stored as POST /v1/events stores it (shorthand too)', async () => {
    const ws = await app.workspace();
    const res = await batch(ws, [
      { event_type: 'b.one', participant: { external_id: 'b1', email: 'b1@example.com' }, payload: { n: 1 } },
      { type: 'b.two', participant: 'b2' },
      { type: 'b.three', participant: 'b1', occurred_at: '2026-01-02T03:04:05Z' },
      { type: 'b.four', participant: 'b3', occurred_at: 'not a date' },
    ]);
    expect(res.status).toBe(202);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
    expect(res.body.data.map((r: { index: number }) => r.index)).toEqual([0, 1, 2, 3]);
    for (const r of res.body.data)
      expect(r).toEqual({
        index: r.index,
        event_id: expect.any(String),
        status: 'received',
        replayed: false,
      });
    const ids = res.body.data.map((r: { event_id: string }) => r.event_id);
    expect(new Set(ids).size).toBe(4);
    const rows = await Promise.all(ids.map(dbEvent));
    expect(rows.map((r) => [r.event_type, r.external_id, r.source])).toEqual([
      ['b.one', 'b1', 'api'],
      ['b.two', 'b2', 'api'],
      ['b.three', 'b1', 'api'],
      ['b.four', 'b3', 'api'],
    ]);
    expect(rows[2].occurred_at.toISOString()).toBe('2026-01-02T03:04:05.000Z');
    expect(Math.abs(rows[3].occurred_at.getTime() - Date.now())).toBeLessThan(60_000);
    // The participant upsert of the pipeline: created on first sight, with the PII the event carried.
    const participant = await app.ctx.pool.query(
      `select email from participants where workspace_id = $1 and mode = 'test' and external_id = 'b1'`,
      [ws.id],
    );
    expect(participant.rows).toEqual([{ email: 'b1@example.com' }]);
    // Processed by the engine like any other event, and shown by the event log.
    const shown = await eventually(async () => {
      const r = await ws.api(`/v1/events/${ids[1]}`);
      return r.body.status === 'processed' ? r.body : null;
    });
    expect(shown).toMatchObject({
      event_type: 'b.two',
      participant: { external_id: 'b2' },
      is_sandbox: true,
    });
    // Live mode writes live events.
    const live = await ws.api('/v1/events/batch', {
      body: { events: [{ type: 'b.live', participant: 'l1' }] },
      mode: 'live',
    });
    expect(live.status).toBe(202);
    expect((await dbEvent(live.body.data[0].event_id)).mode).toBe('live');
  });

  it('answers a duplicate item (a stored key, or one earlier in the batch) with its original and replayed: true', async () => {
    const ws = await app.workspace();
    const earlier = await ws.api('/v1/events', {
      body: { type: 'd.t', participant: 'd1', idempotency_key: 'k-earlier' },
    });
    expect(earlier.status).toBe(202);
    const events = [
      { type: 'd.t', participant: 'd1', idempotency_key: 'k-earlier' },
      { type: 'd.t', participant: 'd2', idempotency_key: 'k-new' },
      { type: 'd.t', participant: 'd3', idempotency_key: 'k-new' },
      { type: 'd.t', participant: 'd4' },
    ];
    const res = await batch(ws, events);
    expect(res.status).toBe(202);
    const [a, b, c, d] = res.body.data;
    expect(a).toEqual({
      index: 0,
      event_id: earlier.body.event_id,
      status: expect.any(String),
      replayed: true,
    });
    expect(b).toEqual({ index: 1, event_id: expect.any(String), status: 'received', replayed: false });
    expect(c).toEqual({ index: 2, event_id: b.event_id, status: 'received', replayed: true });
    expect(d).toMatchObject({ index: 3, replayed: false });
    expect(await stored(ws)).toBe(3);
    // The repeated row's own data was not stored: the first one with the key wins.
    expect((await dbEvent(b.event_id)).external_id).toBe('d2');

    // The same batch again: every keyed item replays; the unkeyed one is a new event.
    const again = await batch(ws, events);
    expect(
      again.body.data.map((r: { event_id: string; replayed: boolean }) => [r.event_id, r.replayed]),
    ).toEqual([
      [earlier.body.event_id, true],
      [b.event_id, true],
      [b.event_id, true],
      [expect.any(String), false],
    ]);
    expect(again.body.data[3].event_id).not.toBe(d.event_id);
    expect(await stored(ws)).toBe(4);
  });

  it('stores each key once when batches sharing keys race one another and single events', async () => {
    const ws = await app.workspace();
    const events = Array.from({ length: 50 }, (_, i) => ({
      type: 'race.t',
      participant: `r${i % 7}`,
      idempotency_key: `race-${i}`,
    }));
    const answers = await Promise.all([
      ...Array.from({ length: 4 }, (_, n) => batch(ws, n % 2 ? [...events].reverse() : events)),
      ...events.slice(0, 10).map((e) => ws.api('/v1/events', { body: e })),
    ]);
    for (const a of answers) expect(a.status).toBe(202);
    expect(await stored(ws)).toBe(50);
    const byKey = new Map<string, string>();
    const { rows } = await app.ctx.pool.query(
      'select id, idempotency_key from events where workspace_id = $1',
      [ws.id],
    );
    for (const r of rows) byKey.set(r.idempotency_key, r.id);
    for (const a of answers.slice(0, 4)) {
      const reversed = a.body.data[0].event_id === byKey.get('race-49');
      a.body.data.forEach((r: { index: number; event_id: string }) => {
        const i = reversed ? 49 - r.index : r.index;
        expect(r.event_id).toBe(byKey.get(`race-${i}`));
      });
    }
    for (const [i, a] of answers.slice(4).entries()) expect(a.body.event_id).toBe(byKey.get(`race-${i}`));
  });

  it('quarantines per item: a missing type or participant, or a payload failing its schema', async () => {
    const ws = await app.workspace();
    const put = await ws.api('/v1/event-types/q.typed/schema', {
      method: 'PUT',
      body: { schema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } },
    });
    expect(put.status).toBe(200);
    const res = await batch(ws, [
      { type: 'q.typed', participant: 'q1', payload: { n: 1 } },
      { type: 'q.typed', participant: 'q1', payload: { n: 'x' } },
      { participant: 'q1' },
      { type: 'q.typed', payload: { n: 2 } },
      { type: 'q.other', participant: 'q1', payload: { n: 'x' } },
    ]);
    expect(res.status).toBe(202);
    expect(res.body.data.map((r: { status: string }) => r.status)).toEqual([
      'received',
      'quarantined',
      'quarantined',
      'quarantined',
      'received',
    ]);
    const reasons = await Promise.all(
      res.body.data.map(async (r: { event_id: string }) => (await dbEvent(r.event_id)).quarantine_reason),
    );
    expect(reasons[0]).toBeNull();
    expect(reasons[1]).toMatch(/payload\.n/);
    expect(reasons[2]).toMatch(/event_type/);
    expect(reasons[3]).toMatch(/participant\.external_id/);
    expect(reasons[4]).toBeNull();
  });

  it('refuses the whole batch with a 422 naming the bad item or field, storing nothing', async () => {
    const ws = await app.workspace();
    const good = { type: 'v.t', participant: 'v1' };
    const cases: [unknown, string][] = [
      [{ events: [good, good, good, { type: 'v.t', participant: 123 }] }, 'events.3.participant'],
      [{ events: [good, { type: 'bad type!', participant: 'v1' }] }, 'events.1.type'],
      [{ events: [good, { type: 'v.t', participant: 'v1', surprise: true }] }, 'events.1'],
      [{ events: [{ type: 'v.t', participant: 'v', payload: [] }] }, 'events.0.payload'],
      [{ events: [] }, 'events'],
      [{ events: Array.from({ length: 1001 }, () => good) }, 'events'],
      [{ events: { 0: good } }, 'events'],
      [{ events: [good], extra: 1 }, '(body)'],
      [{}, 'events'],
      [{ event: good }, 'events'],
    ];
    for (const [body, field] of cases) {
      const res = await ws.api('/v1/events/batch', { body });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(res.body.error.type).toBe('validation_error');
      expect(res.body.error.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    // An array as the body is not a JSON object: the 400 of every route.
    const array = await ws.api('/v1/events/batch', { body: [good] });
    expect(array.status).toBe(400);
    expect(await stored(ws)).toBe(0);
  });

  it('accepts 1,000 events over MAX_BODY_BYTES in one batch, each processed exactly once', async () => {
    const ws = await app.workspace();
    const flow = await ws.api('/v1/flows', {
      body: { name: 'Per thing', event_type: 'bulk.thing', actions: [{ type: 'award_points', points: 2 }] },
    });
    expect(flow.status).toBe(201);
    const pad = 'x'.repeat(400);
    const events = Array.from({ length: 1000 }, (_, i) => ({
      type: 'bulk.thing',
      participant: `p${i % 20}`,
      payload: { i, pad },
      idempotency_key: `bulk-${i}`,
    }));
    expect(JSON.stringify({ events }).length).toBeGreaterThan(app.ctx.config.MAX_BODY_BYTES);
    const res = await batch(ws, events);
    expect(res.status).toBe(202);
    expect(res.body.data).toHaveLength(1000);
    expect(res.body.data.map((r: { index: number }) => r.index)).toEqual(events.map((_, i) => i));
    const ids = res.body.data.map((r: { event_id: string }) => r.event_id);
    const { rows } = await app.ctx.pool.query(
      'select id, payload, idempotency_key from events where workspace_id = $1',
      [ws.id],
    );
    expect(rows).toHaveLength(1000);
    const byId = new Map(rows.map((r) => [r.id, r]));
    ids.forEach((id: string, i: number) => {
      expect(byId.get(id)?.payload.i).toBe(i);
      expect(byId.get(id)?.idempotency_key).toBe(`bulk-${i}`);
    });
    // Every event processed, and each once: 2 points per event, no more.
    await eventually(
      async () =>
        Number(
          (
            await app.ctx.pool.query(
              `select count(*) from events where workspace_id = $1 and status = 'processed'`,
              [ws.id],
            )
          ).rows[0].count,
        ) === 1000,
      30_000,
    );
    const totals = await app.ctx.pool.query(
      `select count(*) as entries, sum(points) as points,
              (select sum(balance) from participants where workspace_id = $1) as balances
         from ledger_entries where workspace_id = $1`,
      [ws.id],
    );
    expect(totals.rows[0]).toEqual({ entries: '1000', points: '2000', balances: '2000' });
    // Sent again (a client's retry): every item answers its original, nothing is stored or processed.
    const retry = await batch(ws, events);
    expect(retry.body.data.map((r: { event_id: string }) => r.event_id)).toEqual(ids);
    expect(retry.body.data.every((r: { replayed: boolean }) => r.replayed)).toBe(true);
    expect(await stored(ws)).toBe(1000);
  });

  it('answers 413 for a body over 5 MiB, as it arrives and by its declared length', async () => {
    const ws = await app.workspace();
    const big = JSON.stringify({
      events: Array.from({ length: 6 }, (_, i) => ({
        type: 't',
        participant: `p${i}`,
        payload: { s: 'x'.repeat(1024 * 1024) },
      })),
    });
    expect(big.length).toBeGreaterThan(5 * 1024 * 1024);
    const res = await ws.api('/v1/events/batch', {
      raw: big,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(413);
    expect(res.body.error).toMatchObject({ type: 'payload_too_large', limit_bytes: 5 * 1024 * 1024 });
    expect(await stored(ws)).toBe(0);
  });

  it('needs the events:write ability', async () => {
    const reader = await app.workspace({ abilities: ['events:read'] });
    const denied = await batch(reader, [{ type: 'a.t', participant: 'a' }]);
    expect(denied.status).toBe(403);
    expect(denied.body.error.type).toBe('permission_error');
    expect(await stored(reader)).toBe(0);
    const writer = await app.workspace({ abilities: ['events:write'] });
    expect((await batch(writer, [{ type: 'a.t', participant: 'a' }])).status).toBe(202);
    const anonymous = await writer.api('/v1/events/batch', { body: { events: [] }, key: null });
    expect(anonymous.status).toBe(401);
  });
});
