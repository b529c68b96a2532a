import { isTRPCClientError, TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../src/services/workspaces/create-user.ts';
import type { AppRouter } from '../src/trpc/index.ts';
import { dashboardClient, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const PASSWORD = 'correct horse battery staple';

const dashboard = () => dashboardClient(app.url);

async function signedIn(w?: TestWorkspace) {
  const ws = w ?? (await app.workspace());
  const email = `owner-${ws.slug}@example.com`;
  await createUser(app.ctx, { workspace: ws.slug, email, password: PASSWORD });
  const d = dashboard();
  const me = await d.client.auth.login.mutate({ workspace: ws.slug, email, password: PASSWORD });
  return { ...d, w: ws, email, me };
}

/** The tRPC error a call fails with. */
async function failure(call: Promise<unknown>) {
  const err = await call.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e,
  );
  if (!isTRPCClientError<AppRouter>(err)) throw err;
  return err as TRPCClientError<AppRouter>;
}

const sendEvents = async (w: TestWorkspace, n: number, mode: 'live' | 'test' = 'test') => {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await w.api('/v1/events', { body: { type: 'dash.view', participant: `p${i}` }, mode });
    ids.push(res.body.event_id);
  }
  return ids;
};

describe('auth', () => {
  it('signs in with a user made by createUser, sets an HttpOnly SameSite=Lax cookie, and knows who is in', async () => {
    const { client, jar, setCookies, w, email, me } = await signedIn();
    expect(me).toEqual({
      id: expect.any(String),
      email,
      workspace: { id: w.id, slug: w.slug, name: w.slug },
    });
    expect(jar.has('svc_session')).toBe(true);
    expect(setCookies[0]).toMatch(/^svc_session=[\w-]{43};/);
    expect(setCookies[0]).toMatch(/HttpOnly/i);
    expect(setCookies[0]).toMatch(/SameSite=Lax/i);
    expect(setCookies[0]).toMatch(/Path=\//);
    expect(setCookies[0]).toMatch(/Max-Age=\d+/i);
    expect(await client.auth.me.query()).toEqual(me);
  });

  it('accepts the e-mail in any case', async () => {
    const w = await app.workspace();
    await createUser(app.ctx, { workspace: w.slug, email: 'Mixed@Example.com', password: PASSWORD });
    const me = await dashboard().client.auth.login.mutate({
      workspace: w.slug,
      email: 'MIXED@example.COM',
      password: PASSWORD,
    });
    expect(me.email).toBe('mixed@example.com');
  });

  it('refuses a wrong password, an unknown e-mail or the wrong workspace alike, with UNAUTHORIZED', async () => {
    const w = await app.workspace();
    const other = await app.workspace();
    await createUser(app.ctx, { workspace: w.slug, email: 'a@example.com', password: PASSWORD });
    for (const attempt of [
      { workspace: w.slug, email: 'a@example.com', password: 'wrong password' },
      { workspace: w.slug, email: 'nobody@example.com', password: PASSWORD },
      { workspace: other.slug, email: 'a@example.com', password: PASSWORD },
      { workspace: 'no-such-workspace', email: 'a@example.com', password: PASSWORD },
    ]) {
      const d = dashboard();
      const err = await failure(d.client.auth.login.mutate(attempt));
      expect(err.data).toMatchObject({ code: 'UNAUTHORIZED', httpStatus: 401, type: 'authentication_error' });
      expect(err.message).toBe('Sign-in failed: wrong workspace, e-mail or password');
      expect(d.setCookies).toEqual([]);
    }
  });

  it('refuses every workspace call without a cookie, or with a forged or tampered one', async () => {
    const { jar } = await signedIn();
    const real = jar.get('svc_session')!;
    const flipped = `${real.slice(0, -1)}${real.endsWith('A') ? 'B' : 'A'}`;
    for (const cookie of [null, 'garbage', flipped, `${real}x`, 'A'.repeat(43)]) {
      const d = dashboard();
      if (cookie) d.jar.set('svc_session', cookie);
      // One call at a time: a second call started before the first is awaited could reject with
      // no handler yet attached (an unhandled rejection), whichever answers first.
      for (const call of [
        () => d.client.events.list.query({ mode: 'test' }),
        () => d.client.auth.me.query(),
      ]) {
        const err = await failure(call());
        expect(err.data).toMatchObject({
          code: 'UNAUTHORIZED',
          httpStatus: 401,
          type: 'authentication_error',
        });
      }
    }
  });

  it('logs out: the cookie is cleared and this client is signed out', async () => {
    const { client, jar, setCookies } = await signedIn();
    expect(await client.events.list.query({ mode: 'test' })).toMatchObject({ data: [] });
    await client.auth.logout.mutate();
    expect(setCookies.at(-1)).toMatch(/^svc_session=;.*(Max-Age=0|Expires=Thu, 01 Jan 1970)/i);
    expect(jar.has('svc_session')).toBe(false);
    expect((await failure(client.events.list.query({ mode: 'test' }))).data?.code).toBe('UNAUTHORIZED');
    expect((await failure(client.auth.me.query())).data?.code).toBe('UNAUTHORIZED');
  });
});

describe('events', () => {
  it('lists the workspace event log in the chosen mode, paging with the service cursors', async () => {
    const { client, w } = await signedIn();
    const testIds = await sendEvents(w, 5, 'test');
    const [liveId] = await sendEvents(w, 1, 'live');

    const first = await client.events.list.query({ mode: 'test', limit: 2 });
    expect(first.data.map((e) => e.id)).toEqual([testIds[4], testIds[3]]);
    expect(first).toMatchObject({ limit: 2, nextCursor: expect.any(String), prevCursor: null });
    const seen = [...first.data];
    let cursor = first.nextCursor;
    while (cursor) {
      const page = await client.events.list.query({ mode: 'test', limit: 2, cursor });
      seen.push(...page.data);
      cursor = page.nextCursor;
    }
    expect(seen.map((e) => e.id)).toEqual([...testIds].reverse());
    expect(seen.every((e) => e.is_sandbox && e.event_type === 'dash.view')).toBe(true);

    const live = await client.events.list.query({ mode: 'live' });
    expect(live.data.map((e) => e.id)).toEqual([liveId]);

    const filtered = await client.events.list.query({
      mode: 'test',
      participant: 'p2',
      event_type: 'dash.view',
    });
    expect(filtered.data.map((e) => e.id)).toEqual([testIds[2]]);

    const one = await client.events.get.query({ mode: 'test', id: testIds[0]! });
    expect(one).toMatchObject({ id: testIds[0], participant: { external_id: 'p0' }, flow_runs: [] });
    const otherMode = await failure(client.events.get.query({ mode: 'live', id: testIds[0]! }));
    expect(otherMode.data).toMatchObject({ code: 'NOT_FOUND', httpStatus: 404, type: 'not_found' });
  });

  it("never shows another workspace's events", async () => {
    const mine = await signedIn();
    const theirs = await app.workspace();
    const [theirEvent] = await sendEvents(theirs, 1);
    expect((await mine.client.events.list.query({ mode: 'test' })).data).toEqual([]);
    const err = await failure(mine.client.events.get.query({ mode: 'test', id: theirEvent! }));
    expect(err.data?.code).toBe('NOT_FOUND');
  });

  it('maps validation failures to BAD_REQUEST with type validation_error and field errors', async () => {
    const { client } = await signedIn();
    const limit = await failure(client.events.list.query({ mode: 'test', limit: 0 }));
    expect(limit.data).toMatchObject({
      code: 'BAD_REQUEST',
      httpStatus: 400,
      type: 'validation_error',
      errors: [{ field: 'limit', message: expect.any(String) }],
    });
    const mode = await failure(client.events.list.query({ mode: 'staging' as 'live' }));
    expect(mode.data?.errors).toEqual([{ field: 'mode', message: expect.any(String) }]);
    const cursor = await failure(client.events.list.query({ mode: 'test', cursor: 'tampered.cursor' }));
    expect(cursor.data).toMatchObject({ code: 'BAD_REQUEST', type: 'invalid_request_error' });
    expect(JSON.stringify(limit.shape)).not.toMatch(/stack|\.ts:\d+/);
  });
});

describe('event types and ingest endpoints', () => {
  it('sets an event type schema and lists it', async () => {
    const { client } = await signedIn();
    const schema = { type: 'object', required: ['total'] };
    const put = await client.eventTypes.putSchema.mutate({ mode: 'test', key: 'order.completed', schema });
    expect(put).toMatchObject({ key: 'order.completed', schema, events_count: 0 });
    const list = await client.eventTypes.list.query({ mode: 'test' });
    expect(list.data.map((t) => t.key)).toEqual(['order.completed']);
    expect((await client.eventTypes.list.query({ mode: 'live' })).data).toEqual([]);

    // A schema the service rejects is the same validation_error, raised by the service itself.
    const bad = await failure(
      client.eventTypes.putSchema.mutate({ mode: 'test', key: 'order.completed', schema: { type: 12 } }),
    );
    expect(bad.data).toMatchObject({
      code: 'BAD_REQUEST',
      type: 'validation_error',
      errors: [{ field: 'schema' }],
    });
  });

  it('creates, lists and deletes ingest endpoints in the chosen mode', async () => {
    const { client } = await signedIn();
    const created = await client.ingestEndpoints.create.mutate({
      mode: 'test',
      name: 'Shop',
      default_event_type: 'shop.sale',
    });
    expect(created).toMatchObject({
      name: 'Shop',
      mode: 'test',
      default_event_type: 'shop.sale',
      key: expect.stringMatching(/^ing_/),
      secret: expect.any(String),
    });
    const listed = await client.ingestEndpoints.list.query({ mode: 'test' });
    expect(listed.data).toEqual([expect.objectContaining({ id: created.id, name: 'Shop' })]);
    expect(listed.data[0]).not.toHaveProperty('secret');
    expect((await client.ingestEndpoints.list.query({ mode: 'live' })).data).toEqual([]);
    const wrongMode = await failure(client.ingestEndpoints.delete.mutate({ mode: 'live', id: created.id }));
    expect(wrongMode.data?.code).toBe('NOT_FOUND');
    expect(await client.ingestEndpoints.delete.mutate({ mode: 'test', id: created.id })).toEqual({
      id: created.id,
      deleted: true,
    });
    expect((await client.ingestEndpoints.list.query({ mode: 'test' })).data).toEqual([]);
  });
});

describe('transport', () => {
  it('answers an unknown procedure with NOT_FOUND and no stack', async () => {
    const res = await fetch(`${app.url}/trpc/events.nope`);
    expect(res.status).toBe(404);
    const body = await res.json();
    expect(body.error.data).toMatchObject({ code: 'NOT_FOUND', type: 'not_found' });
    expect(JSON.stringify(body)).not.toMatch(/stack/);
  });

  it('is typed for the dashboard: errors carry the domain type', async () => {
    const err = await failure(dashboard().client.auth.me.query());
    expect(err).toBeInstanceOf(TRPCClientError);
    const type: string | undefined = err.data?.type;
    expect(type).toBe('authentication_error');
  });
});
