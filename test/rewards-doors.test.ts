import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceOf, buildParticipant, buildReward, graphqlClient, trpcClient } from './factories.ts';
import { startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

// GraphQL and tRPC are doors into the same services as REST: same guarantees, same errors.

let app: TestApp;
let ws: TestWorkspace;

beforeAll(async () => {
  app = await startTestApp();
  ws = await app.workspace();
});
afterAll(() => app?.close());

const gql = (query: string, variables: Record<string, unknown> = {}, key: string | null = ws.keys.test) =>
  graphqlClient(app, ws, { key })(query, variables);

const dashboard = (w: TestWorkspace) => trpcClient(app, w);

describe('GraphQL', () => {
  it('lists the catalogue with canAfford for a participant, redeems, and lists redemptions', async () => {
    const cheap = await buildReward(ws, {
      name: 'GQL cheap',
      type: 'voucher_code',
      cost_points: 10,
      codes: ['G-1'],
    });
    await buildReward(ws, { name: 'GQL dear', type: 'physical', cost_points: 1000 });
    await buildParticipant(app, ws, { externalId: 'gql-1', points: 50 });

    const catalogue = await gql(
      `query($p: String) { rewards(participant: $p) { id name type costPoints stockRemaining isClaimable canAfford } }`,
      { p: 'gql-1' },
    );
    expect(catalogue.body.errors).toBeUndefined();
    expect(
      catalogue.body.data.rewards.map((r: { name: string; canAfford: boolean }) => [r.name, r.canAfford]),
    ).toEqual([
      ['GQL cheap', true],
      ['GQL dear', false],
    ]);
    const plain = await gql(`{ rewards { name canAfford } }`);
    expect(plain.body.data.rewards[0].canAfford).toBeNull();

    const REDEEM = `mutation($input: RedeemInput!) {
      redeem(input: $input) { replayed redemption { id status fulfilment costPoints participant { externalId } } } }`;
    const first = await gql(REDEEM, {
      input: { participant: 'gql-1', rewardId: String(cheap.id), idempotencyKey: 'g1' },
    });
    expect(first.body.errors).toBeUndefined();
    expect(first.body.data.redeem).toMatchObject({
      replayed: false,
      redemption: { status: 'fulfilled', fulfilment: { type: 'voucher_code', code: 'G-1' }, costPoints: 10 },
    });
    const again = await gql(REDEEM, {
      input: { participant: 'gql-1', rewardId: String(cheap.id), idempotencyKey: 'g1' },
    });
    expect(again.body.data.redeem.replayed).toBe(true);
    const empty = await gql(REDEEM, { input: { participant: 'gql-1', reward: 'GQL cheap' } });
    expect(empty.body.errors[0].extensions.code).toBe('out_of_stock');
    const poor = await gql(REDEEM, { input: { participant: 'gql-1', reward: 'GQL dear' } });
    expect(poor.body.errors[0].extensions).toMatchObject({
      code: 'insufficient_points',
      balance: 40,
      cost_points: 1000,
    });
    const neither = await gql(REDEEM, { input: { participant: 'gql-1' } });
    expect(neither.body.errors[0].extensions).toMatchObject({
      code: 'validation_error',
      errors: [{ field: 'input.rewardId' }],
    });
    expect(await balanceOf(app, ws, 'gql-1')).toEqual({ balance: 40, ledger: 40 });

    const list = await gql(`{ redemptions(participant: "gql-1") { nodes { id status } } }`);
    expect(list.body.data.redemptions.nodes).toEqual([
      { id: String(first.body.data.redeem.redemption.id), status: 'fulfilled' },
    ]);
  });

  it('enforces abilities: redeem needs redemptions:write, redemptions participants:read, the catalogue any key', async () => {
    const limited = await app.workspace({ abilities: ['events:write'] });
    const key = limited.keys.test;
    expect((await gql(`{ rewards { id } }`, {}, key)).body.data.rewards).toEqual([]);
    const redeem = await gql(
      `mutation { redeem(input: { participant: "x", rewardId: "1" }) { replayed } }`,
      {},
      key,
    );
    expect(redeem.body.errors[0].extensions.code).toBe('permission_error');
    const list = await gql(`{ redemptions { nodes { id } } }`, {}, key);
    expect(list.body.errors[0].extensions.code).toBe('permission_error');
    expect((await gql(`{ rewards { id } }`, {}, null)).body.errors[0].extensions.code).toBe(
      'authentication_error',
    );
  });
});

describe('tRPC (dashboard)', () => {
  it('edits a reward, imports and generates codes, tests the endpoint, and fulfils or cancels redemptions', async () => {
    const own = await app.workspace();
    const client = await dashboard(own);
    const created = await client.rewards.create.mutate({
      mode: 'test',
      name: 'Dash voucher',
      type: 'voucher_code',
      cost_points: 5,
    });
    const updated = await client.rewards.update.mutate({
      mode: 'test',
      id: created.id,
      subtitle: 'Now with subtitle',
    });
    expect(updated.subtitle).toBe('Now with subtitle');
    expect(
      await client.rewards.importCodes.mutate({ mode: 'test', id: created.id, codes: ['D1', 'D1', 'D2'] }),
    ).toEqual({
      imported: 2,
      skipped_duplicates: 1,
      stock_remaining: 2,
    });
    expect(
      await client.rewards.importCodesText.mutate({
        mode: 'test',
        id: created.id,
        text: 'code\n"D3"\nD2\n',
        format: 'csv',
      }),
    ).toEqual({ imported: 1, skipped_duplicates: 1, stock_remaining: 3 });
    expect(
      await client.rewards.generateCodes.mutate({ mode: 'test', id: created.id, count: 10, prefix: 'G' }),
    ).toEqual({
      generated: 10,
      stock_remaining: 13,
    });
    const ext = await client.rewards.create.mutate({
      mode: 'test',
      name: 'Dash external',
      type: 'external',
      cost_points: 5,
      config: { endpoint_url: 'http://127.0.0.1:1/unreachable', code_path: 'code' },
    });
    const tested = await client.rewards.testFulfilment.mutate({ mode: 'test', id: ext.id });
    expect(tested).toMatchObject({
      ok: false,
      status_code: null,
      code: null,
      error: expect.stringMatching(/connection/),
    });

    const phys = await buildReward(own, {
      name: 'Dash physical',
      type: 'physical',
      cost_points: 5,
      stock: 3,
    });
    await buildParticipant(app, own, { externalId: 'dash-1', points: 100 });
    const a = (await own.api('/v1/redemptions', { body: { participant: 'dash-1', reward_id: phys.id } }))
      .body;
    const b = (await own.api('/v1/redemptions', { body: { participant: 'dash-1', reward_id: phys.id } }))
      .body;
    const pending = await client.rewards.redemptions.list.query({ mode: 'test', status: 'pending' });
    expect(pending.data.map((x) => x.id)).toEqual([b.id, a.id]);
    expect((await client.rewards.redemptions.fulfil.mutate({ mode: 'test', id: a.id })).status).toBe(
      'fulfilled',
    );
    expect((await client.rewards.redemptions.cancel.mutate({ mode: 'test', id: b.id })).status).toBe(
      'cancelled',
    );
    await expect(client.rewards.redemptions.cancel.mutate({ mode: 'test', id: a.id })).rejects.toMatchObject({
      data: { type: 'invalid_state' },
    });
    expect(await balanceOf(app, own, 'dash-1')).toEqual({ balance: 95, ledger: 95 });
    expect((await client.rewards.archive.mutate({ mode: 'test', id: created.id })).is_claimable).toBe(false);
  });
});
