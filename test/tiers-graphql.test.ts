import { type Client, createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { graphqlClient } from './factories.ts';
import {
  type ApiResponse,
  eventually,
  request,
  startTestApp,
  type TestApp,
  type TestWorkspace,
} from './helpers.ts';

// Tiers over GraphQL (docs/tiers.md): the programme, a participant's tier, history and manual level
// against the REST answers of the same services, participant tokens, and the live `tierChanged` over a
// real graphql-ws client. A one-second loyalty tick runs the tier job (the programme walk, DELETE).

let app: TestApp;
const clients: Client[] = [];

beforeAll(async () => {
  app = await startTestApp({ env: { LOYALTY_TICK_SECONDS: '1' } });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await app?.close();
});

let seq = 0;
const uid = (p: string) => `${p}-${++seq}-${Date.now().toString(36)}`;

/** The programme as GraphQL takes it, and as REST does. */
const LEVELS = [
  { key: 'bronze', name: 'Bronze', threshold: 0 },
  { key: 'silver', name: 'Silver', threshold: 100 },
  { key: 'gold', name: 'Gold', threshold: 500, earnMultiplier: 1.5, description: 'The top' },
];
const PROGRAMME = {
  qualification: { window: 'lifetime' },
  downgrade: { policy: 'none' },
  levels: LEVELS,
};
const REST_PROGRAMME = {
  qualification: { window: 'lifetime' },
  downgrade: { policy: 'none' },
  levels: [
    { key: 'bronze', name: 'Bronze', threshold: 0 },
    { key: 'silver', name: 'Silver', threshold: 100 },
    { key: 'gold', name: 'Gold', threshold: 500, earn_multiplier: 1.5, description: 'The top' },
  ],
};

const PROGRAMME_FIELDS = `qualification { window duration period } downgrade { policy grace }
  levels { key name threshold earnMultiplier description }`;
const TIER_FIELDS = `key name since qualifyingPoints next { key name pointsNeeded } retain { pointsNeeded by }`;
const MOVE_FIELDS = `id from { key name } to { key name } reason note qualifyingPoints at`;

const gqlOf = (ws: TestWorkspace, key?: string) => graphqlClient(app, ws, key === undefined ? {} : { key });

const firstError = (res: ApiResponse) => {
  expect(res.body.errors?.length, res.text).toBeGreaterThan(0);
  return res.body.errors[0] as { message: string; extensions: Record<string, any> };
};

const adjust = async (ws: TestWorkspace, id: string, points: number) => {
  const r = await ws.api(`/v1/participants/${id}/points`, { body: { points, reason: 'test' } });
  expect(r.status, r.text).toBe(201);
};

const mint = async (ws: TestWorkspace, who: string) =>
  (await ws.api(`/v1/participants/${who}/tokens`, { body: {} })).body.token as string;

/** Waits for the tier job to have applied the latest programme change. */
const applied = (ws: TestWorkspace) =>
  eventually(async () => {
    const { rows } = await app.ctx.pool.query(
      `select applied_version >= version as done from tier_programs where workspace_id = $1 and mode = 'test'`,
      [ws.id],
    );
    return rows[0]?.done ? true : null;
  }, 20_000);

/** A workspace running PROGRAMME, applied. */
async function withProgramme() {
  const ws = await app.workspace();
  const put = await ws.api('/v1/tiers', { method: 'PUT', body: REST_PROGRAMME });
  expect(put.status, put.text).toBe(200);
  await applied(ws);
  return ws;
}

/** REST's snake_case JSON in GraphQL's camelCase, at every level (the doors show the same values). */
const camel = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(camel)
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.entries(v).map(([k, x]) => [
            k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()),
            camel(x),
          ]),
        )
      : v;

