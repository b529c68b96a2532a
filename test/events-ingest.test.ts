import pg from 'pg';
import { notifyChannelSql } from 'pg-boss/dist/plans.js';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGBOSS_SCHEMA } from '../src/jobs/queues.ts';
import { uuidv7 } from '../src/lib/uuid7.ts';
import { type EventToWrite, EventWriter } from '../src/services/events/event-writer.ts';
import { ingestEvent } from '../src/services/events/ingest-event.ts';
import { eventually, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

let app: TestApp;
let ws: TestWorkspace;

beforeAll(async () => {
  app = await startTestApp();
  ws = await app.workspace();
});
afterAll(() => app?.close());

const dbEvent = async (id: string) =>
  (await app.ctx.pool.query('select * from events where id = $1', [id])).rows[0];
const participant = async (w: TestWorkspace, externalId: string, mode = 'test') =>
  (
    await app.ctx.pool.query(
      'select * from participants where workspace_id = $1 and mode = $2 and external_id = $3',
      [w.id, mode, externalId],
    )
  ).rows;

describe('POST /v1/events', () => {
  it('accepts an event with 202 and processes it asynchronously', async () => {
    const res = await ws.api('/v1/events', {
      body: {
        event_type: 'order.completed',
        participant: { external_id: 'u1', email: 'u1@example.com' },
        payload: { total: 10 },
      },
    });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ event_id: expect.any(String), status: 'received' });
    expect(res.headers.get('x-request-id')).toBeTruthy();
    const ev = await eventually(async () => {
      const r = await ws.api(`/v1/events/${res.body.event_id}`);
      return r.body.status === 'processed' ? r.body : null;
    });
    expect(ev).toMatchObject({
      event_type: 'order.completed',
      participant: { external_id: 'u1' },
      payload: { total: 10 },
      source: 'api',
      is_sandbox: true,
      quarantine_reason: null,
      flow_runs: [],
    });
  });

  it('accepts the shorthand: `type` and a string participant', async () => {
    const res = await ws.api('/v1/events', { body: { type: 'app.opened', participant: 'short-1' } });
    expect(res.status).toBe(202);
    const row = await dbEvent(res.body.event_id);
    expect(row).toMatchObject({
      event_type: 'app.opened',
      external_id: 'short-1',
      status: expect.any(String),
    });
    expect(await participant(ws, 'short-1')).toHaveLength(1);
  });

  it('rejects event_type and type that disagree', async () => {
    const res = await ws.api('/v1/events', { body: { event_type: 'a.b', type: 'c.d', participant: 'x' } });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({
      type: 'validation_error',
      errors: [{ field: 'type', message: expect.any(String) }],
    });
  });

  it('falls back to now for an unparseable occurred_at, and keeps a parseable one', async () => {
    const before = Date.now();
    const bad = await ws.api('/v1/events', {
      body: { type: 't.time', participant: 'p', occurred_at: 'yesterday-ish' },
    });
    const good = await ws.api('/v1/events', {
      body: { type: 't.time', participant: 'p', occurred_at: '2026-01-02T03:04:05+02:00' },
    });
    const badRow = await dbEvent(bad.body.event_id);
    expect(badRow.occurred_at.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect((await dbEvent(good.body.event_id)).occurred_at.toISOString()).toBe('2026-01-02T01:04:05.000Z');
  });

  it('stores a live key’s events as live and a test key’s as sandbox', async () => {
    const live = await ws.api('/v1/events', {
      mode: 'live',
      body: { type: 'mode.check', participant: 'm1' },
    });
    const test = await ws.api('/v1/events', {
      mode: 'test',
      body: { type: 'mode.check', participant: 'm1' },
    });
    expect((await dbEvent(live.body.event_id)).mode).toBe('live');
    expect((await dbEvent(test.body.event_id)).mode).toBe('test');
    expect((await ws.api(`/v1/events/${live.body.event_id}`, { mode: 'test' })).status).toBe(404);
    expect((await ws.api(`/v1/events/${live.body.event_id}`, { mode: 'live' })).body.is_sandbox).toBe(false);
  });
});

