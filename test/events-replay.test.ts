// Replay of quarantined events (docs/api.md#replay): one with fixes through the whole pipeline
// (schemas again), linked both ways; the 409s; and the bulk replay of a range after a schema fix,
// each event once even when calls run concurrently.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const setSchema = (ws: TestWorkspace, type: string, schema: object | null) =>
  ws.api(`/v1/event-types/${type}/schema`, { method: 'PUT', body: { schema } });

const NUMBER_N = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };

const send = async (ws: TestWorkspace, body: object) => {
  const res = await ws.api('/v1/events', { body });
  expect(res.status).toBe(202);
  return res.body as { event_id: string; status: string };
};

const show = async (ws: TestWorkspace, id: string) => {
  const res = await ws.api(`/v1/events/${id}`);
  expect(res.status).toBe(200);
  return res.body;
};

const replay = (ws: TestWorkspace, id: string, body: object = {}) =>
  ws.api(`/v1/events/${id}/replay`, { body });

const replayAll = (ws: TestWorkspace, body: object = {}) => ws.api('/v1/events/replay', { body });

const count = async (ws: TestWorkspace, where = 'true') =>
  Number(
    (await app.ctx.pool.query(`select count(*) from events where workspace_id = $1 and ${where}`, [ws.id]))
      .rows[0].count,
  );