describe('the tier programme over GraphQL', () => {
  it('puts, reads, previews and deletes it as REST does', async () => {
    const ws = await app.workspace();
    const gql = gqlOf(ws);
    expect((await gql.data<any>('{ tiers { levels { key } } }')).tiers).toBeNull();

    const { putTiers } = await gql.data<any>(
      `mutation ($input: TierProgrammeInput!) { putTiers(input: $input) { ${PROGRAMME_FIELDS} } }`,
      { input: PROGRAMME },
    );
    const rest = (await ws.api('/v1/tiers')).body;
    expect(putTiers).toEqual({
      ...(camel(rest) as object),
      // Optional REST fields left out are null fields here.
      qualification: { window: 'lifetime', duration: null, period: null },
      downgrade: { policy: 'none', grace: null },
    });
    expect(putTiers.levels[0]).toEqual({
      key: 'bronze',
      name: 'Bronze',
      threshold: 0,
      earnMultiplier: 1,
      description: null,
    });
    expect((await gql.data<any>(`{ tiers { ${PROGRAMME_FIELDS} } }`)).tiers).toEqual(putTiers);
    await applied(ws);

    // A rolling window and a grace, with `null` for the fields not given (GraphQL's "absent").
    const rolling = {
      qualification: { window: 'rolling', duration: 'P12M', period: null },
      downgrade: { policy: 'one_down', grace: 'P30D' },
      levels: [{ key: 'base', name: 'Base', threshold: 0, earnMultiplier: null, description: null }],
    };
    const preview = async (input: unknown) =>
      (
        await gql.data<any>(
          `mutation ($input: TierProgrammeInput!) {
            previewTiers(input: $input) { current { key count } proposed { key count } moves { from to count } }
          }`,
          { input },
        )
      ).previewTiers;
    for (const [id, points] of [
      [uid('a'), 50],
      [uid('b'), 150],
      [uid('c'), 600],
    ] as const)
      await adjust(ws, id, points);
    const lower = {
      ...PROGRAMME,
      levels: [
        { key: 'bronze', name: 'Bronze', threshold: 0 },
        { key: 'silver', name: 'Silver', threshold: 40 },
        { key: 'gold', name: 'Gold', threshold: 140 },
      ],
    };
    const restPreview = await ws.api('/v1/tiers/preview', {
      body: { ...REST_PROGRAMME, levels: lower.levels },
    });
    expect(restPreview.status, restPreview.text).toBe(200);
    const gqlPreview = await preview(lower);
    const asLists = (counts: Record<string, number>) =>
      Object.entries(counts).map(([key, count]) => ({ key, count }));
    expect(gqlPreview).toEqual({
      current: asLists(restPreview.body.current),
      proposed: asLists(restPreview.body.proposed),
      moves: restPreview.body.moves,
    });
    expect(gqlPreview.current).toEqual([
      { key: 'bronze', count: 1 },
      { key: 'silver', count: 1 },
      { key: 'gold', count: 1 },
    ]);
    // Nothing changed.
    expect((await gql.data<any>('{ tiers { levels { threshold } } }')).tiers.levels[1].threshold).toBe(100);
    expect((await preview(rolling)).proposed).toEqual([{ key: 'base', count: 3 }]);

    const { putTiers: second } = await gql.data<any>(
      `mutation ($input: TierProgrammeInput!) { putTiers(input: $input) { ${PROGRAMME_FIELDS} } }`,
      { input: rolling },
    );
    expect(second).toMatchObject({
      qualification: { window: 'rolling', duration: 'P12M', period: null },
      downgrade: { policy: 'one_down', grace: 'P30D' },
      levels: [{ key: 'base', earnMultiplier: 1, description: null }],
    });
    expect((await ws.api('/v1/tiers')).body).toMatchObject({
      qualification: { window: 'rolling', duration: 'P12M' },
    });

    expect((await gql.data<any>('mutation { deleteTiers { deleted } }')).deleteTiers).toEqual({
      deleted: true,
    });
    expect((await gql.data<any>('{ tiers { levels { key } } }')).tiers).toBeNull();
    expect((await ws.api('/v1/tiers')).body).toBeNull();
    expect(firstError(await gql('mutation { deleteTiers { deleted } }')).extensions.code).toBe('not_found');
  });

  it('refuses an invalid programme with validation_error naming the field, and changes nothing', async () => {
    const ws = await app.workspace();
    const gql = gqlOf(ws);
    const put = (input: unknown) =>
      gql(`mutation ($input: TierProgrammeInput!) { putTiers(input: $input) { levels { key } } }`, { input });
    const cases: [unknown, string][] = [
      [{ ...PROGRAMME, levels: [{ key: 'a', name: 'A', threshold: 10 }] }, 'levels.0.threshold'],
      [
        {
          ...PROGRAMME,
          levels: [
            { key: 'a', name: 'A', threshold: 0 },
            { key: 'a', name: 'B', threshold: 5 },
          ],
        },
        'levels.1.key',
      ],
      [{ ...PROGRAMME, levels: [] }, 'levels'],
      [{ ...PROGRAMME, qualification: { window: 'rolling' } }, 'qualification.duration'],
      [{ ...PROGRAMME, qualification: { window: 'lifetime', period: 'month' } }, 'qualification.period'],
      [{ ...PROGRAMME, downgrade: { policy: 'one_down', grace: 'soon' } }, 'downgrade.grace'],
      [
        { ...PROGRAMME, levels: [{ key: 'a', name: 'A', threshold: 0, earnMultiplier: 11 }] },
        'levels.0.earnMultiplier',
      ],
      [{ ...PROGRAMME, levels: [{ key: 'a b', name: 'A', threshold: 0 }] }, 'levels.0.key'],
      [{ ...PROGRAMME, levels: [{ key: 'a', name: 'A\u0000', threshold: 0 }] }, 'levels.0.name'],
    ];
    for (const [input, field] of cases) {
      const e = firstError(await put(input));
      expect(e.extensions.code, JSON.stringify(input)).toBe('validation_error');
      expect(
        e.extensions.errors.map((x: { field: string }) => x.field).join(' '),
        JSON.stringify(input),
      ).toContain(field);
    }
    // An enum value GraphQL does not know is refused before the service.
    const bad = await put({ ...PROGRAMME, downgrade: { policy: 'sometimes' } });
    expect(bad.body.errors?.length).toBeGreaterThan(0);
    expect(bad.status).toBeLessThan(500);
    expect((await ws.api('/v1/tiers')).body).toBeNull();
  });

  it('needs flows:write to change or preview it; any key reads it', async () => {
    const reader = await app.workspace({ abilities: ['participants:read'] });
    const gql = gqlOf(reader);
    for (const refused of [
      'mutation ($input: TierProgrammeInput!) { putTiers(input: $input) { levels { key } } }',
      'mutation ($input: TierProgrammeInput!) { previewTiers(input: $input) { moves { count } } }',
    ]) {
      const res = await gql(refused, { input: PROGRAMME });
      expect(firstError(res).extensions.code).toBe('permission_error');
      expect(res.body.data).toBeNull();
    }
    expect(firstError(await gql('mutation { deleteTiers { deleted } }')).extensions.code).toBe(
      'permission_error',
    );
    expect((await gql.data<any>('{ tiers { levels { key } } }')).tiers).toBeNull();
  });
});