describe('idempotency (CONTRACT 5)', () => {
  it('replays a duplicate with the original event_id, its current status and Idempotent-Replayed', async () => {
    const body = { type: 'idem.one', participant: 'i1', idempotency_key: 'idem-body-1' };
    const first = await ws.api('/v1/events', { body });
    expect(first.status).toBe(202);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    await eventually(async () => (await dbEvent(first.body.event_id)).status === 'processed');
    const again = await ws.api('/v1/events', { body: { ...body, payload: { different: true } } });
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual({ event_id: first.body.event_id, status: 'processed' });
    const { rows } = await app.ctx.pool.query(
      'select count(*)::int as n from events where idempotency_key = $1',
      ['idem-body-1'],
    );
    expect(rows[0].n).toBe(1);
  });

  it('lets the Idempotency-Key header win over the body key', async () => {
    const a = await ws.api('/v1/events', {
      body: { type: 'idem.two', participant: 'i2', idempotency_key: 'body-key' },
      headers: { 'idempotency-key': 'header-key' },
    });
    expect((await dbEvent(a.body.event_id)).idempotency_key).toBe('header-key');
    const b = await ws.api('/v1/events', {
      body: { type: 'idem.two', participant: 'i2' },
      headers: { 'idempotency-key': 'header-key' },
    });
    expect(b.body.event_id).toBe(a.body.event_id);
    const c = await ws.api('/v1/events', {
      body: { type: 'idem.two', participant: 'i2', idempotency_key: 'body-key' },
    });
    expect(c.body.event_id).not.toBe(a.body.event_id);
  });

  it('scopes keys to the workspace and mode', async () => {
    const other = await app.workspace();
    const body = { type: 'idem.scope', participant: 's', idempotency_key: 'shared-key' };
    const ids = new Set(
      await Promise.all([
        ws.api('/v1/events', { body, mode: 'test' }),
        ws.api('/v1/events', { body, mode: 'live' }),
        other.api('/v1/events', { body, mode: 'test' }),
      ]).then((rs) => rs.map((r) => r.body.event_id)),
    );
    expect(ids.size).toBe(3);
  });

  it('answers a key that a concurrent statement commits after its snapshot as a replay', async () => {
    const w = await app.workspace();
    // Another process's statement, holding the key uncommitted: this request's statement does
    // not see it, blocks on the unique index, and fails when the holder commits.
    const holder = new pg.Client({ connectionString: app.databaseUrl });
    await holder.connect();
    try {
      await holder.query('begin');
      const { rows } = await holder.query(
        `insert into events (id, workspace_id, mode, event_type, external_id, payload, occurred_at, status,
                             idempotency_key, source)
         values (gen_random_uuid(), $1, 'test', 'race.held', 'h1', '{}', now(), 'received', 'held-key', 'api')
         returning id`,
        [w.id],
      );
      const pending = w.api('/v1/events', {
        body: { type: 'race.held', participant: 'h1', idempotency_key: 'held-key' },
      });
      await eventually(async () => {
        const waiting = await app.ctx.pool.query(
          `select count(*)::int as n from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock'`,
        );
        return waiting.rows[0].n > 0;
      });
      await holder.query('commit');
      const res = await pending;
      expect(res.status).toBe(202);
      expect(res.headers.get('idempotent-replayed')).toBe('true');
      expect(res.body.event_id).toBe(rows[0].id);
      const stored = await app.ctx.pool.query(
        `select count(*)::int as n from events where workspace_id = $1 and idempotency_key = 'held-key'`,
        [w.id],
      );
      expect(stored.rows[0].n).toBe(1);
    } finally {
      await holder.end();
    }
  });

  it('stores one event for many concurrent requests with one key', async () => {
    const body = { type: 'idem.race', participant: 'race', idempotency_key: 'race-key' };
    const results = await Promise.all(Array.from({ length: 25 }, () => ws.api('/v1/events', { body })));
    expect(results.every((r) => r.status === 202)).toBe(true);
    expect(new Set(results.map((r) => r.body.event_id)).size).toBe(1);
    expect(results.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(24);
    const { rows } = await app.ctx.pool.query(
      `select count(*)::int as n from events where workspace_id = $1 and idempotency_key = 'race-key'`,
      [ws.id],
    );
    expect(rows[0].n).toBe(1);
    const jobs = await app.ctx.pool.query(
      `select count(*)::int as n from pgboss.job where data->'eventIds' ? $1`,
      [results[0]!.body.event_id],
    );
    expect(jobs.rows[0].n).toBe(1);
    const types = await app.ctx.pool.query(
      `select sum(count)::int as n from event_type_counts where workspace_id = $1 and key = 'idem.race'`,
      [ws.id],
    );
    expect(types.rows[0].n).toBe(1);
  });
});

describe('one batch (rows the writer relates before the statement)', () => {
  const event = (w: TestWorkspace, over: Partial<EventToWrite>): EventToWrite => ({
    id: uuidv7(),
    workspaceId: w.id,
    mode: 'test',
    source: 'api',
    quarantineReason: null,
    keyCheck: null,
    eventType: 'batch.mixed',
    externalId: 'batch-p',
    email: null,
    phone: null,
    name: null,
    timezone: null,
    referralCode: null,
    payload: {},
    occurredAt: new Date(),
    idempotencyKey: null,
    ...over,
  });

  it('merges one participant’s PII in arrival order and answers a repeated key as a replay', async () => {
    const w = await app.workspace();
    // Written in one tick, so the writer puts them in one statement.
    const written = await Promise.all([
      app.ctx.events.write(event(w, { email: 'first@example.com', idempotencyKey: 'k1' })),
      app.ctx.events.write(event(w, { email: 'replayed@example.com', idempotencyKey: 'k1' })),
      app.ctx.events.write(event(w, { phone: '+4900' })),
      app.ctx.events.write(event(w, { email: 'second@example.com', name: 'Bea' })),
      app.ctx.events.write(event(w, { externalId: 'batch-q', name: 'Quinn' })),
      app.ctx.events.write(
        event(w, { externalId: null, quarantineReason: 'missing participant.external_id' }),
      ),
    ]);
    expect(written[1]).toEqual({ event_id: written[0]!.event_id, status: 'received', replayed: true });
    expect(written.filter((r) => r.replayed)).toHaveLength(1);
    expect(written[5]!.status).toBe('quarantined');
    expect(await participant(w, 'batch-p')).toEqual([
      expect.objectContaining({ email: 'first@example.com', phone: '+4900', name: 'Bea' }),
    ]);
    expect(await participant(w, 'batch-q')).toEqual([
      expect.objectContaining({ name: 'Quinn', email: null }),
    ]);
    const { rows } = await app.ctx.pool.query(
      `select e.external_id, p.external_id as linked from events e left join participants p on p.id = e.participant_id
        where e.workspace_id = $1 order by e.id`,
      [w.id],
    );
    expect(rows).toEqual([
      { external_id: 'batch-p', linked: 'batch-p' },
      { external_id: 'batch-p', linked: 'batch-p' },
      { external_id: 'batch-p', linked: 'batch-p' },
      { external_id: 'batch-q', linked: 'batch-q' },
      { external_id: null, linked: null },
    ]);
  });

  it('stores the event of a live key whose idempotency key a revoked key used earlier in the batch', async () => {
    const w = await app.workspace();
    const [refused, accepted] = await Promise.allSettled([
      app.ctx.events.write(event(w, { idempotencyKey: 'shared', keyCheck: uuidv7() })),
      app.ctx.events.write(event(w, { idempotencyKey: 'shared', keyCheck: w.keyIds.test })),
    ]);
    expect(refused).toMatchObject({ status: 'rejected', reason: { type: 'authentication_error' } });
    expect(accepted).toMatchObject({ status: 'fulfilled', value: { status: 'received', replayed: false } });
    const { rows } = await app.ctx.pool.query(
      `select count(*)::int as n from events where workspace_id = $1 and idempotency_key = 'shared'`,
      [w.id],
    );
    expect(rows[0].n).toBe(1);
  });
});

describe('participants on ingest (SPEC 2.4)', () => {
  it('creates the participant on its first event and only enriches empty PII afterwards', async () => {
    await ws.api('/v1/events', {
      body: { type: 'p.e', participant: { external_id: 'enrich', email: 'first@example.com' } },
    });
    await ws.api('/v1/events', {
      body: {
        type: 'p.e',
        participant: { external_id: 'enrich', email: 'second@example.com', phone: '+4912345', name: 'Ann' },
      },
    });
    await ws.api('/v1/events', {
      body: { type: 'p.e', participant: { external_id: 'enrich', name: 'Changed' } },
    });
    const rows = await participant(ws, 'enrich');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ email: 'first@example.com', phone: '+4912345', name: 'Ann' });
  });

  it('creates one participant and loses no enrichment under concurrent first events', async () => {
    const fields = [{ email: 'c@example.com' }, { phone: '+111' }, { name: 'Cee' }, {}, {}, {}];
    const res = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        ws.api('/v1/events', {
          body: { type: 'p.c', participant: { external_id: 'concurrent', ...fields[i % fields.length] } },
        }),
      ),
    );
    expect(res.every((r) => r.status === 202)).toBe(true);
    const rows = await participant(ws, 'concurrent');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ email: 'c@example.com', phone: '+111', name: 'Cee' });
    const linked = await app.ctx.pool.query(
      `select count(*)::int as n from events where workspace_id = $1 and external_id = 'concurrent' and participant_id = $2`,
      [ws.id, rows[0].id],
    );
    expect(linked.rows[0].n).toBe(30);
  });

  it('links the event to a participant another transaction created after the batch began (retried, not lost)', async () => {
    // The ingest statement sees one snapshot: a participant committed while it waits on the
    // upsert's lock is invisible to its read-back, so the batch must be written again.
    const other = new pg.Client({ connectionString: app.databaseUrl });
    await other.connect();
    try {
      await other.query('begin');
      const made = await other.query(
        `insert into participants (workspace_id, mode, external_id, email) values ($1, 'test', 'racer', 'r@x.io') returning id`,
        [ws.id],
      );
      const pending = ws.api('/v1/events', { body: { type: 'p.race', participant: 'racer' } });
      // Commit only once the ingest statement is waiting on our uncommitted row's lock.
      await eventually(async () => {
        const { rows } = await app.ctx.pool.query(
          `select 1 from pg_stat_activity
            where datname = current_database() and pid <> $1 and wait_event_type = 'Lock'`,
          [(await other.query('select pg_backend_pid() as pid')).rows[0].pid],
        );
        return rows.length > 0;
      });
      await other.query('commit');
      const res = await pending;
      expect(res.status).toBe(202);
      expect(res.body.status).toBe('received');
      const row = await dbEvent(res.body.event_id);
      expect(String(row.participant_id)).toBe(String(made.rows[0].id));
      expect(await participant(ws, 'racer')).toHaveLength(1);
    } finally {
      await other.end();
    }
  });

  it('keeps test and live participants apart', async () => {
    await ws.api('/v1/events', {
      mode: 'live',
      body: { type: 'p.m', participant: { external_id: 'both', email: 'live@x.io' } },
    });
    await ws.api('/v1/events', {
      mode: 'test',
      body: { type: 'p.m', participant: { external_id: 'both', email: 'test@x.io' } },
    });
    expect((await participant(ws, 'both', 'live'))[0].email).toBe('live@x.io');
    expect((await participant(ws, 'both', 'test'))[0].email).toBe('test@x.io');
  });
});

