import { type Client, createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { issueKey } from '../src/services/keys/manage-keys.ts';
import { runStreakTick } from '../src/services/streaks/tick.ts';
import { graphqlClient } from './factories.ts';
import {
  type ApiResponse,
  eventually,
  request,
  startTestApp,
  type TestApp,
  type TestWorkspace,
} from './helpers.ts';

// Streaks over GraphQL (docs/engagement.md#streaks): definitions and a participant's streaks against
// the REST answers of the same services, the participant's time zone, participant tokens, and the
// live `streakChanged` over a real graphql-ws client. Events carry an `occurred_at` in 2031, so the
// app's own one-second streak job (at real now) leaves them alone; the job is run here with a
// chosen now to freeze and break them.

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

const STREAK_FIELDS =
  'key name eventTypes frequency freezes { initial max earnEvery } archivedAt createdAt updatedAt';
const PARTICIPANT_STREAK_FIELDS = `key name frequency length longest periodStart periodEnd extendedThisPeriod atRisk
  freezes expiresAt history { periodStart status }`;

const gqlOf = (ws: TestWorkspace, key?: string) => graphqlClient(app, ws, key === undefined ? {} : { key });

const firstError = (res: ApiResponse) => {
  expect(res.body.errors?.length, res.text).toBeGreaterThan(0);
  return res.body.errors[0] as { message: string; extensions: Record<string, any> };
};

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

const defineStreak = async (ws: TestWorkspace, over: Record<string, unknown> = {}) => {
  const key = (over.key as string) ?? uid('s');
  const r = await ws.api('/v1/streaks', {
    body: { key, name: 'Daily workout', event_types: ['workout'], frequency: 'daily', ...over },
  });
  expect(r.status, r.text).toBe(201);
  return key;
};

/** Sends one event and waits for it to be processed. */
const send = async (ws: TestWorkspace, participant: string, occurredAt: string, type = 'workout') => {
  const r = await ws.api('/v1/events', {
    body: {
      event_type: type,
      participant: { external_id: participant },
      payload: {},
      occurred_at: occurredAt,
    },
  });
  expect(r.status, r.text).toBe(202);
  const id = r.body.event_id as string;
  return eventually(async () => {
    const e = await ws.api(`/v1/events/${id}`);
    return e.body.status === 'processed' ? e.body : null;
  }, 15_000);
};

const mint = async (ws: TestWorkspace, who: string) =>
  (await ws.api(`/v1/participants/${who}/tokens`, { body: {} })).body.token as string;

describe('streak definitions over GraphQL', () => {
  it('creates, lists, reads, changes and archives them as REST does', async () => {
    const ws = await app.workspace();
    const gql = gqlOf(ws);
    const { createStreak } = await gql.data<any>(
      `mutation ($input: CreateStreakInput!) { createStreak(input: $input) { ${STREAK_FIELDS} } }`,
      {
        input: {
          key: 'daily',
          name: 'Daily',
          eventTypes: ['workout', 'workout'],
          frequency: 'daily',
          freezes: { initial: 1, max: 3, earnEvery: 7 },
        },
      },
    );
    expect(createStreak).toEqual(camel((await ws.api('/v1/streaks/daily')).body));
    expect(createStreak).toMatchObject({
      key: 'daily',
      eventTypes: ['workout'],
      frequency: 'daily',
      freezes: { initial: 1, max: 3, earnEvery: 7 },
      archivedAt: null,
    });
    // Freezes left out (or null) are none, as on POST.
    const { createStreak: weekly } = await gql.data<any>(
      `mutation { createStreak(input: { key: "weekly", name: "Weekly", eventTypes: ["run"], frequency: weekly, freezes: null }) {
        key frequency freezes { initial max earnEvery } } }`,
    );
    expect(weekly).toEqual({
      key: 'weekly',
      frequency: 'weekly',
      freezes: { initial: 0, max: 0, earnEvery: null },
    });

    const list = (await gql.data<any>(`{ streaks { ${STREAK_FIELDS} } }`)).streaks;
    expect(list).toEqual(camel((await ws.api('/v1/streaks')).body.data));
    expect(list.map((s: { key: string }) => s.key).sort()).toEqual(['daily', 'weekly']);
    expect((await gql.data<any>('{ streak(key: "daily") { key name } }')).streak).toEqual({
      key: 'daily',
      name: 'Daily',
    });
    expect((await gql.data<any>('{ streak(key: "nope") { key } }')).streak).toBeNull();

    const { updateStreak } = await gql.data<any>(
      `mutation { updateStreak(key: "daily", input: { name: "Every day", eventTypes: ["workout", "run"], freezes: null }) {
        ${STREAK_FIELDS} } }`,
    );
    expect(updateStreak).toMatchObject({
      name: 'Every day',
      eventTypes: ['workout', 'run'],
      frequency: 'daily',
      // Not given: unchanged.
      freezes: { initial: 1, max: 3, earnEvery: 7 },
    });
    expect(updateStreak).toEqual(camel((await ws.api('/v1/streaks/daily')).body));
    const { updateStreak: freezes } = await gql.data<any>(
      'mutation { updateStreak(key: "daily", input: { freezes: { initial: 0, max: 2 } }) { name freezes { initial max earnEvery } } }',
    );
    expect(freezes).toEqual({ name: 'Every day', freezes: { initial: 0, max: 2, earnEvery: null } });

    const { archiveStreak } = await gql.data<any>(
      `mutation { archiveStreak(key: "daily") { key archivedAt } }`,
    );
    expect(archiveStreak.archivedAt).toEqual(expect.any(String));
    expect((await gql.data<any>('{ streaks { key } }')).streaks).toEqual([{ key: 'weekly' }]);
    expect(
      (await gql.data<any>('{ streaks(includeArchived: true) { key } }')).streaks
        .map((s: { key: string }) => s.key)
        .sort(),
    ).toEqual(['daily', 'weekly']);
    expect((await gql.data<any>('{ streak(key: "daily") { archivedAt } }')).streak.archivedAt).toBe(
      archiveStreak.archivedAt,
    );
    expect((await ws.api('/v1/streaks?include_archived=true')).body.data).toHaveLength(2);
  });

  it('refuses bad input with validation_error naming the field, and unknown keys with not_found', async () => {
    const ws = await app.workspace();
    const gql = gqlOf(ws);
    await defineStreak(ws, { key: 'taken' });
    const create = (input: Record<string, unknown>) =>
      gql('mutation ($input: CreateStreakInput!) { createStreak(input: $input) { key } }', {
        input: { key: 'k', name: 'N', eventTypes: ['workout'], frequency: 'daily', ...input },
      });
    const cases: [Record<string, unknown>, string][] = [
      [{ key: 'taken' }, 'key'],
      [{ key: 'bad key' }, 'key'],
      [{ key: 'a\u0000b' }, 'key'],
      [{ name: '' }, 'name'],
      [{ name: '\ud800' }, 'name'],
      [{ eventTypes: [] }, 'eventTypes'],
      [{ eventTypes: ['ok', 'a\u0000b'] }, 'eventTypes.1'],
      [{ freezes: { initial: 3, max: 2 } }, 'freezes.initial'],
      [{ freezes: { initial: 0, max: 11 } }, 'freezes.max'],
      [{ freezes: { initial: 0, max: 1, earnEvery: 0 } }, 'freezes.earnEvery'],
    ];
    for (const [input, field] of cases) {
      const e = firstError(await create(input));
      expect(e.extensions.code, JSON.stringify(input)).toBe('validation_error');
      expect(
        e.extensions.errors.map((x: { field: string }) => x.field).join(' '),
        JSON.stringify(input),
      ).toContain(field);
    }
    // A frequency GraphQL does not know is refused before the service; none can be changed.
    const hourly = await create({ frequency: 'hourly' });
    expect(hourly.body.errors?.length).toBeGreaterThan(0);
    expect(hourly.status).toBeLessThan(500);
    const frequency = await gql(
      'mutation { updateStreak(key: "taken", input: { frequency: weekly }) { key } }',
    );
    expect(frequency.body.errors?.length).toBeGreaterThan(0);
    expect(frequency.status).toBeLessThan(500);

    for (const query of [
      'mutation { updateStreak(key: "nope", input: { name: "x" }) { key } }',
      'mutation { archiveStreak(key: "nope") { key } }',
    ])
      expect(firstError(await gql(query)).extensions.code, query).toBe('not_found');
    for (const key of ['a\u0000b', '\ud800', 'x'.repeat(65)]) {
      const e = firstError(await gql('query ($key: String!) { streak(key: $key) { key } }', { key }));
      expect(e.extensions).toMatchObject({ code: 'validation_error', errors: [{ field: 'key' }] });
      const a = firstError(
        await gql('mutation ($key: String!) { archiveStreak(key: $key) { key } }', { key }),
      );
      expect(a.extensions.code).toBe('validation_error');
    }
    expect((await ws.api('/v1/streaks')).body.data.map((s: { key: string }) => s.key)).toEqual(['taken']);
  });

  it('needs flows:read to read them and flows:write to change them', async () => {
    const ws = await app.workspace();
    await defineStreak(ws, { key: 'daily' });
    const reader = await app.workspace({ abilities: ['participants:read'] });
    const gql = gqlOf(reader);
    for (const refused of [
      '{ streaks { key } }',
      '{ streak(key: "daily") { key } }',
      'mutation { createStreak(input: { key: "k", name: "n", eventTypes: ["a"], frequency: daily }) { key } }',
      'mutation { updateStreak(key: "daily", input: { name: "n" }) { key } }',
      'mutation { archiveStreak(key: "daily") { key } }',
    ]) {
      const res = await gql(refused);
      expect(firstError(res).extensions.code, refused).toBe('permission_error');
      // Nothing read: no data, or the nullable field's null.
      expect(
        Object.values(res.body.data ?? {}).every((v) => v === null),
        refused,
      ).toBe(true);
    }
    // A key of the same workspace with flows:read alone reads them, and changes nothing.
    const { key: flowsReader } = await issueKey(app.ctx, {
      workspace: ws.slug,
      mode: 'test',
      abilities: ['flows:read'],
    });
    const asReader = gqlOf(ws, flowsReader);
    expect((await asReader.data<any>('{ streaks { key } }')).streaks).toEqual([{ key: 'daily' }]);
    expect((await asReader.data<any>('{ streak(key: "daily") { key } }')).streak).toEqual({ key: 'daily' });
    expect(
      firstError(await asReader('mutation { archiveStreak(key: "daily") { key } }')).extensions.code,
    ).toBe('permission_error');
    expect((await ws.api('/v1/streaks/daily')).body.archived_at).toBeNull();
  });
});

describe('a participant’s streaks and time zone over GraphQL', () => {
  it('reads the streaks as REST shows them, in the time zone the update mutation sets', async () => {
    const ws = await app.workspace();
    const key = await defineStreak(ws, { freezes: { initial: 1, max: 2 } });
    const p = uid('p');
    await send(ws, p, '2031-11-01T10:00:00Z');
    await send(ws, p, '2031-11-02T10:00:00Z');
    const read = () =>
      gqlOf(ws).data<any>(
        `query ($id: String!) { participant(externalId: $id) { timezone streaks { ${PARTICIPANT_STREAK_FIELDS} } } }`,
        { id: p },
      );
    const { participant } = await read();
    expect(participant.streaks).toEqual(camel((await ws.api(`/v1/participants/${p}/streaks`)).body.data));
    expect(participant.streaks).toEqual([
      expect.objectContaining({ key, frequency: 'daily', length: 2, longest: 2 }),
    ]);
    expect(participant.streaks[0].history.slice(-2)).toEqual([
      { periodStart: '2031-11-01', status: 'extended' },
      { periodStart: '2031-11-02', status: 'extended' },
    ]);
    expect(participant.timezone).toBeNull();

    const update = (input: Record<string, unknown>) =>
      gqlOf(ws)(
        'mutation ($id: String!, $input: UpdateParticipantInput!) { updateParticipant(externalId: $id, input: $input) { timezone name } }',
        { id: p, input },
      );
    let res = await update({ timezone: 'Asia/Tokyo', name: 'Tomo' });
    expect(res.body.errors, res.text).toBeUndefined();
    expect(res.body.data.updateParticipant).toEqual({ timezone: 'Asia/Tokyo', name: 'Tomo' });
    expect((await ws.api(`/v1/participants/${p}`)).body.timezone).toBe('Asia/Tokyo');
    const tokyo = (await read()).participant;
    expect(tokyo.timezone).toBe('Asia/Tokyo');
    // The current period is a Tokyo day: it starts at 15:00 UTC.
    expect(tokyo.streaks[0].periodStart).toMatch(/T15:00:00\.000Z$/);
    expect(tokyo.streaks).toEqual(camel((await ws.api(`/v1/participants/${p}/streaks`)).body.data));

    for (const bad of ['Mars/Olympus', 'a\u0000b', '\ud800']) {
      const e = firstError(await update({ timezone: bad }));
      expect(e.extensions.code, bad).toBe('validation_error');
      expect(e.extensions.errors[0].field, bad).toBe('input.timezone');
    }
    // Left out: unchanged; null: the programme's again.
    res = await update({ name: 'Tomoko' });
    expect(res.body.data.updateParticipant).toEqual({ timezone: 'Asia/Tokyo', name: 'Tomoko' });
    res = await update({ timezone: null });
    expect(res.body.data.updateParticipant).toEqual({ timezone: null, name: 'Tomoko' });
  });

  it('lists no streaks for a participant of a workspace without any, and needs participants:read', async () => {
    const ws = await app.workspace();
    await ws.api('/v1/participants/plain/points', { body: { points: 1, reason: 'seed' } });
    expect(
      (await gqlOf(ws).data<any>('{ participant(externalId: "plain") { streaks { key } } }')).participant,
    ).toEqual({ streaks: [] });
    const flows = await app.workspace({ abilities: ['flows:read'] });
    const res = await gqlOf(flows)('{ participant(externalId: "plain") { streaks { key } } }');
    expect(firstError(res).extensions.code).toBe('permission_error');
  });

  it('lets a participant token read its own streaks, and nothing of another’s', async () => {
    const ws = await app.workspace();
    const key = await defineStreak(ws);
    const mine = uid('me');
    const theirs = uid('them');
    await send(ws, mine, '2031-11-01T10:00:00Z');
    await send(ws, theirs, '2031-11-01T10:00:00Z');
    await send(ws, theirs, '2031-11-02T10:00:00Z');
    const asToken = gqlOf(ws, await mint(ws, mine));
    const own = await asToken.data<any>(
      `query ($id: String!) { participant(externalId: $id) { timezone lastStreakChangeId streaks { key length longest } } }`,
      { id: mine },
    );
    expect(own.participant).toMatchObject({ timezone: null, streaks: [{ key, length: 1, longest: 1 }] });
    expect(own.participant.lastStreakChangeId).toMatch(/^[1-9][0-9]*$/);
    for (const refused of [
      `{ participant(externalId: "${theirs}") { streaks { key length } } }`,
      '{ streaks { key } }',
      `mutation { archiveStreak(key: "${key}") { key } }`,
      `mutation { updateParticipant(externalId: "${mine}", input: { timezone: "Asia/Tokyo" }) { timezone } }`,
    ]) {
      const res = await asToken(refused);
      expect(firstError(res).extensions.code, refused).toBe('permission_error');
      expect(res.text).not.toContain('"length":2');
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
        streakChanged(externalId: $id, after: $after) { id externalId change streak { key length longest freezes } periodStart at }
      }`,
      variables,
    },
    {
      next: (r) => {
        if (r.errors) errors.push(...r.errors);
        if (r.data) data.push(r.data.streakChanged);
      },
      error: (e) => errors.push(...(Array.isArray(e) ? e : [e])),
      complete: () => {},
    },
  );
  return { data, errors, stop };
}

/** Waits until the hub serves `n` subscriptions (the subscribe round trip has finished). */
const subscribed = (n: number) => eventually(async () => app.ctx.live.size >= n);

const brief = (d: any) =>
  `${d.change}:${d.streak.length}/${d.streak.longest}/${d.streak.freezes}@${d.periodStart}`;

describe('streakChanged over graphql-ws', () => {
  it('sends every change after it commits, in commit order: extended by events, frozen and broken by the job', async () => {
    const ws = await app.workspace();
    const key = await defineStreak(ws, { freezes: { initial: 1, max: 1 } });
    const p = uid('p');
    const bystander = uid('b');
    await send(ws, p, '2031-03-01T10:00:00Z');
    const n = app.ctx.live.size;
    const sub = watch(connect(`Bearer ${ws.keys.test}`), { id: p });
    await subscribed(n + 1);
    await send(ws, p, '2031-03-02T10:00:00Z'); // extended, in the event's transaction
    await send(ws, p, '2031-03-02T20:00:00Z'); // the same day: no change
    await send(ws, bystander, '2031-03-02T10:00:00Z'); // someone else's: not sent
    await runStreakTick(app.ctx, new Date('2031-03-04T00:00:01Z')); // Mar 3 ended: the freeze covers it
    await runStreakTick(app.ctx, new Date('2031-03-05T00:00:01Z')); // Mar 4 ended: broken
    await eventually(async () => sub.data.length >= 3, 15_000);
    expect(sub.errors).toEqual([]);
    expect(sub.data.map(brief)).toEqual([
      'extended:2/2/1@2031-03-02',
      'frozen:2/2/0@2031-03-03',
      'broken:0/2/0@2031-03-04',
    ]);
    expect(sub.data[0]).toMatchObject({
      externalId: p,
      change: 'extended',
      streak: { key, length: 2, longest: 2, freezes: 1 },
      at: expect.any(String),
    });
    // The rows' own order, every one once.
    const { rows } = await app.ctx.pool.query(
      `select c.id::text, c.change from streak_changes c join participants p on p.id = c.participant_id
        where p.workspace_id = $1 and p.external_id = $2 order by c.id`,
      [ws.id, p],
    );
    expect(sub.data.map((d) => [d.id, d.change])).toEqual(rows.slice(1).map((r) => [r.id, r.change]));
    // A new event after the break starts it again at 1.
    await send(ws, p, '2031-03-06T10:00:00Z');
    await eventually(async () => sub.data.length >= 4);
    expect(brief(sub.data[3])).toBe('extended:1/2/0@2031-03-06');
    await new Promise((r) => setTimeout(r, 200));
    expect(sub.data).toHaveLength(4);
    sub.stop();
  });

  it('resumes after a change id, so what commits between a read and the subscription is not missed', async () => {
    const ws = await app.workspace();
    await defineStreak(ws);
    const p = uid('p');
    await send(ws, p, '2031-05-01T10:00:00Z');
    const { participant } = await gqlOf(ws).data<any>(
      'query ($id: String!) { participant(externalId: $id) { lastStreakChangeId streaks { length } } }',
      { id: p },
    );
    expect(participant.streaks).toEqual([{ length: 1 }]);
    await send(ws, p, '2031-05-02T10:00:00Z'); // committed before anyone subscribes
    const n = app.ctx.live.size;
    const sub = watch(connect(`Bearer ${ws.keys.test}`), { id: p, after: participant.lastStreakChangeId });
    await subscribed(n + 1);
    await eventually(async () => sub.data.length === 1);
    expect(brief(sub.data[0])).toBe('extended:2/2/0@2031-05-02');
    // From a change received, likewise.
    const again = watch(connect(`Bearer ${ws.keys.test}`), { id: p, after: '0' });
    await eventually(async () => again.data.length === 2);
    expect(again.data.map(brief)).toEqual(['extended:1/1/0@2031-05-01', 'extended:2/2/0@2031-05-02']);
    for (const after of ['x', '-1', '1.5']) {
      const bad = watch(connect(`Bearer ${ws.keys.test}`), { id: p, after });
      await eventually(async () => bad.errors.length > 0);
      expect(bad.errors[0].extensions.code, after).toBe('validation_error');
    }
    sub.stop();
    again.stop();
  });

  it('lets a participant token follow its own participant only; another’s is permission_error and nothing is sent', async () => {
    const ws = await app.workspace();
    await defineStreak(ws);
    const mine = uid('me');
    const theirs = uid('them');
    await send(ws, mine, '2031-06-01T10:00:00Z');
    await send(ws, theirs, '2031-06-01T10:00:00Z');
    const client = connect(`Bearer ${await mint(ws, mine)}`);
    const n = app.ctx.live.size;
    const own = watch(client, { id: mine });
    const other = watch(client, { id: theirs });
    await subscribed(n + 1);
    await eventually(async () => other.errors.length > 0);
    expect(other.errors[0].extensions.code).toBe('permission_error');
    await send(ws, theirs, '2031-06-02T10:00:00Z');
    await send(ws, mine, '2031-06-02T10:00:00Z');
    await eventually(async () => own.data.length === 1);
    expect(own.data[0]).toMatchObject({ externalId: mine, change: 'extended', streak: { length: 2 } });
    expect(other.data).toEqual([]);
    own.stop();
  });

  it('refuses a key without participants:read, an unknown participant, another workspace’s, and a malformed id', async () => {
    const ws = await app.workspace();
    await ws.api('/v1/participants/known/points', { body: { points: 1, reason: 'seed' } });
    const writer = await app.workspace({ abilities: ['events:write', 'flows:read'] });
    const cases: [string, string, string][] = [
      [writer.keys.test, 'known', 'permission_error'],
      [ws.keys.test, 'nobody', 'not_found'],
      [(await app.workspace()).keys.test, 'known', 'not_found'],
      [ws.keys.test, 'a\u0000b', 'validation_error'],
      [ws.keys.test, '\ud800', 'validation_error'],
    ];
    for (const [key, id, code] of cases) {
      const sub = watch(connect(`Bearer ${key}`), { id });
      await eventually(async () => sub.errors.length > 0);
      expect(sub.errors[0].extensions.code, `${id} ${code}`).toBe(code);
      expect(sub.data).toEqual([]);
    }
  });
});

describe('the widget', () => {
  it('serves a bundle that shows the streaks and follows streakChanged', async () => {
    const res = await request(app.url, '/widget.js');
    expect(res.status).toBe(200);
    expect(res.text).toContain('streakChanged(externalId: $id, after: $after)');
    expect(res.text).toContain('lastStreakChangeId');
    expect(res.text).toContain('part="streaks"');
    expect(res.text).not.toMatch(/https?:\/\//);
  });
});
