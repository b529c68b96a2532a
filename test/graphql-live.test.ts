import { type Client, createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { MAX_SUBSCRIPTIONS_PER_SOCKET } from '../src/schema/socket.ts';
import { revokeKey } from '../src/services/keys/manage-keys.ts';
import { signParticipantToken } from '../src/services/keys/participant-token.ts';
import { graphqlClient } from './factories.ts';
import { eventually, startTestApp, TEST_SECRET, type TestApp, type TestWorkspace } from './helpers.ts';

let app: TestApp;
let ws: TestWorkspace;
const clients: Client[] = [];

beforeAll(async () => {
  app = await startTestApp();
  ws = await app.workspace();
  await adjust(ws, 'alice', 100);
  await adjust(ws, 'bob', 10);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await app?.close();
});

const adjust = (w: TestWorkspace, who: string, points: number, mode: 'test' | 'live' = 'test') =>
  w.api(`/v1/participants/${who}/points`, { body: { points, reason: 'live' }, mode });

const mint = async (w: TestWorkspace, who: string) =>
  (await w.api(`/v1/participants/${who}/tokens`, { body: {} })).body.token as string;

/** A real graphql-ws client; `closed` records the close code the server chose. */
function connect(authorization: string | undefined) {
  const closes: number[] = [];
  const client = createClient({
    url: `${app.url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: authorization === undefined ? {} : { authorization },
    retryAttempts: 0,
    lazy: false,
    onNonLazyError: () => {},
    on: { closed: (e) => closes.push((e as { code: number }).code) },
  });
  clients.push(client);
  return { client, closes };
}

/** Subscribes and collects what arrives. */
function watch(client: Client, query: string, variables: Record<string, unknown>) {
  const data: any[] = [];
  const errors: any[] = [];
  let completed = false;
  const stop = client.subscribe(
    { query, variables },
    {
      next: (r) => {
        if (r.errors) errors.push(...r.errors);
        if (r.data) data.push(r.data);
      },
      error: (e) => errors.push(...(Array.isArray(e) ? e : [e])),
      complete: () => {
        completed = true;
      },
    },
  );
  return {
    data,
    errors,
    stop,
    get completed() {
      return completed;
    },
  };
}

const BALANCE = `subscription($id: String!) {
  balanceChanged(externalId: $id) { externalId balance lifetimePoints entry { id points source balanceAfter } }
}`;
const BADGES = `subscription($id: String!) {
  badgeAwarded(externalId: $id) { externalId badge { key tier name } awardedAt flowRunId }
}`;

/** A GraphQL call over HTTP with `key` (an API key or a participant token); the response body. */
const gql = async (key: string, query: string) => (await graphqlClient(app, null, { key })(query)).body;

/** Waits until the hub serves `n` subscriptions (the subscribe round trip has finished). */
const subscribed = (n: number) => eventually(async () => app.ctx.live.size >= n);

describe('graphql-ws credentials', () => {
  it('closes with 4403 for a missing, unknown, revoked or expired credential', async () => {
    const revoked = await app.workspace();
    await revokeKey(app.ctx, revoked.keyIds.test);
    const expired = signParticipantToken(TEST_SECRET, {
      workspaceId: ws.id,
      workspaceSlug: ws.slug,
      mode: 'test',
      externalId: 'alice',
      keyId: ws.keyIds.test,
      expiresAt: Math.floor(Date.now() / 1000) - 1,
    });
    for (const authorization of [
      undefined,
      'Bearer svc_test_0000000000000000000000000000000000000000',
      `Bearer ${revoked.keys.test}`,
      `Bearer ${expired}`,
      `Bearer ${(await mint(ws, 'alice')).slice(0, -2)}xx`,
    ]) {
      const { closes } = connect(authorization);
      await eventually(async () => closes.length > 0);
      expect(closes[0], String(authorization)).toBe(4403);
    }
  });

  it('closes an open socket with 4403 within 5 s of its key being revoked', async () => {
    const w = await app.workspace();
    await adjust(w, 'carol', 1);
    const { client, closes } = connect(`Bearer ${w.keys.test}`);
    const n = app.ctx.live.size;
    const sub = watch(client, BALANCE, { id: 'carol' });
    await subscribed(n + 1);
    await adjust(w, 'carol', 1);
    await eventually(async () => sub.data.length === 1);
    await revokeKey(app.ctx, w.keyIds.test);
    const at = Date.now();
    await eventually(async () => closes.length > 0, 6_000);
    expect(closes[0]).toBe(4403);
    expect(Date.now() - at).toBeLessThan(5_000);
  });

  it('closes a participant token’s socket when its minting key is revoked', async () => {
    const w = await app.workspace();
    await adjust(w, 'dora', 1);
    const { client, closes } = connect(`Bearer ${await mint(w, 'dora')}`);
    watch(client, BALANCE, { id: 'dora' });
    await revokeKey(app.ctx, w.keyIds.test);
    await eventually(async () => closes.length > 0, 6_000);
    expect(closes[0]).toBe(4403);
  });
});

describe('balanceChanged and badgeAwarded', () => {
  it('sends each committed ledger entry to an API key with participants:read', async () => {
    const { client } = connect(`Bearer ${ws.keys.test}`);
    const n = app.ctx.live.size;
    const sub = watch(client, BALANCE, { id: 'alice' });
    await subscribed(n + 1);
    await adjust(ws, 'alice', 5);
    await adjust(ws, 'alice', -3);
    await eventually(async () => sub.data.length === 2);
    expect(sub.data.map((d) => d.balanceChanged)).toEqual([
      {
        externalId: 'alice',
        balance: 105,
        lifetimePoints: 105,
        entry: { id: expect.any(String), points: 5, source: 'adjustment', balanceAfter: 105 },
      },
      {
        externalId: 'alice',
        balance: 102,
        lifetimePoints: 105,
        entry: { id: expect.any(String), points: -3, source: 'adjustment', balanceAfter: 102 },
      },
    ]);
    sub.stop();
  });

  it('lets a participant token subscribe to its own participant only', async () => {
    const { client } = connect(`Bearer ${await mint(ws, 'bob')}`);
    const n = app.ctx.live.size;
    const own = watch(client, BALANCE, { id: 'bob' });
    const other = watch(client, BALANCE, { id: 'alice' });
    await subscribed(n + 1);
    await eventually(async () => other.errors.length > 0);
    expect(other.errors[0].extensions.code).toBe('permission_error');
    await adjust(ws, 'alice', 1);
    await adjust(ws, 'bob', 2);
    await eventually(async () => own.data.length === 1);
    expect(own.data[0].balanceChanged).toMatchObject({ externalId: 'bob', balance: 12 });
    expect(other.data).toEqual([]);
  });

  it('refuses a key without participants:read, and an unknown participant', async () => {
    const writer = await app.workspace({ abilities: ['events:write'] });
    const { client } = connect(`Bearer ${writer.keys.test}`);
    const refused = watch(client, BALANCE, { id: 'alice' });
    await eventually(async () => refused.errors.length > 0);
    expect(refused.errors[0].extensions.code).toBe('permission_error');
    const { client: reader } = connect(`Bearer ${ws.keys.test}`);
    const unknown = watch(reader, BALANCE, { id: 'nobody' });
    await eventually(async () => unknown.errors.length > 0);
    expect(unknown.errors[0].extensions.code).toBe('not_found');
  });

  it('sends a badge a flow awards in the worker', async () => {
    await ws.api('/v1/flows', {
      body: {
        name: 'welcome badge',
        event_type: 'signup.completed',
        actions: [{ type: 'award_badge', badge: 'welcome', tier: 'bronze' }],
      },
    });
    const { client } = connect(`Bearer ${ws.keys.test}`);
    const n = app.ctx.live.size;
    const sub = watch(client, BADGES, { id: 'bob' });
    await subscribed(n + 1);
    await ws.api('/v1/events', { body: { event_type: 'signup.completed', participant: 'bob' } });
    await eventually(async () => sub.data.length === 1, 10_000);
    expect(sub.data[0].badgeAwarded).toMatchObject({
      externalId: 'bob',
      badge: { key: 'welcome', tier: 'bronze' },
      flowRunId: expect.any(String),
    });
  });

  it(`refuses subscription number ${MAX_SUBSCRIPTIONS_PER_SOCKET + 1} on one socket`, async () => {
    const { client } = connect(`Bearer ${ws.keys.test}`);
    const subs = Array.from({ length: MAX_SUBSCRIPTIONS_PER_SOCKET + 1 }, () =>
      watch(client, BALANCE, { id: 'alice' }),
    );
    await eventually(async () => subs.some((s) => s.errors.length > 0));
    const refused = subs.filter((s) => s.errors.length > 0);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.errors[0].extensions.code).toBe('rate_limit_error');
    for (const s of subs) s.stop();
  });

  it('answers garbage instead of connection_init by closing the socket', async () => {
    const raw = new WebSocket(`${app.url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws');
    const code = await new Promise<number>((resolve) => {
      raw.on('open', () => raw.send('{"type":"connection_init","payload":"not an object"'));
      raw.on('close', (c) => resolve(c));
    });
    expect(code).toBe(4400);
  });
});

describe('participant tokens over HTTP', () => {
  it('read their own participant, the catalogue, badges and leaderboards, and nothing else', async () => {
    const token = await mint(ws, 'bob');
    const own = await gql(
      token,
      '{ participant(externalId: "bob") { externalId balance summary { rank } badges { key } ledger(first: 1) { nodes { points } } } }',
    );
    expect(own.errors).toBeUndefined();
    expect(own.data.participant).toMatchObject({ externalId: 'bob', balance: 12 });
    const catalogue = await gql(
      token,
      '{ rewards(participant: "bob") { name canAfford } badges { key } leaderboards { key } }',
    );
    expect(catalogue.errors).toBeUndefined();
    for (const refused of [
      '{ participant(externalId: "alice") { balance } }',
      '{ participants(first: 5) { nodes { externalId } } }',
      '{ rewards(participant: "alice") { name } }',
      'mutation { adjustPoints(externalId: "bob", points: 100, reason: "mine") { entry { id } } }',
      '{ events(first: 1) { nodes { id } } }',
    ]) {
      const res = await gql(token, refused);
      expect(res.errors?.[0]?.extensions?.code, `${refused}: ${JSON.stringify(res)}`).toBe(
        'permission_error',
      );
    }
  });
});
