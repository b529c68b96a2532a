import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uuidv7 } from '../src/lib/uuid7.ts';
import type { Ability } from '../src/services/keys/abilities.ts';
import { issueKey } from '../src/services/keys/manage-keys.ts';
import { CODE_PATTERN, type ReferralStatus } from '../src/services/referrals/shapes.ts';
import { buildParticipant, graphqlClient } from './factories.ts';
import { type ApiResponse, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

// Referrals over GraphQL (docs/referrals.md, docs/graphql.md#referrals): the programme, the
// referrals and their cancel, a participant's code and referrals, each against the REST answer of
// the same service; the abilities; participant tokens (their own code and referrals, without the
// friends); validation. Referrals are rows as the engine leaves them, written here in SQL, so every
// status can be read without waiting on the lifecycle (which test/referrals.test.ts drives).

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

let seq = 0;
const uid = (p: string) => `${p}-${++seq}-${Date.now().toString(36)}`;

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

const ACTION = 'type points reason badge tier';
const PROGRAM_FIELDS = `qualifyingEventType qualifyWithin hold friendActions { ${ACTION} }
  advocateActions { ${ACTION} } advocateLimit { period max } active updatedAt`;
const REFERRAL_FIELDS = `id code advocate { externalId } friend { externalId } status reason createdAt expiresAt
  qualifiedAt rewardAvailableAt rewardedAt clawedBackAt`;

/** REST's programme as GraphQL prints it: an action's fields of the other type are null. */
const programOf = (rest: Record<string, any>) => {
  const action = (a: Record<string, unknown>) => ({
    type: a.type,
    points: a.points ?? null,
    reason: a.reason ?? null,
    badge: a.badge ?? null,
    tier: a.tier ?? null,
  });
  return camel({
    ...rest,
    friend_actions: rest.friend_actions.map(action),
    advocate_actions: rest.advocate_actions.map(action),
  });
};

const PROGRAM = {
  qualifying_event_type: 'order.completed',
  qualify_within: 'P30D',
  hold: 'P14D',
  friend_actions: [{ type: 'award_points', points: 50, reason: 'Welcome' }],
  advocate_actions: [
    { type: 'award_points', points: 100 },
    { type: 'award_badge', badge: 'ambassador' },
  ],
};

const putRest = async (ws: TestWorkspace, body: Record<string, unknown> = PROGRAM) => {
  const r = await ws.api('/v1/referrals/program', { method: 'PUT', body });
  expect(r.status, r.text).toBe(200);
  return r.body;
};

const mint = async (ws: TestWorkspace, who: string) =>
  (await ws.api(`/v1/participants/${who}/tokens`, { body: {} })).body.token as string;

const codeOf = async (ws: TestWorkspace, who: string) => {
  const r = await ws.api(`/v1/participants/${who}/referral-code`);
  expect(r.status, r.text).toBe(200);
  return r.body.code as string;
};

interface Seeded {
  id: string;
  advocate: string;
  friend: string;
}

/**
 * A referral as the engine writes it (src/services/referrals/mechanic.ts): the advocate's code, a
 * friend made for it, and the timestamps of `status`. Created in order, so ids (UUIDv7) are too.
 */
async function seedReferral(
  ws: TestWorkspace,
  advocate: string,
  status: ReferralStatus,
  friend = uid('friend'),
): Promise<Seeded> {
  const code = await codeOf(ws, advocate);
  const [a] = (
    await app.ctx.pool.query<{ id: string }>(
      `select id from participants where workspace_id = $1 and mode = 'test' and external_id = $2`,
      [ws.id, advocate],
    )
  ).rows;
  const f = await buildParticipant(app, ws, { externalId: friend, email: `${friend}@example.com` });
  const id = uuidv7();
  const at = (set: ReferralStatus[]) => set.includes(status);
  await app.ctx.pool.query(
    `insert into referrals (id, workspace_id, mode, code, advocate_id, friend_id, status, reason, event_id,
        created_at, expires_at, qualified_at, reward_available_at, rewarded_at, clawed_back_at, grant_ids, due_at)
     values ($1, $2, 'test', $3, $4, $5, $6::varchar, $7, $8, now() - interval '2 days',
        case when $6 in ('pending', 'expired') then now() + interval '28 days' end,
        case when $9::boolean then now() - interval '1 day' end,
        case when $9 then now() + interval '13 days' end,
        case when $6 = 'rewarded' then now() end,
        case when $6 = 'clawed_back' then now() end,
        case when $6 = 'qualified' then '{}'::uuid[] end,
        case when $6 in ('pending', 'qualified') then now() + interval '13 days' end)`,
    [
      id,
      ws.id,
      code,
      a!.id,
      f.id,
      status,
      status === 'blocked' ? 'same_email' : null,
      uuidv7(),
      at(['qualified', 'rewarded', 'clawed_back']),
    ],
  );
  return { id, advocate, friend };
}

/** A workspace with a programme, an advocate `ada` with four referrals and `bob` with one. */
async function referralWorkspace() {
  const ws = await app.workspace();
  await putRest(ws);
  await ws.api('/v1/participants/ada/points', { body: { points: 5, reason: 'seed' } });
  await ws.api('/v1/participants/bob/points', { body: { points: 5, reason: 'seed' } });
  const made = {
    pending: await seedReferral(ws, 'ada', 'pending'),
    qualified: await seedReferral(ws, 'ada', 'qualified'),
    blocked: await seedReferral(ws, 'ada', 'blocked'),
    rewarded: await seedReferral(ws, 'ada', 'rewarded'),
    bobs: await seedReferral(ws, 'bob', 'pending'),
  };
  return { ws, made };
}

describe('the referral programme over GraphQL', () => {
  it('answers null before one is set, then what PUT and GET answer on REST', async () => {
    const ws = await app.workspace();
    const gql = gqlOf(ws);
    expect((await gql.data<any>(`{ referralProgram { ${PROGRAM_FIELDS} } }`)).referralProgram).toBe(null);

    const { putReferralProgram } = await gql.data<any>(
      `mutation ($input: ReferralProgramInput!) { putReferralProgram(input: $input) { ${PROGRAM_FIELDS} } }`,
      {
        input: {
          qualifyingEventType: 'order.completed',
          qualifyWithin: 'P30D',
          hold: 'PT0S',
          friendActions: [{ type: 'award_points', points: 50, reason: 'Welcome' }],
          advocateActions: [
            { type: 'award_points', points: 100 },
            { type: 'award_badge', badge: 'ambassador', tier: null },
          ],
          advocateLimit: null,
        },
      },
    );
    const rest = (await ws.api('/v1/referrals/program')).body;
    expect(putReferralProgram).toEqual(programOf(rest));
    // Left out (or null): no limit, active; the badge an action names now exists.
    expect(putReferralProgram).toMatchObject({
      hold: 'PT0S',
      advocateLimit: null,
      active: true,
      advocateActions: [
        { type: 'award_points', points: 100, reason: null, badge: null, tier: null },
        { type: 'award_badge', points: null, reason: null, badge: 'ambassador', tier: null },
      ],
    });
    expect((await ws.api('/v1/badges')).body.data.map((b: { key: string }) => b.key)).toContain('ambassador');
    const { referralProgram } = await gql.data<any>(`{ referralProgram { ${PROGRAM_FIELDS} } }`);
    expect(referralProgram).toEqual(putReferralProgram);

    // A PUT replaces it whole, REST and GraphQL alike.
    await putRest(ws, { ...PROGRAM, advocate_limit: { period: 'month', max: 3 }, active: false });
    const again = (await gql.data<any>(`{ referralProgram { ${PROGRAM_FIELDS} } }`)).referralProgram;
    expect(again).toEqual(programOf((await ws.api('/v1/referrals/program')).body));
    expect(again).toMatchObject({ advocateLimit: { period: 'month', max: 3 }, active: false, hold: 'P14D' });
  });

  it('refuses an invalid programme with validation_error naming the field, and keeps the one in place', async () => {
    const ws = await app.workspace();
    await putRest(ws);
    const gql = gqlOf(ws);
    const put = (input: Record<string, unknown>) =>
      gql('mutation ($input: ReferralProgramInput!) { putReferralProgram(input: $input) { active } }', {
        input: {
          qualifyingEventType: 'signup',
          qualifyWithin: 'P7D',
          hold: 'P1D',
          friendActions: [],
          advocateActions: [{ type: 'award_points', points: 10 }],
          ...input,
        },
      });
    const cases: [Record<string, unknown>, string][] = [
      [{ qualifyingEventType: '' }, 'qualifyingEventType'],
      [{ qualifyingEventType: 'a\u0000b' }, 'qualifyingEventType'],
      [{ qualifyWithin: 'soon' }, 'qualifyWithin'],
      [{ hold: '-P1D' }, 'hold'],
      [{ friendActions: [{ type: 'award_points' }] }, 'friendActions.0'],
      [{ friendActions: [{ type: 'award_points', points: 0 }] }, 'friendActions.0.points'],
      [{ advocateActions: [{ type: 'award_badge' }] }, 'advocateActions.0'],
      [{ advocateActions: [{ type: 'award_badge', badge: 'b', points: 5 }] }, 'advocateActions.0'],
      [
        { advocateActions: Array.from({ length: 11 }, () => ({ type: 'award_points', points: 1 })) },
        'advocateActions',
      ],
      [{ advocateLimit: { period: 'week', max: 0 } }, 'advocateLimit.max'],
    ];
    for (const [input, field] of cases) {
      const e = firstError(await put(input));
      expect(e.extensions.code, JSON.stringify(input)).toBe('validation_error');
      expect(
        e.extensions.errors.map((x: { field: string }) => x.field).join(' '),
        JSON.stringify(input),
      ).toContain(field);
    }
    // An action type or period GraphQL does not know is refused before the service, never a 500.
    for (const input of [
      { friendActions: [{ type: 'send_message' }] },
      { advocateLimit: { period: 'hour', max: 1 } },
    ]) {
      const res = await put(input);
      expect(res.body.errors?.length, JSON.stringify(input)).toBeGreaterThan(0);
      expect(res.status).toBeLessThan(500);
    }
    expect((await ws.api('/v1/referrals/program')).body.qualifying_event_type).toBe('order.completed');
  });
});

describe('a participant’s referral code over GraphQL', () => {
  it('is the code REST answers, made on first read and stable, for one participant and for a list', async () => {
    const ws = await app.workspace();
    for (const p of ['ann', 'ben', 'cat'])
      await ws.api(`/v1/participants/${p}/points`, { body: { points: 1, reason: 'seed' } });
    const gql = gqlOf(ws);
    // Made by GraphQL's read first, then REST answers the same.
    const first = (await gql.data<any>('{ participant(externalId: "ann") { referralCode } }')).participant;
    expect(first.referralCode).toMatch(CODE_PATTERN);
    expect(await codeOf(ws, 'ann')).toBe(first.referralCode);
    // Made by REST first, then GraphQL answers the same.
    const ben = await codeOf(ws, 'ben');
    const { participants } = await gql.data<any>(
      '{ participants(first: 10) { nodes { externalId referralCode } } }',
    );
    const byId = Object.fromEntries(
      participants.nodes.map((n: { externalId: string; referralCode: string }) => [
        n.externalId,
        n.referralCode,
      ]),
    );
    expect(byId.ann).toBe(first.referralCode);
    expect(byId.ben).toBe(ben);
    expect(byId.cat).toMatch(CODE_PATTERN);
    expect(await codeOf(ws, 'cat')).toBe(byId.cat);
    expect(new Set(Object.values(byId)).size).toBe(3);
    // An unknown participant is null, as `participant` is.
    expect((await gql.data<any>('{ participant(externalId: "nobody") { referralCode } }')).participant).toBe(
      null,
    );
  });

  it('needs participants:read (or the participant’s own token)', async () => {
    const ws = await app.workspace();
    await ws.api('/v1/participants/ann/points', { body: { points: 1, reason: 'seed' } });
    const { key } = await issueKey(app.ctx, { workspace: ws.slug, mode: 'test', abilities: ['flows:write'] });
    const res = await gqlOf(ws, key)('{ participant(externalId: "ann") { referralCode } }');
    expect(firstError(res).extensions.code).toBe('permission_error');
  });
});

describe('referrals over GraphQL', () => {
  it('lists, filters, pages and reads them as REST does', async () => {
    const { ws, made } = await referralWorkspace();
    const gql = gqlOf(ws);
    const list = async (args: string) =>
      (
        await gql.data<any>(
          `{ referrals(${args}) { nodes { ${REFERRAL_FIELDS} } pageInfo { hasNextPage endCursor } } }`,
        )
      ).referrals;
    const rest = async (qs: string) => {
      const r = await ws.api(`/v1/referrals${qs}`);
      expect(r.status, r.text).toBe(200);
      return r.body;
    };

    const all = await list('first: 50');
    expect(all.nodes).toEqual(camel((await rest('?limit=50')).data));
    // Newest first.
    expect(all.nodes.map((n: { id: string }) => n.id)).toEqual(
      [made.bobs, made.rewarded, made.blocked, made.qualified, made.pending].map((m) => m.id),
    );
    expect(all.nodes.find((n: any) => n.id === made.blocked.id)).toMatchObject({
      status: 'blocked',
      reason: 'same_email',
      advocate: { externalId: 'ada' },
      friend: { externalId: made.blocked.friend },
    });

    const adas = await list('advocate: "ada", first: 50');
    expect(adas.nodes).toEqual(camel((await rest('?advocate=ada&limit=50')).data));
    expect(adas.nodes).toHaveLength(4);
    const pending = await list('status: pending, first: 50');
    expect(pending.nodes).toEqual(camel((await rest('?status=pending&limit=50')).data));
    expect(pending.nodes.map((n: { id: string }) => n.id)).toEqual([made.bobs.id, made.pending.id]);
    expect((await list('advocate: "nobody"')).nodes).toEqual([]);

    // Pages of two, forward to the end, are REST's pages.
    const seen: string[] = [];
    let after: string | null = null;
    let restCursor: string | null = null;
    do {
      const page: any = await list(`first: 2${after ? `, after: "${after}"` : ''}`);
      const restPage = await rest(`?limit=2${restCursor ? `&cursor=${encodeURIComponent(restCursor)}` : ''}`);
      expect(page.nodes).toEqual(camel(restPage.data));
      seen.push(...page.nodes.map((n: { id: string }) => n.id));
      after = page.pageInfo.endCursor;
      restCursor = restPage.meta.next_cursor;
      expect(page.pageInfo.hasNextPage).toBe(restCursor !== null);
    } while (after);
    expect(seen).toEqual(all.nodes.map((n: { id: string }) => n.id));

    const { referral } = await gql.data<any>(
      `query ($id: ID!) { referral(id: $id) { ${REFERRAL_FIELDS} } }`,
      {
        id: made.qualified.id,
      },
    );
    expect(referral).toEqual(camel((await ws.api(`/v1/referrals/${made.qualified.id}`)).body));
    expect(referral).toMatchObject({ status: 'qualified', rewardedAt: null, clawedBackAt: null });
    expect(referral.qualifiedAt).not.toBe(null);
    // Unknown, malformed, or another workspace's: null, as REST's 404.
    const other = await app.workspace();
    for (const id of [uuidv7(), 'not-a-uuid', '']) {
      const res = await gql.data<any>('query ($id: ID!) { referral(id: $id) { id } }', { id });
      expect(res.referral, id).toBe(null);
    }
    expect(
      (await gqlOf(other).data<any>('query ($id: ID!) { referral(id: $id) { id } }', { id: made.pending.id }))
        .referral,
    ).toBe(null);
    expect((await gqlOf(other).data<any>('{ referrals { nodes { id } } }')).referrals.nodes).toEqual([]);
  });

  it('lists a participant’s referrals as advocate, for one participant and a list of them', async () => {
    const { ws, made } = await referralWorkspace();
    const gql = gqlOf(ws);
    const { participant } = await gql.data<any>(
      `{ participant(externalId: "ada") { referrals(first: 50) { nodes { ${REFERRAL_FIELDS} } } } }`,
    );
    expect(participant.referrals.nodes).toEqual(
      camel((await ws.api('/v1/referrals?advocate=ada')).body.data),
    );
    const { participant: filtered } = await gql.data<any>(
      '{ participant(externalId: "ada") { referrals(status: qualified) { nodes { id status } } } }',
    );
    expect(filtered.referrals.nodes).toEqual([{ id: made.qualified.id, status: 'qualified' }]);
    const { participants } = await gql.data<any>(
      '{ participants(first: 50) { nodes { externalId referrals(first: 10) { nodes { id } } } } }',
    );
    const byId = Object.fromEntries(
      participants.nodes.map((n: any) => [n.externalId, n.referrals.nodes.map((r: { id: string }) => r.id)]),
    );
    expect(byId.bob).toEqual([made.bobs.id]);
    expect(byId.ada).toHaveLength(4);
    // A friend referred nobody.
    expect(byId[made.pending.friend]).toEqual([]);
  });

  it('cancels a qualified referral as REST does, and refuses any other status with invalid_state', async () => {
    const { ws, made } = await referralWorkspace();
    const gql = gqlOf(ws);
    const cancel = (id: string) =>
      gql(`mutation ($id: ID!) { cancelReferral(id: $id) { ${REFERRAL_FIELDS} } }`, { id });
    const res = await cancel(made.qualified.id);
    expect(res.body.errors, res.text).toBeUndefined();
    const cancelled = res.body.data.cancelReferral;
    expect(cancelled).toMatchObject({ id: made.qualified.id, status: 'clawed_back' });
    expect(cancelled.clawedBackAt).not.toBe(null);
    expect(cancelled).toEqual(camel((await ws.api(`/v1/referrals/${made.qualified.id}`)).body));

    // Again, or a referral not on hold: invalid_state, as REST's 409, and nothing changes.
    for (const m of [made.qualified, made.pending, made.rewarded, made.blocked]) {
      const before = (await ws.api(`/v1/referrals/${m.id}`)).body;
      const e = firstError(await cancel(m.id));
      expect(e.extensions.code, m.id).toBe('invalid_state');
      const restAnswer = await ws.api(`/v1/referrals/${m.id}/cancel`, { body: {} });
      expect(restAnswer.status).toBe(409);
      expect(restAnswer.body.error.type).toBe('invalid_state');
      expect((await ws.api(`/v1/referrals/${m.id}`)).body).toEqual(before);
    }
    for (const id of [uuidv7(), 'not-a-uuid'])
      expect(firstError(await cancel(id)).extensions.code).toBe('not_found');
  });
});

describe('abilities and participant tokens', () => {
  it('asks each field for the ability its REST operation asks', async () => {
    const { ws, made } = await referralWorkspace();
    const keyWith = async (...abilities: Ability[]) =>
      gqlOf(ws, (await issueKey(app.ctx, { workspace: ws.slug, mode: 'test', abilities })).key);
    const reader = await keyWith('participants:read');
    const writer = await keyWith('flows:write');
    const adjuster = await keyWith('points:adjust');
    const none = await keyWith('events:write');

    const put = `mutation { putReferralProgram(input: { qualifyingEventType: "signup", qualifyWithin: "P7D", hold: "PT0S",
      friendActions: [], advocateActions: [] }) { active } }`;
    const cancel = `mutation { cancelReferral(id: "${made.qualified.id}") { status } }`;
    const reads = [
      '{ referrals { nodes { id } } }',
      `{ referral(id: "${made.pending.id}") { id } }`,
      '{ participant(externalId: "ada") { referralCode } }',
    ];
    // Any API key reads the programme.
    for (const client of [reader, writer, adjuster, none])
      expect((await client.data<any>('{ referralProgram { hold } }')).referralProgram).toEqual({
        hold: 'P14D',
      });
    for (const q of reads) {
      expect((await reader(q)).body.errors, q).toBeUndefined();
      for (const client of [writer, adjuster, none])
        expect(firstError(await client(q)).extensions.code, q).toBe('permission_error');
    }
    for (const client of [reader, adjuster, none])
      expect(firstError(await client(put)).extensions.code).toBe('permission_error');
    for (const client of [reader, writer, none]) {
      const res = await client(cancel);
      expect(firstError(res).extensions.code).toBe('permission_error');
      expect(res.body.data).toBe(null);
    }
    // Nothing was changed by the refused calls.
    expect((await ws.api('/v1/referrals/program')).body.qualifying_event_type).toBe('order.completed');
    expect((await ws.api(`/v1/referrals/${made.qualified.id}`)).body.status).toBe('qualified');
    expect((await writer.data<any>(put)).putReferralProgram).toEqual({ active: true });
    expect((await adjuster.data<any>(cancel)).cancelReferral).toEqual({ status: 'clawed_back' });
  });

  it('lets a participant token read its own code and referrals, without the friends, and nothing else', async () => {
    const { ws, made } = await referralWorkspace();
    const token = await mint(ws, 'ada');
    const asAda = graphqlClient(app, null, { key: token });
    const { participant } = await asAda.data<any>(
      `{ participant(externalId: "ada") { referralCode referrals(first: 50) { nodes { ${REFERRAL_FIELDS} } } } }`,
    );
    expect(participant.referralCode).toBe(await codeOf(ws, 'ada'));
    // Everything REST shows an API key, but who the friends are.
    const rest = camel((await ws.api('/v1/referrals?advocate=ada')).body.data) as any[];
    expect(participant.referrals.nodes).toEqual(rest.map((r) => ({ ...r, friend: null })));
    expect(participant.referrals.nodes).toHaveLength(4);
    expect(JSON.stringify(participant)).not.toContain(made.pending.friend);

    // Another participant's code or referrals, and every other referral field: permission_error.
    for (const q of [
      '{ participant(externalId: "bob") { referralCode } }',
      '{ participant(externalId: "bob") { referrals { nodes { id } } } }',
      '{ referralProgram { hold } }',
      '{ referrals { nodes { id } } }',
      '{ referrals(advocate: "ada") { nodes { id } } }',
      `{ referral(id: "${made.pending.id}") { id } }`,
      `mutation { cancelReferral(id: "${made.qualified.id}") { status } }`,
      `mutation { putReferralProgram(input: { qualifyingEventType: "x", qualifyWithin: "P1D", hold: "PT0S",
        friendActions: [], advocateActions: [] }) { active } }`,
    ]) {
      const res = await asAda(q);
      expect(firstError(res).extensions.code, q).toBe('permission_error');
      expect(res.text, q).not.toContain(made.bobs.friend);
      expect(res.text, q).not.toContain(made.pending.friend);
    }
    expect((await ws.api(`/v1/referrals/${made.qualified.id}`)).body.status).toBe('qualified');
    expect((await ws.api('/v1/referrals/program')).body.qualifying_event_type).toBe('order.completed');
  });
});
