import { isTRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiResponse,
  request,
  signedInDashboard,
  startTestApp,
  type TestApp,
  type TestWorkspace,
} from './helpers.ts';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const gql = (w: TestWorkspace, query: string, variables: Record<string, unknown> = {}, key = w.keys.test) =>
  request(app.url, '/graphql', { body: { query, variables }, key }) as Promise<ApiResponse>;

describe('GraphQL participants and leaderboards', () => {
  it('adjusts points idempotently and reads participant, ledger, badges, summary and search', async () => {
    const w = await app.workspace();
    const ADJUST = /* GraphQL */ `
      mutation($id: String!, $points: SafeInt!, $key: String) {
        adjustPoints(externalId: $id, points: $points, reason: "gift", idempotencyKey: $key) {
          replayed entry { id points balanceAfter source idempotencyKey }
        }
      }`;
    const first = await gql(w, ADJUST, { id: 'g-1', points: 40, key: 'gk' });
    expect(first.body.errors).toBeUndefined();
    expect(first.body.data.adjustPoints).toMatchObject({
      replayed: false,
      entry: { points: 40, balanceAfter: 40, source: 'adjustment', idempotencyKey: 'gk' },
    });
    const again = await gql(w, ADJUST, { id: 'g-1', points: 40, key: 'gk' });
    expect(again.body.data.adjustPoints).toEqual({ ...first.body.data.adjustPoints, replayed: true });
    const conflict = await gql(w, ADJUST, { id: 'g-1', points: 41, key: 'gk' });
    expect(conflict.body.errors[0].extensions.code).toBe('idempotency_conflict');
    const broke = await gql(w, ADJUST, { id: 'g-1', points: -100 });
    expect(broke.body.errors[0].extensions).toMatchObject({ code: 'insufficient_points', balance: 40 });
    await gql(w, ADJUST, { id: 'g-2', points: 10 });

    const res = await gql(
      w,
      /* GraphQL */ `{
        participant(externalId: "g-1") {
          externalId balance lifetimePoints email
          summary { rank badgesCount eventsCount activeMultiplier { factor } }
          badges { key }
          ledger(first: 1) { nodes { points source } pageInfo { hasNextPage endCursor } }
        }
        missing: participant(externalId: "nope") { externalId }
        participants(search: "G-", first: 10) { nodes { externalId } }
      }`,
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data).toEqual({
      participant: {
        externalId: 'g-1',
        balance: 40,
        lifetimePoints: 40,
        email: null,
        summary: { rank: 1, badgesCount: 0, eventsCount: 0, activeMultiplier: null },
        badges: [],
        ledger: {
          nodes: [{ points: 40, source: 'adjustment' }],
          pageInfo: { hasNextPage: false, endCursor: null },
        },
      },
      missing: null,
      participants: { nodes: [{ externalId: 'g-2' }, { externalId: 'g-1' }] },
    });
  });

  it('carries balances past GraphQL Int (2^31 - 1) exactly, as REST does', async () => {
    const w = await app.workspace();
    const rest = await w.api('/v1/participants/big/points', {
      body: { points: 1_000_000_000_000, reason: 'whale' },
    });
    expect(rest.status).toBe(201);
    const ADJUST = /* GraphQL */ `
      mutation($points: SafeInt!) {
        adjustPoints(externalId: "big", points: $points, reason: "more") { entry { points balanceAfter } }
      }`;
    const more = await gql(w, ADJUST, { points: 3_000_000_000 });
    expect(more.body.errors).toBeUndefined();
    expect(more.body.data.adjustPoints.entry).toEqual({
      points: 3_000_000_000,
      balanceAfter: 1_003_000_000_000,
    });
    const read = await gql(
      w,
      '{ participant(externalId: "big") { balance lifetimePoints } leaderboard(key: "points") { standing(externalId: "big") { score } } }',
    );
    expect(read.body.errors).toBeUndefined();
    expect(read.body.data.participant).toEqual({
      balance: 1_003_000_000_000,
      lifetimePoints: 1_003_000_000_000,
    });
    expect(read.body.data.leaderboard.standing).toEqual({ score: 1_003_000_000_000 });
    expect((await w.api('/v1/participants/big')).body.balance).toBe(1_003_000_000_000);
  });

  it('reads leaderboards with any key and reverses an entry', async () => {
    const w = await app.workspace();
    const credit = await w.api('/v1/participants/l-1/points', { body: { points: 9, reason: 'r' } });
    await w.api('/v1/participants/l-2/points', { body: { points: 9, reason: 'r' } });
    const anyKey = await app.workspace({ abilities: ['events:write'] });
    expect((await gql(anyKey, '{ leaderboards { key } }')).body.data.leaderboards).toEqual([
      { key: 'points' },
    ]);
    const board = await gql(
      w,
      `{ leaderboard(key: "points") { key period periodStart top(limit: 5) { rank externalId score } standing(externalId: "l-2") { rank score } }
         nope: leaderboard(key: "nope") { key } }`,
    );
    expect(board.body.data).toEqual({
      leaderboard: {
        key: 'points',
        period: 'ALL_TIME',
        periodStart: null,
        top: [
          { rank: 1, externalId: 'l-1', score: 9 },
          { rank: 1, externalId: 'l-2', score: 9 },
        ],
        standing: { rank: 1, score: 9 },
      },
      nope: null,
    });
    const rev = await gql(
      w,
      `mutation($e: ID!) { reverseLedgerEntry(externalId: "l-1", entryId: $e) { points reversesEntryId source } }`,
      { e: String(credit.body.id) },
    );
    expect(rev.body.data.reverseLedgerEntry).toEqual({
      points: -9,
      reversesEntryId: String(credit.body.id),
      source: 'reversal',
    });
    const denied = await gql(anyKey, '{ participant(externalId: "l-1") { externalId } }');
    expect(denied.body.errors[0].extensions.code).toBe('permission_error');
  });
});