describe('quarantine (SPEC 3.2)', () => {
  const expectQuarantined = async (body: unknown, reason: RegExp) => {
    const res = await ws.api('/v1/events', { body });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ event_id: expect.any(String), status: 'quarantined' });
    const shown = await ws.api(`/v1/events/${res.body.event_id}`);
    expect(shown.body.status).toBe('quarantined');
    expect(shown.body.quarantine_reason).toMatch(reason);
    return res.body.event_id as string;
  };

  it('quarantines an event without event_type', async () => {
    await expectQuarantined({ participant: 'q1', payload: { a: 1 } }, /event_type/);
  });

  it('quarantines an event without participant.external_id, and one with a blank one', async () => {
    await expectQuarantined({ type: 'q.t' }, /participant\.external_id/);
    await expectQuarantined({ type: 'q.t', participant: { email: 'x@y.z' } }, /participant\.external_id/);
    await expectQuarantined({ type: 'q.t', participant: '  ' }, /participant\.external_id/);
  });

  it('never processes a quarantined event, and creates no participant for it', async () => {
    const id = await expectQuarantined({ payload: {}, participant: 'never-made' }, /event_type/);
    // A normal event sent after it is processed; by then the quarantined one would have been too.
    const later = await ws.api('/v1/events', { body: { type: 'q.after', participant: 'someone' } });
    await eventually(async () => (await dbEvent(later.body.event_id)).status === 'processed');
    expect((await dbEvent(id)).status).toBe('quarantined');
    expect(await participant(ws, 'never-made')).toHaveLength(0);
    const jobs = await app.ctx.pool.query(
      `select count(*)::int as n from pgboss.job where data->'eventIds' ? $1`,
      [id],
    );
    expect(jobs.rows[0].n).toBe(0);
    const laterJobs = await app.ctx.pool.query(
      `select count(*)::int as n from pgboss.job where data->'eventIds' ? $1`,
      [later.body.event_id],
    );
    expect(laterJobs.rows[0].n).toBe(1);
  });

  it('quarantines payloads that fail the event type’s JSON Schema, naming the failing path', async () => {
    const put = await ws.api('/v1/event-types/purchase.made/schema', {
      method: 'PUT',
      body: {
        schema: {
          type: 'object',
          required: ['amount'],
          properties: {
            amount: { type: 'number', minimum: 0 },
            items: { type: 'array', items: { type: 'object', required: ['sku'] } },
          },
        },
      },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ key: 'purchase.made', schema: { required: ['amount'] } });
    await expectQuarantined(
      { type: 'purchase.made', participant: 's1', payload: { amount: 'ten' } },
      /payload\.amount/,
    );
    await expectQuarantined(
      { type: 'purchase.made', participant: 's1', payload: { amount: 1, items: [{}] } },
      /payload\.items\.0/,
    );
    const ok = await ws.api('/v1/events', {
      body: { type: 'purchase.made', participant: 's1', payload: { amount: 5 } },
    });
    expect(ok.body.status).toBe('received');
    // Dropping the schema lets the same payload through.
    await ws.api('/v1/event-types/purchase.made/schema', { method: 'PUT', body: { schema: null } });
    const now = await ws.api('/v1/events', {
      body: { type: 'purchase.made', participant: 's1', payload: { amount: 'ten' } },
    });
    expect(now.body.status).toBe('received');
  });

  it('applies a schema changed through another process to the very next event of a process that knew the old one', async () => {
    // A second writer over the same database stands for another API process: it remembers
    // schema versions, and the statement refuses a batch whose remembered version is stale.
    const log = pino({ level: 'silent' });
    const elsewhere = new EventWriter(app.ctx.pool, app.ctx.boss, log);
    const from = { workspaceId: ws.id, mode: 'test' as const, source: 'api' };
    const send = (payload: Record<string, unknown>) =>
      ingestEvent(elsewhere, from, { type: 'cross.process', participant: 'x1', payload });
    expect((await send({ n: 'text' })).status).toBe('received');
    await ws.api('/v1/event-types/cross.process/schema', {
      method: 'PUT',
      body: { schema: { type: 'object', properties: { n: { type: 'number' } } } },
    });
    const refused = await send({ n: 'text' });
    expect(refused.status).toBe('quarantined');
    expect((await dbEvent(refused.event_id)).quarantine_reason).toMatch(/payload\.n/);
    expect((await send({ n: 1 })).status).toBe('received');
    await ws.api('/v1/event-types/cross.process/schema', {
      method: 'PUT',
      body: { schema: { type: 'object', properties: { n: { type: 'string' } } } },
    });
    expect((await send({ n: 1 })).status).toBe('quarantined');
    expect((await send({ n: 'text' })).status).toBe('received');
    await ws.api('/v1/event-types/cross.process/schema', { method: 'PUT', body: { schema: null } });
    expect((await send({ n: 1 })).status).toBe('received');
    await elsewhere.idle();
  });

  it('takes the JSON Schema itself as the body, and drops it with DELETE (CONTRACT 9)', async () => {
    const schema = { type: 'object', required: ['sku'], properties: { sku: { type: 'string' } } };
    const put = await ws.api('/v1/event-types/bare.schema/schema', { method: 'PUT', body: schema });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ key: 'bare.schema', schema });
    await expectQuarantined({ type: 'bare.schema', participant: 'b1', payload: {} }, /payload/);

    const dropped = await ws.api('/v1/event-types/bare.schema/schema', { method: 'DELETE' });
    expect(dropped.status).toBe(200);
    expect(dropped.body).toMatchObject({ key: 'bare.schema', schema: null });
    const now = await ws.api('/v1/events', { body: { type: 'bare.schema', participant: 'b1', payload: {} } });
    expect(now.body.status).toBe('received');
    // Dropping what is already dropped is the same 200; an unknown type is a 404.
    expect((await ws.api('/v1/event-types/bare.schema/schema', { method: 'DELETE' })).status).toBe(200);
    const unknown = await ws.api('/v1/event-types/never.seen/schema', { method: 'DELETE' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.type).toBe('not_found');
  });

  it('reads a body whose only member is `schema` as the wrapper, any other body as the schema', async () => {
    const wrapped = await ws.api('/v1/event-types/wrapped.schema/schema', {
      method: 'PUT',
      body: { schema: { type: 'object', required: ['a'] } },
    });
    expect(wrapped.body.schema).toEqual({ type: 'object', required: ['a'] });
    // `$schema` beside other keywords is part of a bare schema, not a wrapper.
    const bare = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' };
    const put = await ws.api('/v1/event-types/wrapped.schema/schema', { method: 'PUT', body: bare });
    expect(put.body.schema).toEqual(bare);
    // An empty body is the empty schema (anything goes), not a drop.
    const empty = await ws.api('/v1/event-types/wrapped.schema/schema', { method: 'PUT', body: {} });
    expect(empty.status).toBe(200);
    expect(empty.body.schema).toEqual({});
    const notASchema = await ws.api('/v1/event-types/wrapped.schema/schema', {
      method: 'PUT',
      body: { schema: 5 },
    });
    expect(notASchema.status).toBe(422);
    expect(notASchema.body.error.errors).toEqual([{ field: 'schema', message: expect.any(String) }]);
    const hostile = await ws.api('/v1/event-types/wrapped.schema/schema', {
      method: 'PUT',
      body: { type: 'object', title: 'nul \u0000 here' },
    });
    expect(hostile.status).toBe(422);
  });

  it('refuses a body key (the key comes from the path)', async () => {
    const res = await ws.api('/v1/event-types/a.b/schema', {
      method: 'PUT',
      body: { key: 'c.d', schema: null },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.errors).toEqual([{ field: 'key', message: expect.any(String) }]);
  });

  it('rejects a schema that is not valid JSON Schema', async () => {
    const res = await ws.api('/v1/event-types/bad.schema/schema', {
      method: 'PUT',
      body: { schema: { type: 'no-such-type' } },
    });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ type: 'validation_error', errors: [{ field: 'schema' }] });
  });
});