describe('POST /v1/events/{id}/replay', () => {
  it('stores a new event with the fixed payload, linked both ways, through the pipeline', async () => {
    const ws = await app.workspace();
    expect((await setSchema(ws, 'r.typed', NUMBER_N)).status).toBe(200);
    const bad = await send(ws, {
      type: 'r.typed',
      participant: { external_id: 'r1', referral_code: 'abc123' },
      payload: { n: 'x', keep: true },
      occurred_at: '2026-03-04T05:06:07Z',
      idempotency_key: 'orig-1',
    });
    expect(bad.status).toBe('quarantined');

    const res = await replay(ws, bad.event_id, { payload: { n: 1 } });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ event_id: expect.any(String), status: 'received' });
    expect(res.headers.get('idempotent-replayed')).toBeNull();
    expect(res.body.event_id).not.toBe(bad.event_id);

    const old = await show(ws, bad.event_id);
    expect(old).toMatchObject({ status: 'quarantined', replay_of: null, replayed_as: res.body.event_id });
    const fresh = await eventually(async () => {
      const e = await show(ws, res.body.event_id);
      return e.status === 'processed' ? e : null;
    });
    expect(fresh).toMatchObject({
      event_type: 'r.typed',
      participant: { external_id: 'r1' },
      payload: { n: 1 },
      occurred_at: '2026-03-04T05:06:07.000Z',
      source: 'api',
      quarantine_reason: null,
      idempotency_key: `replay:${bad.event_id}`,
      replay_of: bad.event_id,
      replayed_as: null,
    });
    const row = (await app.ctx.pool.query('select referral_code from events where id = $1', [fresh.id]))
      .rows[0];
    expect(row.referral_code).toBe('ABC123');
    // The list shows the links too.
    const list = await ws.api('/v1/events?status=quarantined');
    expect(list.body.data).toEqual([expect.objectContaining({ id: bad.event_id, replayed_as: fresh.id })]);
  });

  it('fixes a missing event type, and an unchanged replay keeps the payload and type', async () => {
    const ws = await app.workspace();
    const untyped = await send(ws, { participant: 'r2', payload: { a: 1 } });
    expect(untyped.status).toBe('quarantined');
    const res = await replay(ws, untyped.event_id, { event_type: 'r.fixed' });
    expect(res.status).toBe(202);
    expect(res.body.status).toBe('received');
    expect(await show(ws, res.body.event_id)).toMatchObject({ event_type: 'r.fixed', payload: { a: 1 } });

    // After a schema fix, an unchanged replay passes.
    await setSchema(ws, 'r.later', NUMBER_N);
    const bad = await send(ws, { type: 'r.later', participant: 'r2', payload: { n: 'x' } });
    expect(bad.status).toBe('quarantined');
    await setSchema(ws, 'r.later', null);
    const unchanged = await replay(ws, bad.event_id);
    expect(unchanged.status).toBe(202);
    expect(unchanged.body.status).toBe('received');
    expect(await show(ws, unchanged.body.event_id)).toMatchObject({
      event_type: 'r.later',
      payload: { n: 'x' },
    });
  });

  it('quarantines the replay again when its schema still refuses it; that one can be replayed in turn', async () => {
    const ws = await app.workspace();
    await setSchema(ws, 'r.strict', NUMBER_N);
    const bad = await send(ws, { type: 'r.strict', participant: 'r3', payload: { n: 'x' } });
    const again = await replay(ws, bad.event_id, { payload: { n: 'still text' } });
    expect(again.status).toBe(202);
    expect(again.body.status).toBe('quarantined');
    const second = await show(ws, again.body.event_id);
    expect(second).toMatchObject({ replay_of: bad.event_id, replayed_as: null });
    expect(second.quarantine_reason).toMatch(/payload\.n/);
    expect((await show(ws, bad.event_id)).replayed_as).toBe(again.body.event_id);

    // A type fixed to one the schema does not cover passes too.
    const third = await replay(ws, again.body.event_id, { event_type: 'r.loose' });
    expect(third.body.status).toBe('received');
    expect(await show(ws, third.body.event_id)).toMatchObject({
      event_type: 'r.loose',
      payload: { n: 'still text' },
      replay_of: again.body.event_id,
    });
  });

  it('replays an event once: the same fixes again answer the same event, other fixes a 409', async () => {
    const ws = await app.workspace();
    await setSchema(ws, 'r.once', NUMBER_N);
    const bad = await send(ws, { type: 'r.once', participant: 'r4', payload: { n: 'x' } });
    // Concurrent calls with the same fixes (a client's retries): one new event, every answer names it.
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => replay(ws, bad.event_id, { payload: { n: 2 } })),
    );
    for (const a of answers) expect(a.status).toBe(202);
    const ids = new Set(answers.map((a) => a.body.event_id));
    expect(ids.size).toBe(1);
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(5);
    expect(await count(ws, `replay_of = '${bad.event_id}'`)).toBe(1);

    const retry = await replay(ws, bad.event_id, { payload: { n: 2 } });
    expect(retry.status).toBe(202);
    expect(retry.body.event_id).toBe([...ids][0]);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');

    const other = await replay(ws, bad.event_id, { payload: { n: 3 } });
    expect(other.status).toBe(409);
    expect(other.body.error.type).toBe('invalid_state');
    expect(other.body.error.message).toContain([...ids][0]);
    const otherType = await replay(ws, bad.event_id, { event_type: 'r.else', payload: { n: 2 } });
    expect(otherType.status).toBe(409);
    expect(await count(ws, `replay_of = '${bad.event_id}'`)).toBe(1);
  });

  it('answers 409 for an event that is not quarantined, 404 for one of another workspace or mode, 422 for bad fixes', async () => {
    const ws = await app.workspace();
    const ok = await send(ws, { type: 'r.ok', participant: 'r5' });
    const received = await replay(ws, ok.event_id);
    expect(received.status).toBe(409);
    expect(received.body.error).toMatchObject({ type: 'invalid_state' });
    await eventually(async () => (await show(ws, ok.event_id)).status === 'processed');
    const processed = await replay(ws, ok.event_id, { payload: {} });
    expect(processed.status).toBe(409);
    expect(processed.body.error.message).toMatch(/processed/);

    const bad = await send(ws, { participant: 'r5' });
    const other = await app.workspace();
    expect((await replay(other, bad.event_id, { event_type: 'x.y' })).status).toBe(404);
    expect((await ws.api(`/v1/events/${bad.event_id}/replay`, { body: {}, mode: 'live' })).status).toBe(404);
    expect((await replay(ws, '0190f0f0-0000-7000-8000-000000000000')).status).toBe(404);
    expect((await replay(ws, 'not-an-id')).status).toBe(404);

    for (const [body, field] of [
      [{ event_type: '' }, 'event_type'],
      [{ event_type: 'no spaces' }, 'event_type'],
      [{ payload: [1] }, 'payload'],
      [{ payload: 'x' }, 'payload'],
      [{ participant: 'r9' }, '(body)'],
    ] as const) {
      const res = await replay(ws, bad.event_id, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    expect((await show(ws, bad.event_id)).replayed_as).toBeNull();
  });

  it('needs the events:write ability', async () => {
    const ws = await app.workspace();
    const bad = await send(ws, { participant: 'r6' });
    const reader = await app.workspace({ abilities: ['events:read'] });
    // Another workspace's reader is refused before any lookup: the ability comes first.
    const denied = await replay(reader, bad.event_id, { event_type: 'x.y' });
    expect(denied.status).toBe(403);
    expect((await replayAll(reader)).status).toBe(403);
  });
});

