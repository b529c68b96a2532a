import { type Client, createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { graphqlClient, trpcClient } from './factories.ts';
import { eventually, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

// The points lifecycle through GraphQL (queries, mutations, the live balanceChanged of an expiry,
// participant tokens) and tRPC: the same services as REST (test/points-lifecycle.test.ts).

let app: TestApp;
let ws: TestWorkspace;
const sockets: Client[] = [];

beforeAll(async () => {
  app = await startTestApp({ env: { LOYALTY_TICK_SECONDS: '1' } });
  ws = await app.workspace();
});
afterAll(async () => {
  await Promise.all(sockets.map((c) => c.dispose()));
  await app?.close();
});

const adjust = (id: string, points: number) =>
  ws.api(`/v1/participants/${id}/points`, { body: { points, reason: 'doors' } });

describe('GraphQL', () => {
  it('reads and changes the programme, and names the argument a bad value came in', async () => {
    const gql = graphqlClient(app, ws);
    const { program } = await gql.data(
      `{ program { timezone pointsExpiry { mode } expiryNotice earningCaps { period } } }`,
    );
    expect(program).toEqual({ timezone: 'UTC', pointsExpiry: null, expiryNotice: 'P14D', earningCaps: [] });
    const { updateProgram } = await gql.data(
      `mutation ($input: UpdateProgramInput!) { updateProgram(input: $input) {
         timezone pointsExpiry { mode after roundTo } pendingFor earningCaps { period maxPoints } } }`,
      {
        input: {
          timezone: 'Europe/Paris',
          pointsExpiry: { mode: 'fixed', after: 'P12M', roundTo: 'month' },
          earningCaps: [{ period: 'week', maxPoints: 500 }],
        },
      },
    );
    expect(updateProgram).toEqual({
      timezone: 'Europe/Paris',
      pointsExpiry: { mode: 'fixed', after: 'P12M', roundTo: 'month' },
      pendingFor: null,
      earningCaps: [{ period: 'week', maxPoints: 500 }],
    });
    const bad = await gql(
      `mutation { updateProgram(input: { pointsExpiry: { mode: fixed, after: "soon" } }) { timezone } }`,
    );
    expect(bad.body.errors[0].extensions.code).toBe('validation_error');
    expect(bad.body.errors[0].extensions.errors[0].field).toBe('input.pointsExpiry.after');
    // Cleared again for the tests below.
    await gql.data(`mutation { updateProgram(input: { pointsExpiry: null, earningCaps: [] }) { timezone } }`);
  });

  it('shows lots, pending points and next expiry on a participant, and settles a grant', async () => {
    const gql = graphqlClient(app, ws);
    await ws.api('/v1/program', {
      method: 'PATCH',
      body: { points_expiry: { mode: 'fixed', after: 'P7D' } },
    });
    await adjust('gq-1', 30);
    await ws.api('/v1/program', { method: 'PATCH', body: { points_expiry: null } });
    await adjust('gq-1', 5);
    await ws.api('/v1/flows', {
      body: {
        name: 'pending',
        event_type: 'gq.done',
        actions: [{ type: 'award_points', points: 12, pending_for: 'P30D' }],
      },
    });
    await ws.api('/v1/events', {
      body: { event_type: 'gq.done', participant: { external_id: 'gq-1' }, payload: {} },
    });
    const read = () =>
      gql.data<any>(
        `{ participant(externalId: "gq-1") {
             balance pendingPoints nextExpiry { points expiresAt }
             points { balance pendingPoints lots { points remaining expiresAt } expiring { points } }
             pendingGrants(first: 5) { edges { node { id points status } } } } }`,
      );
    const { participant } = await eventually(async () => {
      const d = await read();
      return d.participant.pendingPoints === 12 ? d : null;
    }, 15_000);
    expect(participant.balance).toBe(35);
    expect(participant.nextExpiry.points).toBe(30);
    expect(participant.points.lots.map((l: any) => [l.remaining, l.expiresAt === null])).toEqual([
      [30, false],
      [5, true],
    ]);
    expect(participant.points.expiring).toEqual([{ points: 30 }]);
    const grant = participant.pendingGrants.edges[0].node;
    expect(grant).toMatchObject({ points: 12, status: 'pending' });
    const { activatePendingPoints } = await gql.data(
      `mutation ($id: ID!) { activatePendingPoints(id: $id) { status entryId } }`,
      { id: grant.id },
    );
    expect(activatePendingPoints).toMatchObject({ status: 'activated', entryId: expect.any(String) });
    const again = await gql(`mutation ($id: ID!) { cancelPendingPoints(id: $id) { status } }`, {
      id: grant.id,
    });
    expect(again.body.errors[0].extensions.code).toBe('invalid_state');
    expect((await read()).participant).toMatchObject({ balance: 47, pendingPoints: 0 });
  });

  it('lets a participant token read its own lots and pending grants, and no one else’s', async () => {
    await adjust('tok-me', 8);
    await adjust('tok-other', 9);
    const token = (await ws.api('/v1/participants/tok-me/tokens', { body: {} })).body.token as string;
    const asToken = graphqlClient(app, null, { key: token });
    const own = await asToken.data<any>(
      `{ participant(externalId: "tok-me") { pendingPoints points { balance lots { remaining } } pendingGrants(first: 1) { edges { node { id } } } } }`,
    );
    expect(own.participant.points).toEqual({ balance: 8, lots: [{ remaining: 8 }] });
    const other = await asToken(`{ participant(externalId: "tok-other") { points { balance } } }`);
    expect(other.body.errors[0].extensions.code).toBe('permission_error');
    const mutate = await asToken(`mutation { updateProgram(input: { timezone: "UTC" }) { timezone } }`);
    expect(mutate.body.errors[0].extensions.code).toBe('permission_error');
  });

  it('sends the expiry entry to balanceChanged subscribers', async () => {
    await ws.api('/v1/program', {
      method: 'PATCH',
      body: { points_expiry: { mode: 'fixed', after: 'PT2S' } },
    });
    await adjust('live-exp', 20);
    await ws.api('/v1/program', { method: 'PATCH', body: { points_expiry: null } });
    const client = createClient({
      url: `${app.url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${ws.keys.test}` },
      retryAttempts: 0,
    });
    sockets.push(client);
    const seen: any[] = [];
    client.subscribe(
      {
        query: `subscription { balanceChanged(externalId: "live-exp") { balance entry { points source reference } } }`,
      },
      { next: (r) => r.data && seen.push(r.data.balanceChanged), error: () => {}, complete: () => {} },
    );
    const change = await eventually(async () => seen.find((c) => c.entry.source === 'expiry'), 15_000);
    expect(change).toMatchObject({ balance: 0, entry: { points: -20, source: 'expiry' } });
    expect(change.entry.reference).toMatch(/^lot:\d+$/);
  });
});

describe('tRPC (the dashboard)', () => {
  it('reads and changes the programme, a participant’s lots and pending grants', async () => {
    const trpc = await trpcClient(app, ws);
    const program = await trpc.points.updateProgram.mutate({ mode: 'test', pending_for: 'P3D' });
    expect(program.pending_for).toBe('P3D');
    expect((await trpc.points.program.query({ mode: 'test' })).pending_for).toBe('P3D');
    await expect(trpc.points.updateProgram.mutate({ mode: 'test', pending_for: 'later' })).rejects.toThrow();
    await adjust('trpc-1', 11);
    const lots = await trpc.points.lots.query({ mode: 'test', externalId: 'trpc-1' });
    expect(lots).toMatchObject({ balance: 11, pending_points: 0, lots: [{ remaining: 11 }] });
    const page = await trpc.points.pending.query({ mode: 'test', externalId: 'trpc-1' });
    expect(page.data).toEqual([]);
    await trpc.points.updateProgram.mutate({ mode: 'test', pending_for: null });
  });
});