describe('a participant’s tier over GraphQL', () => {
  it('reads the tier, the summary’s tier and the history as REST shows them', async () => {
    const ws = await withProgramme();
    const a = uid('a');
    await adjust(ws, a, 40);
    await adjust(ws, a, 100);
    await adjust(ws, a, 500);
    const { participant } = await gqlOf(ws).data<any>(
      `query ($id: String!) {
        participant(externalId: $id) {
          tier { ${TIER_FIELDS} }
          summary { tier { key name qualifyingPoints } }
          tierHistory(first: 10) { nodes { ${MOVE_FIELDS} } pageInfo { hasNextPage endCursor } }
        }
      }`,
      { id: a },
    );
    const rest = (await ws.api(`/v1/participants/${a}`)).body;
    expect(participant.tier).toEqual(camel(rest.tier));
    expect(participant.tier).toMatchObject({ key: 'gold', qualifyingPoints: 640, next: null, retain: null });
    expect(participant.summary.tier).toEqual({ key: 'gold', name: 'Gold', qualifyingPoints: 640 });
    expect(camel((await ws.api(`/v1/participants/${a}/summary`)).body.tier)).toEqual(participant.tier);
    const history = (await ws.api(`/v1/participants/${a}/tier-history`)).body.data;
    expect(participant.tierHistory.nodes).toEqual(camel(history));
    expect(participant.tierHistory.nodes.map((m: any) => `${m.from.key}>${m.to.key}:${m.reason}`)).toEqual([
      'silver>gold:qualified',
      'bronze>silver:qualified',
    ]);
    expect(participant.tierHistory.pageInfo.hasNextPage).toBe(false);

    // Pages, newest first.
    const page = (after?: string) =>
      gqlOf(ws).data<any>(
        `query ($id: String!, $after: String) {
          participant(externalId: $id) { tierHistory(first: 1, after: $after) { nodes { id } pageInfo { hasNextPage endCursor } } }
        }`,
        { id: a, after },
      );
    const one = (await page()).participant.tierHistory;
    expect(one.nodes).toEqual([{ id: history[0].id }]);
    expect(one.pageInfo.hasNextPage).toBe(true);
    const two = (await page(one.pageInfo.endCursor)).participant.tierHistory;
    expect(two.nodes).toEqual([{ id: history[1].id }]);
    const tooMany = await gqlOf(ws)(
      'query ($id: String!) { participant(externalId: $id) { tierHistory(first: 0) { nodes { id } } } }',
      { id: a },
    );
    expect(firstError(tooMany).extensions.code).toBe('validation_error');
  });

  it('is null without a programme, on the participant and its summary', async () => {
    const ws = await app.workspace();
    await adjust(ws, 'nobody-tiered', 10);
    const { participant } = await gqlOf(ws).data<any>(
      '{ participant(externalId: "nobody-tiered") { tier { key } summary { tier { key } } tierHistory { nodes { id } } } }',
    );
    expect(participant).toEqual({ tier: null, summary: { tier: null }, tierHistory: { nodes: [] } });
  });

  it('sets a level by hand with the operator’s note; refuses unknown keys, participants and keys without points:adjust', async () => {
    const ws = await withProgramme();
    const a = uid('a');
    await adjust(ws, a, 10);
    const set = (id: string, input: unknown, key?: string) =>
      gqlOf(ws, key)(
        `mutation ($id: String!, $input: SetParticipantTierInput!) {
          setParticipantTier(externalId: $id, input: $input) { ${TIER_FIELDS} }
        }`,
        { id, input },
      );
    const res = await set(a, { key: 'gold', reason: 'VIP launch guest' });
    expect(res.body.errors, res.text).toBeUndefined();
    expect(res.body.data.setParticipantTier).toMatchObject({
      key: 'gold',
      name: 'Gold',
      qualifyingPoints: 10,
    });
    expect(res.body.data.setParticipantTier).toEqual(
      camel((await ws.api(`/v1/participants/${a}`)).body.tier),
    );
    const history = (await ws.api(`/v1/participants/${a}/tier-history`)).body.data;
    expect(history[0]).toMatchObject({ reason: 'manual', note: 'VIP launch guest', to: { key: 'gold' } });

    let e = firstError(await set(a, { key: 'platinum', reason: 'x' }));
    expect(e.extensions.code).toBe('validation_error');
    expect(e.extensions.errors[0].field).toContain('key');
    e = firstError(await set(a, { key: 'gold', reason: '' }));
    expect(e.extensions.code).toBe('validation_error');
    expect(firstError(await set(uid('nobody'), { key: 'gold', reason: 'x' })).extensions.code).toBe(
      'not_found',
    );
    e = firstError(await set('a\u0000b', { key: 'gold', reason: 'x' }));
    expect(e.extensions).toMatchObject({ code: 'validation_error', errors: [{ field: 'externalId' }] });
    const reader = await app.workspace({ abilities: ['participants:read', 'flows:write'] });
    e = firstError(await set(a, { key: 'gold', reason: 'x' }, reader.keys.test));
    expect(e.extensions.code).toBe('permission_error');
  });

  it('lets a participant token read its own tier and history, and nothing of another’s', async () => {
    const ws = await withProgramme();
    const mine = uid('me');
    const theirs = uid('them');
    await adjust(ws, mine, 150);
    await adjust(ws, theirs, 600);
    const token = await mint(ws, mine);
    const asToken = gqlOf(ws, token);
    const own = await asToken.data<any>(
      `query ($id: String!) {
        participant(externalId: $id) { tier { key qualifyingPoints next { key pointsNeeded } } tierHistory { nodes { reason to { key } } } }
        tiers { levels { key } }
      }`,
      { id: mine },
    );
    expect(own.participant).toEqual({
      tier: { key: 'silver', qualifyingPoints: 150, next: { key: 'gold', pointsNeeded: 350 } },
      tierHistory: { nodes: [{ reason: 'qualified', to: { key: 'silver' } }] },
    });
    expect(own.tiers.levels.map((l: { key: string }) => l.key)).toEqual(['bronze', 'silver', 'gold']);
    for (const refused of [
      `{ participant(externalId: "${theirs}") { tier { key } } }`,
      `{ participant(externalId: "${theirs}") { externalId } }`,
      `mutation { setParticipantTier(externalId: "${mine}", input: { key: "gold", reason: "mine" }) { key } }`,
      'mutation { deleteTiers { deleted } }',
    ]) {
      const res = await asToken(refused);
      expect(firstError(res).extensions.code, refused).toBe('permission_error');
      expect(res.text).not.toContain('gold"');
    }
  });
});

