import { GraphQLError } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskError } from '../src/schema/errors.ts';
import { graphqlClient } from './factories.ts';
import { type ApiResponse, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

/** POST /graphql with a key (the workspace's test key unless `key` is given; `null` sends none). */
function gql(
  w: TestWorkspace | null,
  query: string,
  variables: Record<string, unknown> = {},
  opts: { key?: string | null; mode?: 'live' | 'test'; base?: string } = {},
): Promise<ApiResponse> {
  return graphqlClient(app, w, opts)(query, variables);
}

const INGEST = /* GraphQL */ `
  mutation Ingest($input: IngestEventInput!) {
    ingestEvent(input: $input) { eventId status replayed }
  }
`;

const EVENTS = /* GraphQL */ `
  query Events($first: Int, $after: String, $last: Int, $before: String, $status: EventStatus,
               $eventType: String, $participant: String, $since: String) {
    events(first: $first, after: $after, last: $last, before: $before, status: $status,
           eventType: $eventType, participant: $participant, since: $since) {
      edges { cursor node { id eventType participant { externalId } payload status source isSandbox
                            idempotencyKey quarantineReason occurredAt receivedAt } }
      nodes { id }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    }
  }
`;

const EVENT = /* GraphQL */ `
  query Event($id: ID!) {
    event(id: $id) { id eventType participant { externalId } payload status isSandbox source }
  }
`;

async function ingest(w: TestWorkspace, input: Record<string, unknown>, mode: 'live' | 'test' = 'test') {
  const res = await gql(w, INGEST, { input }, { mode });
  expect(res.status).toBe(200);
  expect(res.body.errors).toBeUndefined();
  return res.body.data.ingestEvent as { eventId: string; status: string; replayed: boolean };
}

/** The first error of a GraphQL response (which must have no data for the failed root field). */
function firstError(res: ApiResponse) {
  expect(res.body.errors?.length).toBeGreaterThan(0);
  return res.body.errors[0] as { message: string; path?: string[]; extensions: Record<string, any> };
}

describe('ingestEvent then events', () => {
  it('reads ingested events back newest first, paging forward across pages and back again', async () => {
    const w = await app.workspace();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await ingest(w, {
        eventType: 'order.completed',
        participant: { externalId: `p${i}`, email: `p${i}@example.com` },
        payload: { total: i, nested: { snake_case: true } },
        occurredAt: '2026-11-22T10:00:00.000Z',
      });
      expect(r).toEqual({ eventId: expect.any(String), status: 'RECEIVED', replayed: false });
      ids.push(r.eventId);
    }

    const pages: any[] = [];
    let after: string | null = null;
    do {
      const res = await gql(w, EVENTS, { first: 2, after });
      expect(res.body.errors).toBeUndefined();
      pages.push(res.body.data.events);
      after = res.body.data.events.pageInfo.hasNextPage ? res.body.data.events.pageInfo.endCursor : null;
    } while (after);

    expect(pages.map((p) => p.edges.length)).toEqual([2, 2, 1]);
    expect(pages.flatMap((p) => p.edges.map((e: any) => e.node.id))).toEqual([...ids].reverse());
    expect(pages.flatMap((p) => p.nodes.map((n: any) => n.id))).toEqual([...ids].reverse());
    expect(pages[0].pageInfo).toEqual({
      hasNextPage: true,
      hasPreviousPage: false,
      startCursor: null,
      endCursor: expect.any(String),
    });
    expect(pages[2].pageInfo).toMatchObject({ hasNextPage: false, endCursor: null, hasPreviousPage: true });

    const newest = pages[0].edges[0];
    expect(newest.cursor).toBeNull();
    expect(newest.node).toEqual({
      id: ids[4],
      eventType: 'order.completed',
      participant: { externalId: 'p4' },
      payload: { total: 4, nested: { snake_case: true } },
      status: expect.stringMatching(/^(RECEIVED|PROCESSED)$/),
      source: 'api',
      isSandbox: true,
      idempotencyKey: null,
      quarantineReason: null,
      occurredAt: '2026-11-22T10:00:00.000Z',
      receivedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
    });

    // Back from the last page: `last` + `before: startCursor` is the page before it.
    const back = await gql(w, EVENTS, { last: 2, before: pages[2].pageInfo.startCursor });
    expect(back.body.data.events.nodes.map((n: any) => n.id)).toEqual(pages[1].nodes.map((n: any) => n.id));

    const one = await gql(w, EVENT, { id: ids[0] });
    expect(one.body.data.event).toMatchObject({
      id: ids[0],
      participant: { externalId: 'p0' },
      source: 'api',
    });
  });

  it('is the same event log REST reads', async () => {
    const w = await app.workspace();
    const { eventId } = await ingest(w, { eventType: 'same.log', participant: { externalId: 'alice' } });
    const rest = await w.api(`/v1/events/${eventId}`);
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({
      id: eventId,
      event_type: 'same.log',
      participant: { external_id: 'alice' },
    });
  });

  it('filters like GET /v1/events', async () => {
    const w = await app.workspace();
    await ingest(w, { eventType: 'f.keep', externalId: 'alice' });
    await ingest(w, { eventType: 'f.keep', externalId: 'bob' });
    await ingest(w, { eventType: 'f.other', externalId: 'alice' });
    await ingest(w, { externalId: 'alice' }); // quarantined: no event type
    const since = new Date(Date.now() - 60_000).toISOString();
    const kept = await gql(w, EVENTS, { eventType: 'f.keep', participant: 'alice', since });
    expect(
      kept.body.data.events.edges.map((e: any) => [e.node.eventType, e.node.participant.externalId]),
    ).toEqual([['f.keep', 'alice']]);
    const quarantined = await gql(w, EVENTS, { status: 'QUARANTINED' });
    expect(quarantined.body.data.events.edges).toHaveLength(1);
    expect(quarantined.body.data.events.edges[0].node).toMatchObject({
      status: 'QUARANTINED',
      quarantineReason: expect.stringContaining('event_type'),
    });
  });

  it('returns null for an unknown or malformed event id', async () => {
    const w = await app.workspace();
    for (const id of ['0190a5d2-0000-7000-8000-000000000000', 'not-a-uuid']) {
      const res = await gql(w, EVENT, { id });
      expect(res.body).toEqual({ data: { event: null } });
    }
  });

  it('lists event types as a connection', async () => {
    const w = await app.workspace();
    await ingest(w, { eventType: 'a.one', externalId: 'x' });
    await ingest(w, { eventType: 'a.one', externalId: 'y' });
    await ingest(w, { eventType: 'b.two', externalId: 'x' });
    const res = await gql(
      w,
      `{ eventTypes(first: 1) { nodes { key eventsCount schema } pageInfo { hasNextPage endCursor } } }`,
    );
    expect(res.body.data.eventTypes.nodes).toHaveLength(1);
    expect(res.body.data.eventTypes.pageInfo.hasNextPage).toBe(true);
    const rest = await gql(
      w,
      `query($after: String) { eventTypes(after: $after) { nodes { key eventsCount } } }`,
      {
        after: res.body.data.eventTypes.pageInfo.endCursor,
      },
    );
    const all = [...res.body.data.eventTypes.nodes, ...rest.body.data.eventTypes.nodes];
    expect(Object.fromEntries(all.map((t: any) => [t.key, t.eventsCount]))).toEqual({
      'a.one': 2,
      'b.two': 1,
    });
  });
});