describe('GET /v1/event-types', () => {
  it('lists the types seen with their counts, schema and first sighting', async () => {
    const w = await app.workspace();
    for (let i = 0; i < 3; i++)
      await w.api('/v1/events', { body: { type: 'count.me', participant: `c${i}` } });
    await w.api('/v1/events', { body: { type: 'count.other', participant: 'c' } });
    const res = await w.api('/v1/event-types');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { key: 'count.other', schema: null, events_count: 1, first_seen_at: expect.any(String) },
      { key: 'count.me', schema: null, events_count: 3, first_seen_at: expect.any(String) },
    ]);
    expect(res.body.links).toMatchObject({ first: null, last: null, prev: null, next: null });
  });

  it('counts every event when concurrent batches add to different slots', async () => {
    const w = await app.workspace();
    const results = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        w.api('/v1/events', { body: { type: 'count.many', participant: `m${i % 40}` } }),
      ),
    );
    expect(results.every((r) => r.status === 202)).toBe(true);
    const res = await w.api('/v1/event-types');
    expect(res.body.data).toEqual([
      { key: 'count.many', schema: null, events_count: 300, first_seen_at: expect.any(String) },
    ]);
    const { rows } = await app.ctx.pool.query(
      'select slot, count from event_type_counts where workspace_id = $1',
      [w.id],
    );
    expect(rows.reduce((sum, r) => sum + Number(r.count), 0)).toBe(300);
  });
});

describe('waking the event workers', () => {
  it("NOTIFYs pg-boss's channel once the event's batch has committed", async () => {
    const listener = new pg.Client({ connectionString: app.databaseUrl });
    await listener.connect();
    try {
      const { rows } = await listener.query<{ channel: string }>(
        `select ${notifyChannelSql(PGBOSS_SCHEMA)} as channel`,
      );
      const notes: string[] = [];
      listener.on('notification', (n) => {
        if (n.channel === rows[0]!.channel) notes.push(n.payload ?? '');
      });
      await listener.query(`listen ${rows[0]!.channel}`);
      const body = { type: 'wake.me', participant: 'w1', idempotency_key: 'wake-1' };
      const first = await ws.api('/v1/events', { body });
      expect(first.status).toBe(202);
      await eventually(async () => notes.includes('events.process'));
      // The job is visible by the time its wake-up arrives: NOTIFY follows the commit.
      const jobs = await listener.query(
        `select count(*)::int as n from pgboss.job where data->'eventIds' ? $1`,
        [first.body.event_id],
      );
      expect(jobs.rows[0].n).toBe(1);
    } finally {
      await listener.end();
    }
  });
});