describe('POST /v1/events/replay', () => {
  it('replays unchanged the quarantined events of the range and type, once, leaving those it cannot fix', async () => {
    const ws = await app.workspace();
    await setSchema(ws, 'bk.a', NUMBER_N);
    await setSchema(ws, 'bk.b', NUMBER_N);
    const a = [];
    for (let i = 0; i < 4; i++)
      a.push(await send(ws, { type: 'bk.a', participant: `a${i}`, payload: { n: `${i}` } }));
    const b = await send(ws, { type: 'bk.b', participant: 'b0', payload: { n: 'b' } });
    const untyped = await send(ws, { participant: 'u0' });
    const anonymous = await send(ws, { type: 'bk.a', payload: { n: 1 } });
    const fine = await send(ws, { type: 'bk.a', participant: 'f0', payload: { n: 1 } });
    expect(fine.status).toBe('received');
    // Received on four different days.
    for (const [i, e] of a.entries())
      await app.ctx.pool.query(`update events set received_at = $2 where id = $1`, [
        e.event_id,
        `2026-05-0${i + 1}T12:00:00Z`,
      ]);
    await setSchema(ws, 'bk.a', null);
    await setSchema(ws, 'bk.b', null);

    const ranged = await replayAll(ws, {
      event_type: 'bk.a',
      since: '2026-05-02',
      until: '2026-05-04T00:00:00Z',
    });
    expect(ranged.status).toBe(202);
    expect(ranged.body).toEqual({ replayed: 2 });
    const linked = async (id: string) => (await show(ws, id)).replayed_as;
    expect(await linked(a[0]!.event_id)).toBeNull();
    expect(await linked(a[1]!.event_id)).not.toBeNull();
    expect(await linked(a[2]!.event_id)).not.toBeNull();
    expect(await linked(a[3]!.event_id)).toBeNull();
    const replayOfA1 = await show(ws, (await linked(a[1]!.event_id))!);
    expect(replayOfA1).toMatchObject({
      event_type: 'bk.a',
      participant: { external_id: 'a1' },
      payload: { n: '1' },
      status: expect.stringMatching(/received|processed/),
      replay_of: a[1]!.event_id,
    });

    // The rest: the other a's and b; not the events missing a type or a participant.
    expect((await replayAll(ws)).body).toEqual({ replayed: 3 });
    expect(await linked(b.event_id)).not.toBeNull();
    expect(await linked(untyped.event_id)).toBeNull();
    expect(await linked(anonymous.event_id)).toBeNull();
    expect((await replayAll(ws)).body).toEqual({ replayed: 0 });
    expect(await count(ws, 'replay_of is not null')).toBe(5);
    expect(await count(ws, `status = 'quarantined' and replayed_as is null`)).toBe(2);
  });

  it('terminates when the schema still refuses the replays (they are quarantined again, for a later call)', async () => {
    const ws = await app.workspace();
    await setSchema(ws, 'bk.strict', NUMBER_N);
    for (let i = 0; i < 3; i++)
      await send(ws, { type: 'bk.strict', participant: `s${i}`, payload: { n: 'x' } });
    expect((await replayAll(ws)).body).toEqual({ replayed: 3 });
    expect(await count(ws, `status = 'quarantined' and replay_of is not null`)).toBe(3);
    // The next call replays those (after the fix that did not come): a chain, one link per call.
    expect((await replayAll(ws, { event_type: 'bk.strict' })).body).toEqual({ replayed: 3 });
    expect(await count(ws)).toBe(9);
  });

  it('replays each event once when calls run concurrently, over several chunks, each processed once', async () => {
    const ws = await app.workspace();
    await setSchema(ws, 'bk.many', NUMBER_N);
    const flow = await ws.api('/v1/flows', {
      body: { name: 'Per many', event_type: 'bk.many', actions: [{ type: 'award_points', points: 3 }] },
    });
    expect(flow.status).toBe(201);
    const total = 1200;
    for (let start = 0; start < total; start += 600) {
      const res = await ws.api('/v1/events/batch', {
        body: {
          events: Array.from({ length: 600 }, (_, i) => ({
            type: 'bk.many',
            participant: `m${(start + i) % 25}`,
            payload: { n: 'not yet', i: start + i },
          })),
        },
      });
      expect(res.status).toBe(202);
      expect(res.body.data.every((r: { status: string }) => r.status === 'quarantined')).toBe(true);
    }
    await setSchema(ws, 'bk.many', { type: 'object', properties: { i: { type: 'number' } } });

    const calls = await Promise.all(
      Array.from({ length: 3 }, () => replayAll(ws, { event_type: 'bk.many' })),
    );
    for (const c of calls) expect(c.status).toBe(202);
    expect(calls.reduce((sum, c) => sum + c.body.replayed, 0)).toBe(total);
    expect(await count(ws, 'replay_of is not null')).toBe(total);
    expect(
      Number(
        (
          await app.ctx.pool.query(
            'select count(distinct replay_of) from events where workspace_id = $1 and replay_of is not null',
            [ws.id],
          )
        ).rows[0].count,
      ),
    ).toBe(total);
    // Each original points at its one replay, which points back.
    const mismatched = await app.ctx.pool.query(
      `select o.id from events o left join events n on n.id = o.replayed_as
        where o.workspace_id = $1 and o.status = 'quarantined' and (n.id is null or n.replay_of <> o.id)`,
      [ws.id],
    );
    expect(mismatched.rows).toEqual([]);
    // Processed once each: 3 points per replayed event, no more.
    await eventually(async () => (await count(ws, `status = 'processed'`)) === total, 30_000);
    const points = await app.ctx.pool.query(
      'select count(*) as entries, sum(points) as points from ledger_entries where workspace_id = $1',
      [ws.id],
    );
    expect(points.rows[0]).toEqual({ entries: String(total), points: String(3 * total) });
    expect((await replayAll(ws)).body).toEqual({ replayed: 0 });
  });

  it('refuses a bad range or field with a 422', async () => {
    const ws = await app.workspace();
    for (const [body, field] of [
      [{ since: 'yesterday' }, 'since'],
      [{ until: '2026-13-01' }, 'until'],
      [{ since: '2026-05-02', until: '2026-05-01' }, 'until'],
      [{ event_type: 'bad type' }, 'event_type'],
      [{ event_type: '' }, 'event_type'],
      [{ status: 'quarantined' }, '(body)'],
    ] as const) {
      const res = await replayAll(ws, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
  });
});