describe('ingestEvent input', () => {
  it('accepts the shorthand: type for eventType and externalId for participant', async () => {
    const w = await app.workspace();
    const { eventId, status } = await ingest(w, { type: 'short.hand', externalId: 'carol' });
    expect(status).toBe('RECEIVED');
    const res = await gql(w, EVENT, { id: eventId });
    expect(res.body.data.event).toMatchObject({
      eventType: 'short.hand',
      participant: { externalId: 'carol' },
    });
  });

  it('quarantines an event without an event type, still answering with its id', async () => {
    const w = await app.workspace();
    const r = await ingest(w, { participant: { externalId: 'dave' } });
    expect(r.status).toBe('QUARANTINED');
  });

  it('replays an idempotency key: same eventId, replayed true, one event stored', async () => {
    const w = await app.workspace();
    const input = { eventType: 'idem.once', externalId: 'erin', idempotencyKey: 'order-42' };
    const first = await ingest(w, input);
    const again = await ingest(w, { ...input, payload: { ignored: true } });
    expect(first.replayed).toBe(false);
    expect(again).toMatchObject({ eventId: first.eventId, replayed: true });
    const list = await gql(w, EVENTS, { eventType: 'idem.once' });
    expect(list.body.data.events.nodes).toEqual([{ id: first.eventId }]);
    // The key is the same one REST uses: a REST retry replays the GraphQL event.
    const rest = await w.api('/v1/events', {
      body: { type: 'idem.once', participant: 'erin', idempotency_key: 'order-42' },
    });
    expect(rest.body.event_id).toBe(first.eventId);
    expect(rest.headers.get('idempotent-replayed')).toBe('true');
  });

  it('fails validation with extensions.code validation_error and field errors named as in GraphQL', async () => {
    const w = await app.workspace();
    const res = await gql(w, INGEST, {
      input: {
        eventType: 'not a valid type!',
        participant: { externalId: 'x'.repeat(300) },
        payload: [1, 2],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toBeNull();
    const err = firstError(res);
    expect(err.path).toEqual(['ingestEvent']);
    expect(err.extensions.code).toBe('validation_error');
    expect(err.extensions.errors).toEqual(
      expect.arrayContaining([
        { field: 'input.eventType', message: expect.any(String) },
        { field: 'input.participant.externalId', message: expect.any(String) },
        { field: 'input.payload', message: expect.any(String) },
      ]),
    );
    expect(JSON.stringify(res.body)).not.toMatch(/stack|at .*\.ts:\d+/);
  });

  it('rejects participant together with externalId, and conflicting type and eventType', async () => {
    const w = await app.workspace();
    const both = await gql(w, INGEST, {
      input: { participant: { externalId: 'a' }, externalId: 'b', type: 't.x' },
    });
    expect(firstError(both).extensions).toEqual({
      code: 'validation_error',
      errors: [{ field: 'input.externalId', message: 'conflicts with participant; send one of them' }],
    });
    const types = await gql(w, INGEST, { input: { eventType: 'a.b', type: 'c.d', externalId: 'a' } });
    expect(firstError(types).extensions.errors).toEqual([
      { field: 'input.type', message: expect.any(String) },
    ]);
  });

  it('names page arguments in validation errors and refuses a tampered cursor', async () => {
    const w = await app.workspace();
    const zero = await gql(w, EVENTS, { first: 0 });
    expect(firstError(zero).extensions).toMatchObject({
      code: 'validation_error',
      errors: [{ field: 'first', message: expect.any(String) }],
    });
    const since = await gql(w, EVENTS, { since: 'yesterday' });
    expect(firstError(since).extensions.errors).toEqual([{ field: 'since', message: expect.any(String) }]);
    const tampered = await gql(w, EVENTS, { after: 'eyJrIjoiYSIsImQiOiJuZXh0In0.AAAAAAAAAAAAAAAA' });
    expect(firstError(tampered).extensions.code).toBe('invalid_request_error');
  });
});

describe('authentication and abilities', () => {
  it('answers authentication_error without a key or with a bad one', async () => {
    const w = await app.workspace();
    for (const key of [null, 'svc_test_short', `svc_live_${'x'.repeat(40)}`]) {
      const res = await gql(w, EVENTS, {}, { key });
      expect(res.status).toBe(200);
      expect(res.body.data).toBeNull();
      expect(firstError(res).extensions.code).toBe('authentication_error');
    }
    const mutation = await gql(w, INGEST, { input: { type: 'a.b', externalId: 'x' } }, { key: null });
    expect(firstError(mutation).extensions.code).toBe('authentication_error');
  });

  it('answers authentication_error for a revoked key', async () => {
    const w = await app.workspace();
    const { revokeKey } = await import('../src/services/keys/manage-keys.ts');
    await revokeKey(app.ctx, w.keyIds.test);
    expect(firstError(await gql(w, EVENTS)).extensions.code).toBe('authentication_error');
  });

  it('answers permission_error when the key lacks events:read, and lets it ingest with events:write', async () => {
    const w = await app.workspace({ abilities: ['events:write'] });
    const { eventId } = await ingest(w, { type: 'perm.check', externalId: 'x' });
    expect(eventId).toEqual(expect.any(String));
    for (const query of [EVENTS, EVENT]) {
      const res = await gql(w, query, { id: eventId });
      expect(firstError(res).extensions).toEqual({
        code: 'permission_error',
        required_ability: 'events:read',
      });
    }
    const types = await gql(w, '{ eventTypes { nodes { key } } }');
    expect(firstError(types).extensions).toMatchObject({
      code: 'permission_error',
      required_ability: 'flows:read',
    });
  });

  it('answers permission_error when the key lacks events:write', async () => {
    const w = await app.workspace({ abilities: ['events:read'] });
    const res = await gql(w, INGEST, { input: { type: 'a.b', externalId: 'x' } });
    expect(firstError(res).extensions).toEqual({
      code: 'permission_error',
      required_ability: 'events:write',
    });
    expect((await gql(w, EVENTS)).body.data.events.edges).toEqual([]);
  });

  it('keeps modes apart: a live key never sees test events, nor another workspace', async () => {
    const w = await app.workspace();
    const other = await app.workspace();
    const { eventId } = await ingest(w, { type: 'sandbox.only', externalId: 'x' }, 'test');
    const live = await gql(w, EVENTS, {}, { mode: 'live' });
    expect(live.body.data.events.edges).toEqual([]);
    expect((await gql(w, EVENT, { id: eventId }, { mode: 'live' })).body.data.event).toBeNull();
    expect((await gql(other, EVENT, { id: eventId })).body.data.event).toBeNull();
    expect((await gql(other, EVENTS)).body.data.events.edges).toEqual([]);

    const liveEvent = await ingest(w, { type: 'live.one', externalId: 'x' }, 'live');
    const liveList = await gql(w, EVENTS, {}, { mode: 'live' });
    expect(liveList.body.data.events.edges.map((e: any) => [e.node.id, e.node.isSandbox])).toEqual([
      [liveEvent.eventId, false],
    ]);
    expect((await gql(w, EVENTS)).body.data.events.nodes).toEqual([{ id: eventId }]);
  });

  it('serves the schema to anyone (introspection needs no key)', async () => {
    const res = await gql(null, '{ __type(name: "Event") { fields { name } } }');
    expect(res.body.data.__type.fields.map((f: any) => f.name)).toContain('eventType');
  });
});

describe('transport', () => {
  it('serves GraphiQL outside production', async () => {
    const res = await fetch(`${app.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/graphiql/i);
  });

  it('counts a request once against the key rate limit and refuses over it; bodies are limited', async () => {
    const limited = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '2', MAX_BODY_BYTES: '4096' } });
    try {
      const w = await limited.workspace();
      const both = `{ events { nodes { id } } eventTypes { nodes { key } } }`;
      const base = limited.url;
      const first = await gql(w, both, {}, { base });
      expect(first.body.errors).toBeUndefined();
      expect(first.headers.get('ratelimit-limit')).toBe('2');
      expect((await gql(w, both, {}, { base })).body.errors).toBeUndefined();
      const third = await gql(w, both, {}, { base });
      expect(firstError(third).extensions.code).toBe('rate_limit_error');
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);

      const big = await gql(w, `{ events(eventType: "${'x'.repeat(5000)}") { nodes { id } } }`, {}, { base });
      expect(big.status).toBe(413);
      expect(big.body.error.type).toBe('payload_too_large');
    } finally {
      await limited.close();
    }
  });

  it('masks unexpected errors: no message, stack or cause reaches the client', () => {
    const leaked = new GraphQLError('boom', {
      path: ['events'],
      originalError: new Error('password authentication failed for user "postgres"'),
    });
    const masked = maskError(leaked, 'Unexpected error.') as GraphQLError;
    expect(masked.message).not.toContain('postgres');
    expect(masked.extensions).toEqual({ code: 'api_error' });
    expect(masked.path).toEqual(['events']);
    expect(JSON.stringify(masked.toJSON())).not.toMatch(/postgres|stack/);
  });
});
