import { createHash } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../src/errors.ts';
import { revokeKey, rotateKey } from '../src/services/keys/manage-keys.ts';
import type { Mode } from '../src/services/keys/principal.ts';
import { request, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** Posts one event with `key` (the workspace's key for `mode` when not given); its id on 202. */
async function postEvent(ws: TestWorkspace, mode: Mode, key?: string) {
  return ws.api('/v1/events', {
    mode,
    ...(key && { key }),
    body: { event_type: 'order.completed', participant: { external_id: `p-${mode}` } },
  });
}

function expectAuthError(res: { status: number; body: any; headers: Headers }, status = 401) {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({
    error: {
      type: status === 401 ? 'authentication_error' : 'permission_error',
      message: expect.any(String),
      ...(status === 403 && { required_ability: expect.any(String) }),
    },
  });
  expect(res.headers.get('x-request-id')).toBeTruthy();
}

describe('key format and storage', () => {
  it('mints svc_test_ and svc_live_ keys of 40 base62 characters', async () => {
    const ws = await app.workspace();
    expect(ws.keys.test).toMatch(/^svc_test_[A-Za-z0-9]{40}$/);
    expect(ws.keys.live).toMatch(/^svc_live_[A-Za-z0-9]{40}$/);
    expect(ws.keys.test.slice(9)).not.toBe(ws.keys.live.slice(9));
  });

  it('stores only the sha256 of a key: its plaintext is in no row of any table', async () => {
    const ws = await app.workspace();
    const { rows } = await app.ctx.pool.query<{ id: string; key_hash: string; mode: string }>(
      'select id, key_hash, mode from api_keys where workspace_id = $1',
      [ws.id],
    );
    expect(rows).toHaveLength(2);
    for (const mode of ['test', 'live'] as const) {
      const row = rows.find((r) => r.id === ws.keyIds[mode]);
      expect(row).toMatchObject({ mode, key_hash: sha256(ws.keys[mode]) });
    }
    // Every row of every table, as text: neither the key nor its random part appears anywhere.
    const client = new pg.Client({ connectionString: app.databaseUrl });
    await client.connect();
    try {
      const tables = await client.query<{ schema: string; name: string }>(
        `select table_schema as schema, table_name as name from information_schema.tables
          where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`,
      );
      expect(tables.rows.map((t) => t.name)).toContain('api_keys');
      for (const t of tables.rows) {
        const ident = `${pg.escapeIdentifier(t.schema)}.${pg.escapeIdentifier(t.name)}`;
        for (const mode of ['test', 'live'] as const) {
          const secret = ws.keys[mode].slice(-40);
          const hit = await client.query(`select 1 from ${ident} t where strpos(t::text, $1) > 0 limit 1`, [
            secret,
          ]);
          expect(hit.rowCount, `${ident} holds the ${mode} key`).toBe(0);
        }
      }
    } finally {
      await client.end();
    }
  });
});

describe('data isolation', () => {
  it('selects the mode by key prefix: a test key never sees live events and vice versa', async () => {
    const ws = await app.workspace();
    const testEvent = await postEvent(ws, 'test');
    const liveEvent = await postEvent(ws, 'live');
    expect(testEvent.status).toBe(202);
    expect(liveEvent.status).toBe(202);
    const ids = { test: testEvent.body.event_id as string, live: liveEvent.body.event_id as string };

    for (const [mode, other] of [
      ['test', 'live'],
      ['live', 'test'],
    ] as const) {
      const list = await ws.api('/v1/events', { mode });
      expect(list.status).toBe(200);
      expect(list.body.data.map((e: { id: string }) => e.id)).toEqual([ids[mode]]);
      const own = await ws.api(`/v1/events/${ids[mode]}`, { mode });
      expect(own.status).toBe(200);
      expect(own.body).toMatchObject({ id: ids[mode], is_sandbox: mode === 'test' });
      const foreign = await ws.api(`/v1/events/${ids[other]}`, { mode });
      expect(foreign.status).toBe(404);
      expect(foreign.body.error.type).toBe('not_found');
    }
  });

  it("never shows one workspace's events to another workspace's key", async () => {
    const a = await app.workspace();
    const b = await app.workspace();
    for (const mode of ['test', 'live'] as const) {
      const posted = await postEvent(a, mode);
      expect(posted.status).toBe(202);
      const list = await b.api('/v1/events', { mode });
      expect(list.status).toBe(200);
      expect(list.body.data).toEqual([]);
      const one = await b.api(`/v1/events/${posted.body.event_id}`, { mode });
      expect(one.status).toBe(404);
      expect(one.body.error.type).toBe('not_found');
      expect((await a.api(`/v1/events/${posted.body.event_id}`, { mode })).status).toBe(200);
    }
  });
});

describe('abilities', () => {
  it('refuses POST /v1/events with 403 permission_error to a key holding only events:read', async () => {
    const ws = await app.workspace({ abilities: ['events:read'] });
    const res = await postEvent(ws, 'test');
    expectAuthError(res, 403);
    expect(res.body.error.required_ability).toBe('events:write');
    expect((await ws.api('/v1/events')).status).toBe(200);
    const { rows } = await app.ctx.pool.query('select 1 from events where workspace_id = $1', [ws.id]);
    expect(rows).toHaveLength(0);
  });

  it('refuses the event log to a key holding only events:write', async () => {
    const ws = await app.workspace({ abilities: ['events:write'] });
    const posted = await postEvent(ws, 'live');
    expect(posted.status).toBe(202);
    expectAuthError(await ws.api('/v1/events', { mode: 'live' }), 403);
    expectAuthError(await ws.api(`/v1/events/${posted.body.event_id}`, { mode: 'live' }), 403);
  });

  it('treats an empty ability list as * (full access)', async () => {
    const ws = await app.workspace({ abilities: [] });
    const { rows } = await app.ctx.pool.query<{ abilities: string[] }>(
      'select abilities from api_keys where workspace_id = $1',
      [ws.id],
    );
    expect(rows.map((r) => r.abilities)).toEqual([['*'], ['*']]);
    const posted = await postEvent(ws, 'test');
    expect(posted.status).toBe(202);
    expect((await ws.api(`/v1/events/${posted.body.event_id}`)).status).toBe(200);
    expect((await ws.api('/v1/event-types')).status).toBe(200);
  });
});

describe('authentication failures', () => {
  const random40 = 'A'.repeat(20) + 'b'.repeat(10) + '0123456789';
  const cases: [string, Record<string, string>][] = [
    ['no Authorization header', {}],
    ['the Basic scheme', { authorization: `Basic ${Buffer.from('user:pass').toString('base64')}` }],
    ['Bearer with no token', { authorization: 'Bearer' }],
    ['an unknown prefix (sk_live_)', { authorization: `Bearer sk_live_${random40}` }],
    ['the right prefix with 39 characters', { authorization: `Bearer svc_live_${random40.slice(1)}` }],
    ['the right prefix with 41 characters', { authorization: `Bearer svc_test_${random40}x` }],
    ['a non-base62 character', { authorization: `Bearer svc_test_${random40.slice(1)}-` }],
    ['a well-formed key nobody minted', { authorization: `Bearer svc_live_${random40}` }],
  ];

  it.each(cases)('answers 401 authentication_error for %s', async (_name, headers) => {
    const ws = await app.workspace();
    const post = await ws.api('/v1/events', {
      key: null,
      headers,
      body: { event_type: 'order.completed', participant: { external_id: 'x' } },
    });
    expectAuthError(post);
    expectAuthError(await request(app.url, '/v1/events', { headers }));
    const { rows } = await app.ctx.pool.query('select 1 from events where workspace_id = $1', [ws.id]);
    expect(rows).toHaveLength(0);
  });

  it('answers 401 for a key of a known workspace once its plaintext is altered', async () => {
    const ws = await app.workspace();
    const k = ws.keys.test;
    const altered = k.slice(0, -1) + (k.endsWith('A') ? 'B' : 'A');
    expectAuthError(await postEvent(ws, 'test', altered));
    // Swapping the prefix does not turn a test key into a live one.
    expectAuthError(await postEvent(ws, 'live', k.replace('svc_test_', 'svc_live_')));
  });
});

describe('key lifecycle', () => {
  it('rotation returns a working key, and the old key fails on its very next request', async () => {
    const ws = await app.workspace({ abilities: ['events:write', 'events:read'] });
    expect((await postEvent(ws, 'live')).status).toBe(202); // the old key has just been used

    const rotated = await rotateKey(app.ctx, ws.keyIds.live);
    expect(rotated).toMatchObject({
      id: expect.any(String),
      key: expect.stringMatching(/^svc_live_[A-Za-z0-9]{40}$/),
      mode: 'live',
      abilities: ['events:write', 'events:read'],
      revoked_id: ws.keyIds.live,
    });
    expect(rotated.id).not.toBe(ws.keyIds.live);

    expectAuthError(await postEvent(ws, 'live'));
    const fresh = await postEvent(ws, 'live', rotated.key);
    expect(fresh.status).toBe(202);
    // Same workspace and mode: the new key sees what the old one wrote.
    const list = await ws.api('/v1/events', { mode: 'live', key: rotated.key });
    expect(list.body.data).toHaveLength(2);
    // The other mode's key is untouched.
    expect((await postEvent(ws, 'test')).status).toBe(202);

    const { rows } = await app.ctx.pool.query<{ revoked_at: Date | null; replaced_by: string | null }>(
      'select revoked_at, replaced_by from api_keys where id = $1',
      [ws.keyIds.live],
    );
    expect(rows[0]?.revoked_at).toBeInstanceOf(Date);
    expect(rows[0]?.replaced_by).toBe(rotated.id);
  });

  it('lets only one of two concurrent rotations of a key win; the other is told it is revoked', async () => {
    const ws = await app.workspace();
    const results = await Promise.allSettled([
      rotateKey(app.ctx, ws.keyIds.test),
      rotateKey(app.ctx, ws.keyIds.test),
    ]);
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r) => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect((lost[0] as PromiseRejectedResult).reason).toBeInstanceOf(DomainError);
    expect((lost[0] as PromiseRejectedResult).reason.type).toBe('invalid_state');
    const { rows } = await app.ctx.pool.query(
      'select 1 from api_keys where workspace_id = $1 and mode = $2 and revoked_at is null',
      [ws.id, 'test'],
    );
    expect(rows).toHaveLength(1);
  });

  it('revocation makes a key fail on its very next request', async () => {
    const ws = await app.workspace();
    expect((await postEvent(ws, 'test')).status).toBe(202);
    expect((await ws.api('/v1/events')).status).toBe(200);

    expect(await revokeKey(app.ctx, ws.keyIds.test)).toEqual({ id: ws.keyIds.test, revoked: true });
    expectAuthError(await ws.api('/v1/events'));
    expectAuthError(await postEvent(ws, 'test'));
    // Revoking again is harmless; rotating a revoked key is refused.
    expect(await revokeKey(app.ctx, ws.keyIds.test)).toEqual({ id: ws.keyIds.test, revoked: true });
    await expect(rotateKey(app.ctx, ws.keyIds.test)).rejects.toMatchObject({ type: 'invalid_state' });
    expect((await postEvent(ws, 'live')).status).toBe(202);
  });

  it('a revoked key this process has just used gets 401 on ingest, not a replay, a 422 or a write', async () => {
    // POST /v1/events does not read a key it has read before: its write statement checks it.
    const ws = await app.workspace();
    const first = await ws.api('/v1/events', {
      headers: { 'idempotency-key': 'before-revoke' },
      body: { type: 'order.completed', participant: 'rv' },
    });
    expect(first.status).toBe(202);
    await revokeKey(app.ctx, ws.keyIds.test);
    const count = async () =>
      (await app.ctx.pool.query('select count(*)::int as n from events where workspace_id = $1', [ws.id]))
        .rows[0].n;
    const before = await count();
    expectAuthError(
      await ws.api('/v1/events', {
        headers: { 'idempotency-key': 'before-revoke' },
        body: { type: 'order.completed', participant: 'rv' },
      }),
    );
    expectAuthError(await ws.api('/v1/events', { body: { type: 'order.completed', participant: 'rv' } }));
    expectAuthError(await ws.api('/v1/events', { body: { event_type: 42 } }));
    // Several requests in one batch: the revoked key's are refused, another key's are written.
    const mixed = await Promise.all([
      ...Array.from({ length: 5 }, () => postEvent(ws, 'test')),
      ...Array.from({ length: 5 }, () => postEvent(ws, 'live')),
    ]);
    expect(mixed.slice(0, 5).every((r) => r.status === 401)).toBe(true);
    expect(mixed.slice(5).every((r) => r.status === 202)).toBe(true);
    expect(await count()).toBe(before + 5);
  });

  it("refuses to rotate or revoke another workspace's key, or an id that is not a key id", async () => {
    const a = await app.workspace();
    const b = await app.workspace();
    await expect(rotateKey(app.ctx, a.keyIds.test, { workspaceId: b.id })).rejects.toMatchObject({
      type: 'not_found',
    });
    await expect(revokeKey(app.ctx, a.keyIds.test, { workspaceId: b.id })).rejects.toMatchObject({
      type: 'not_found',
    });
    await expect(rotateKey(app.ctx, 'not-a-key-id')).rejects.toMatchObject({ type: 'not_found' });
    await expect(revokeKey(app.ctx, 'not-a-key-id')).rejects.toMatchObject({ type: 'not_found' });
    expect((await postEvent(a, 'test')).status).toBe(202);
  });
});