describe('tRPC for the dashboard', () => {
  it('lists, shows, adjusts, reverses and ranks in the chosen mode', async () => {
    const w = await app.workspace();
    const client = await signedInDashboard(app, w);
    const adjusted = await client.participants.adjust.mutate({
      mode: 'live',
      externalId: 'dash-1',
      points: 25,
      reason: 'goodwill',
    });
    expect(adjusted).toMatchObject({ replayed: false, entry: { points: 25 } });
    const reversed = await client.participants.reverse.mutate({
      mode: 'live',
      externalId: 'dash-1',
      entryId: String(adjusted.entry.id),
    });
    expect(reversed.points).toBe(-25);
    await client.participants.adjust.mutate({
      mode: 'live',
      externalId: 'dash-1',
      points: 5,
      reason: 'again',
    });
    expect((await client.participants.list.query({ mode: 'live', search: 'dash' })).data).toHaveLength(1);
    expect((await client.participants.list.query({ mode: 'test' })).data).toHaveLength(0);
    expect(await client.participants.get.query({ mode: 'live', externalId: 'dash-1' })).toMatchObject({
      balance: 5,
    });
    expect(
      (await client.participants.ledger.query({ mode: 'live', externalId: 'dash-1' })).data,
    ).toHaveLength(3);
    expect(await client.participants.badges.query({ mode: 'live', externalId: 'dash-1' })).toEqual({
      data: [],
    });
    expect(await client.participants.summary.query({ mode: 'live', externalId: 'dash-1' })).toMatchObject({
      rank: 1,
    });
    expect(
      await client.participants.update.mutate({ mode: 'live', externalId: 'dash-1', name: 'Dash' }),
    ).toMatchObject({ name: 'Dash' });
    await client.leaderboards.create.mutate({ mode: 'live', key: 'wk', name: 'Week', period: 'weekly' });
    expect((await client.leaderboards.list.query({ mode: 'live' })).data.map((b) => b.key)).toEqual([
      'points',
      'wk',
    ]);
    expect((await client.leaderboards.top.query({ mode: 'live', key: 'wk' })).data).toEqual([
      { rank: 1, external_id: 'dash-1', score: 5 },
    ]);
    expect(
      await client.leaderboards.standing.query({ mode: 'live', key: 'points', externalId: 'dash-1' }),
    ).toEqual({
      rank: 1,
      score: 5,
    });
    const err = await client.participants.adjust
      .mutate({ mode: 'live', externalId: 'dash-1', points: -50, reason: 'x' })
      .catch((e: unknown) => e);
    expect(isTRPCClientError(err) && err.data).toMatchObject({ type: 'insufficient_points' });
  });
});
