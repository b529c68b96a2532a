import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlClient } from './factories.ts';
import { type ApiResponse, eventually, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

// Achievements over GraphQL (docs/engagement.md#achievements): a participant's progress against the
// REST answer of the same service, participant tokens, and a badge's backfill (dry run and queued).

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

let seq = 0;
const uid = (p: string) => `${p}-${++seq}-${Date.now().toString(36)}`;

const COUNT3 = { event_type: 'order.completed', aggregate: 'count', window: 'all_time', target: 3 };
const ACHIEVEMENT_FIELDS = 'badge { key tier name } progress target percent completedAt';

const gqlOf = (ws: TestWorkspace, key?: string) => graphqlClient(app, ws, key === undefined ? {} : { key });

const firstError = (res: ApiResponse) => {
  expect(res.body.errors?.length, res.text).toBeGreaterThan(0);
  return res.body.errors[0] as { message: string; extensions: Record<string, any> };
};

/** REST's snake_case JSON in GraphQL's camelCase, at every level. */
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

const defineBadge = async (ws: TestWorkspace, body: Record<string, unknown>) => {
  const r = await ws.api('/v1/badges', { body: { name: 'A badge', ...body } });
  expect([200, 201], r.text).toContain(r.status);
};

/** Posts an event and waits until it is processed. */
const post = async (ws: TestWorkspace, participant: string, payload: Record<string, unknown> = {}) => {
  const r = await ws.api('/v1/events', {
    body: { event_type: 'order.completed', participant: { external_id: participant }, payload },
  });
  expect(r.status, r.text).toBe(202);
  const id = r.body.event_id as string;
  await eventually(async () => (await ws.api(`/v1/events/${id}`)).body.status === 'processed', 15_000);
};

const mint = async (ws: TestWorkspace, who: string) =>
  (await ws.api(`/v1/participants/${who}/tokens`, { body: {} })).body.token as string;

describe('a participant’s achievements over GraphQL', () => {
  it('reads the progress toward every badge with criteria as REST shows it', async () => {
    const ws = await app.workspace();
    await defineBadge(ws, { key: 'regular', name: 'Regular', criteria: COUNT3 });
    await defineBadge(ws, {
      key: 'spender',
      name: 'Big spender',
      tiers: ['gold'],
      criteria: { ...COUNT3, aggregate: 'sum', field: 'total', target: 100.5, tier: 'gold' },
    });
    await defineBadge(ws, { key: 'plain', name: 'No criteria' });
    const a = uid('a');
    const b = uid('b');
    await post(ws, a, { total: 20 });
    await post(ws, a, { total: 'n/a' });
    for (let i = 0; i < 3; i++) await post(ws, b, { total: 40 });
    const read = (id: string) =>
      gqlOf(ws).data<any>(
        `query ($id: String!) { participant(externalId: $id) { achievements { ${ACHIEVEMENT_FIELDS} } } }`,
        { id },
      );
    const mine = (await read(a)).participant.achievements;
    expect(mine).toEqual(camel((await ws.api(`/v1/participants/${a}/achievements`)).body.data));
    expect(mine).toEqual([
      {
        badge: { key: 'regular', tier: null, name: 'Regular' },
        progress: 2,
        target: 3,
        percent: 66,
        completedAt: null,
      },
      {
        badge: { key: 'spender', tier: 'gold', name: 'Big spender' },
        progress: 20,
        target: 100.5,
        percent: 19,
        completedAt: null,
      },
    ]);
    const theirs = (await read(b)).participant.achievements;
    expect(theirs).toEqual(camel((await ws.api(`/v1/participants/${b}/achievements`)).body.data));
    expect(theirs.map((x: any) => [x.badge.key, x.percent, typeof x.completedAt])).toEqual([
      ['regular', 100, 'string'],
      ['spender', 100, 'string'],
    ]);
  });

  it('lets a participant token read its own achievements, and nothing of another’s; needs participants:read', async () => {
    const ws = await app.workspace();
    await defineBadge(ws, { key: 'regular', criteria: COUNT3 });
    const mine = uid('me');
    const theirs = uid('them');
    await post(ws, mine);
    await post(ws, theirs);
    await post(ws, theirs);
    const asToken = gqlOf(ws, await mint(ws, mine));
    const own = await asToken.data<any>(
      'query ($id: String!) { participant(externalId: $id) { achievements { badge { key } progress percent } } }',
      { id: mine },
    );
    expect(own.participant.achievements).toEqual([{ badge: { key: 'regular' }, progress: 1, percent: 33 }]);
    for (const refused of [
      `{ participant(externalId: "${theirs}") { achievements { progress } } }`,
      'mutation { backfillBadge(key: "regular", dryRun: true) { wouldAward } }',
    ]) {
      const res = await asToken(refused);
      expect(firstError(res).extensions.code, refused).toBe('permission_error');
      expect(res.text).not.toContain('"progress":2');
    }
    const flows = await app.workspace({ abilities: ['flows:read', 'flows:write'] });
    await defineBadge(flows, { key: 'regular', criteria: COUNT3 });
    const res = await gqlOf(flows)(`{ participant(externalId: "${mine}") { achievements { progress } } }`);
    expect(firstError(res).extensions.code).toBe('permission_error');
  });
});

describe('backfillBadge over GraphQL', () => {
  it('counts in a dry run, then queues the awards to every participant who already meets the criteria', async () => {
    const ws = await app.workspace();
    const gql = gqlOf(ws);
    await defineBadge(ws, { key: 'regular', name: 'Regular' });
    const met = [uid('m'), uid('m')];
    const short = uid('s');
    for (const p of met) for (let i = 0; i < 3; i++) await post(ws, p);
    await post(ws, short);
    // Criteria set afterwards award nothing by themselves.
    await defineBadge(ws, { key: 'regular', name: 'Regular', criteria: COUNT3 });
    const backfill = (dryRun?: boolean) =>
      gql.data<any>(
        'mutation ($dryRun: Boolean) { backfillBadge(key: "regular", dryRun: $dryRun) { wouldAward queued } }',
        {
          dryRun,
        },
      );
    expect((await backfill(true)).backfillBadge).toEqual({ wouldAward: 2, queued: false });
    expect((await ws.api('/v1/badges/regular/backfill', { body: { dry_run: true } })).body).toEqual({
      would_award: 2,
    });
    expect((await backfill()).backfillBadge).toEqual({ wouldAward: null, queued: true });
    for (const p of met)
      await eventually(async () => {
        const held = (await ws.api(`/v1/participants/${p}/badges`)).body.data as { key: string }[];
        return held.some((b) => b.key === 'regular');
      }, 15_000);
    expect((await ws.api(`/v1/participants/${short}/badges`)).body.data).toEqual([]);
    expect((await backfill(true)).backfillBadge).toEqual({ wouldAward: 0, queued: false });
  });

  it('refuses an unknown badge, one without criteria, a malformed key and a key without flows:write', async () => {
    const ws = await app.workspace();
    await defineBadge(ws, { key: 'plain' });
    const gql = gqlOf(ws);
    const call = (key: string, dryRun = true, as = gql) =>
      as(
        'mutation ($key: String!, $dryRun: Boolean) { backfillBadge(key: $key, dryRun: $dryRun) { wouldAward } }',
        {
          key,
          dryRun,
        },
      );
    expect(firstError(await call('nope')).extensions.code).toBe('not_found');
    expect(firstError(await call('plain', false)).extensions.code).toBe('invalid_state');
    for (const key of ['a\u0000b', '\ud800', 'x'.repeat(300)]) {
      const e = firstError(await call(key));
      expect(e.extensions).toMatchObject({ code: 'validation_error', errors: [{ field: 'key' }] });
    }
    const reader = await app.workspace({ abilities: ['flows:read', 'participants:read'] });
    await defineBadge(ws, { key: 'regular', criteria: COUNT3 });
    expect(firstError(await call('regular', true, gqlOf(reader))).extensions.code).toBe('permission_error');
  });
});

describe('badges with criteria over GraphQL', () => {
  it('defines a badge with criteria and lists it with its rarity, as REST does; bad criteria name their field', async () => {
    const ws = await app.workspace();
    const gql = gqlOf(ws);
    const defined = await gql.data<any>(
      `mutation ($input: DefineBadgeInput!) { defineBadge(input: $input) { created badge { key criteria } } }`,
      { input: { key: 'regular', name: 'Regular', criteria: COUNT3 } },
    );
    expect(defined.defineBadge).toEqual({
      created: true,
      badge: { key: 'regular', criteria: { ...COUNT3, field: null, where: null, tier: null } },
    });
    await post(ws, uid('a'));
    await post(ws, uid('b'));
    const list = await gql.data<any>('{ badges { key criteria holdersCount holdersPercent } }');
    const rest = (await ws.api('/v1/badges')).body.data;
    expect(list.badges).toEqual(
      rest.map((b: any) => ({
        key: b.key,
        criteria: b.criteria,
        holdersCount: b.holders_count,
        holdersPercent: b.holders_percent,
      })),
    );
    expect(list.badges).toEqual([
      { key: 'regular', criteria: expect.any(Object), holdersCount: 0, holdersPercent: 0 },
    ]);
    const bad = await gql(`mutation ($input: DefineBadgeInput!) { defineBadge(input: $input) { created } }`, {
      input: { key: 'x', name: 'X', criteria: { ...COUNT3, aggregate: 'sum' } },
    });
    const err = firstError(bad);
    expect(err.extensions.code).toBe('validation_error');
    expect(JSON.stringify(err.extensions)).toContain('criteria.field');
  });
});