/** A real graphql-ws client on the app's /graphql. */
function connect(authorization: string) {
  const client = createClient({
    url: `${app.url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization },
    retryAttempts: 0,
    lazy: false,
    onNonLazyError: () => {},
  });
  clients.push(client);
  return client;
}

/** Subscribes and collects what arrives. */
function watch(client: Client, variables: Record<string, unknown>) {
  const data: any[] = [];
  const errors: any[] = [];
  const stop = client.subscribe(
    {
      query: `subscription ($id: String!, $after: ID) {
        tierChanged(externalId: $id, after: $after) { externalId from { key name } to { key name } reason qualifyingPoints }
      }`,
      variables,
    },
    {
      next: (r) => {
        if (r.errors) errors.push(...r.errors);
        if (r.data) data.push(r.data.tierChanged);
      },
      error: (e) => errors.push(...(Array.isArray(e) ? e : [e])),
      complete: () => {},
    },
  );
  return { data, errors, stop };
}

/** Waits until the hub serves `n` subscriptions (the subscribe round trip has finished). */
const subscribed = (n: number) => eventually(async () => app.ctx.live.size >= n);

describe('tierChanged over graphql-ws', () => {
  it('sends every move of the participant after it commits, in commit order, whoever made it', async () => {
    const ws = await withProgramme();
    const a = uid('a');
    await adjust(ws, a, 10);
    const n = app.ctx.live.size;
    const sub = watch(connect(`Bearer ${ws.keys.test}`), { id: a });
    await subscribed(n + 1);
    await adjust(ws, a, 100); // bronze → silver, in the credit's transaction
    await adjust(ws, a, 900); // silver → gold
    const set = await ws.api(`/v1/participants/${a}/tier`, {
      method: 'PUT',
      body: { key: 'silver', reason: 'corrected by hand' },
    });
    expect(set.status, set.text).toBe(200);
    // The tier job (another unit of work, the worker's) ends the programme for everyone.
    expect((await ws.api('/v1/tiers', { method: 'DELETE' })).status).toBe(200);
    await eventually(async () => sub.data.length >= 4, 20_000);
    expect(sub.errors).toEqual([]);
    expect(sub.data).toEqual([
      {
        externalId: a,
        from: { key: 'bronze', name: 'Bronze' },
        to: { key: 'silver', name: 'Silver' },
        reason: 'qualified',
        qualifyingPoints: 110,
      },
      {
        externalId: a,
        from: { key: 'silver', name: 'Silver' },
        to: { key: 'gold', name: 'Gold' },
        reason: 'qualified',
        qualifyingPoints: 1010,
      },
      {
        externalId: a,
        from: { key: 'gold', name: 'Gold' },
        to: { key: 'silver', name: 'Silver' },
        reason: 'manual',
        qualifyingPoints: 1010,
      },
      {
        externalId: a,
        from: { key: 'silver', name: 'Silver' },
        to: null,
        reason: 'programme_change',
        qualifyingPoints: 1010,
      },
    ]);
    // The same moves, in the same order, as the history lists them (newest first there).
    const history = (await ws.api(`/v1/participants/${a}/tier-history`)).body.data.reverse();
    expect(sub.data.map((d) => [d.from?.key ?? null, d.to?.key ?? null, d.reason])).toEqual(
      history.map((m: any) => [m.from?.key ?? null, m.to?.key ?? null, m.reason]),
    );
    sub.stop();
  });

  it('resumes after a move id, so a move committed before the subscription is not missed', async () => {
    const ws = await withProgramme();
    const a = uid('a');
    await adjust(ws, a, 150);
    const before = (await ws.api(`/v1/participants/${a}/tier-history`)).body.data[0];
    await adjust(ws, a, 400); // silver → gold, committed before anyone subscribes
    const n = app.ctx.live.size;
    const sub = watch(connect(`Bearer ${ws.keys.test}`), { id: a, after: before.id });
    await subscribed(n + 1);
    await eventually(async () => sub.data.length === 1);
    expect(sub.data[0]).toMatchObject({ from: { key: 'silver' }, to: { key: 'gold' }, reason: 'qualified' });
    const bad = watch(connect(`Bearer ${ws.keys.test}`), { id: a, after: 'x' });
    await eventually(async () => bad.errors.length > 0);
    expect(bad.errors[0].extensions.code).toBe('validation_error');
    sub.stop();
  });

  it('lets a participant token follow its own participant only; another’s is permission_error and nothing is sent', async () => {
    const ws = await withProgramme();
    const mine = uid('me');
    const theirs = uid('them');
    await adjust(ws, mine, 1);
    await adjust(ws, theirs, 1);
    const client = connect(`Bearer ${await mint(ws, mine)}`);
    const n = app.ctx.live.size;
    const own = watch(client, { id: mine });
    const other = watch(client, { id: theirs });
    await subscribed(n + 1);
    await eventually(async () => other.errors.length > 0);
    expect(other.errors[0].extensions.code).toBe('permission_error');
    await adjust(ws, theirs, 200);
    await adjust(ws, mine, 120);
    await eventually(async () => own.data.length === 1);
    expect(own.data[0]).toMatchObject({ externalId: mine, to: { key: 'silver' }, qualifyingPoints: 121 });
    expect(other.data).toEqual([]);
    own.stop();
  });

  it('refuses a key without participants:read, and an unknown participant', async () => {
    const ws = await withProgramme();
    await adjust(ws, 'known', 1);
    const writer = await app.workspace({ abilities: ['events:write'] });
    const refused = watch(connect(`Bearer ${writer.keys.test}`), { id: 'known' });
    await eventually(async () => refused.errors.length > 0);
    expect(refused.errors[0].extensions.code).toBe('permission_error');
    const unknown = watch(connect(`Bearer ${ws.keys.test}`), { id: 'nobody' });
    await eventually(async () => unknown.errors.length > 0);
    expect(unknown.errors[0].extensions.code).toBe('not_found');
    // Another workspace's participant of the same name is unknown here.
    const other = await app.workspace();
    const isolated = watch(connect(`Bearer ${other.keys.test}`), { id: 'known' });
    await eventually(async () => isolated.errors.length > 0);
    expect(isolated.errors[0].extensions.code).toBe('not_found');
  });
});

describe('the widget', () => {
  it('serves a bundle that shows the tier and follows tierChanged, with nothing from another origin', async () => {
    const res = await request(app.url, '/widget.js');
    expect(res.status).toBe(200);
    expect(res.text).toContain('tierChanged(externalId: $id, after: $after)');
    expect(res.text).toContain('pointsNeeded');
    expect(res.text).toContain('part="tier"');
    expect(res.text).not.toMatch(/https?:\/\//);
  });
});
