import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Client, createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { balanceOf, buildParticipant, buildReward, graphqlClient } from './factories.ts';
import { eventually, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

// An external reward whose partner endpoint fails: the redemption's debit commits, the call
// fails, and the rollback refunds the points by a reversal (rewards/external-fulfilment.ts).
// A balanceChanged subscriber sees both committed entries, debit then refund, with the balance
// after each; the endpoint is a real HTTP server on loopback (EGRESS_ALLOW_CIDRS in tests).

let app: TestApp;
let ws: TestWorkspace;
let partner: http.Server;
let partnerUrl: string;
let calls = 0;
const clients: Client[] = [];

beforeAll(async () => {
  app = await startTestApp({ env: { WEBHOOK_TIMEOUT_MS: '600' } });
  ws = await app.workspace();
  partner = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      calls++;
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{"error":"partner down"}');
    });
  });
  await new Promise<void>((resolve) => partner.listen(0, '127.0.0.1', resolve));
  partnerUrl = `http://127.0.0.1:${(partner.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  partner?.closeAllConnections();
  await new Promise<void>((resolve) => (partner ? partner.close(() => resolve()) : resolve()));
  await app?.close();
});

const BALANCE = `subscription($id: String!) {
  balanceChanged(externalId: $id) {
    externalId balance lifetimePoints
    entry { id points balanceAfter source reference reversesEntryId }
  }
}`;

describe('balanceChanged on an external fulfilment rollback', () => {
  it('delivers the debit, then the refund, in commit order with the balance after each', async () => {
    const reward = await buildReward(ws, {
      name: 'Partner voucher',
      type: 'external',
      cost_points: 100,
      stock: 5,
      config: { endpoint_url: `${partnerUrl}/vouchers`, method: 'POST', code_path: 'data.voucher' },
    });
    await buildParticipant(app, ws, { externalId: 'refunded', points: 300 });

    const client = createClient({
      url: `${app.url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${ws.keys.test}` },
      retryAttempts: 0,
      lazy: false,
      onNonLazyError: () => {},
    });
    clients.push(client);
    const got: any[] = [];
    const errors: unknown[] = [];
    const before = app.ctx.live.size;
    client.subscribe(
      { query: BALANCE, variables: { id: 'refunded' } },
      {
        next: (r) => (r.errors ? errors.push(...r.errors) : got.push(r.data)),
        error: (e) => errors.push(e),
        complete: () => {},
      },
    );
    await eventually(async () => app.ctx.live.size > before);

    const res = await graphqlClient(app, ws)(
      `mutation($input: RedeemInput!) { redeem(input: $input) { redemption { id } } }`,
      { input: { participant: 'refunded', rewardId: String(reward.id), idempotencyKey: 'rollback-1' } },
    );
    expect(res.body.errors?.[0]?.extensions, res.text).toMatchObject({
      code: 'external_fulfilment_failed',
      redemption_id: expect.any(Number),
    });
    expect(calls).toBeGreaterThan(0);
    const redemptionId = String(res.body.errors[0].extensions.redemption_id);

    await eventually(async () => got.length >= 2, 5_000);
    await new Promise((r) => setTimeout(r, 200)); // nothing more arrives
    expect(errors).toEqual([]);
    const [debit, refund] = got.map((d) => d.balanceChanged);
    expect(got).toHaveLength(2);
    expect(debit).toEqual({
      externalId: 'refunded',
      balance: 200,
      lifetimePoints: 300,
      entry: {
        id: expect.any(String),
        points: -100,
        balanceAfter: 200,
        source: 'redemption',
        reference: redemptionId,
        reversesEntryId: null,
      },
    });
    expect(refund).toEqual({
      externalId: 'refunded',
      balance: 300,
      lifetimePoints: 300,
      entry: {
        id: expect.any(String),
        points: 100,
        balanceAfter: 300,
        source: 'reversal',
        reference: redemptionId,
        reversesEntryId: debit.entry.id,
      },
    });
    expect(BigInt(refund.entry.id)).toBeGreaterThan(BigInt(debit.entry.id));
    // What the subscriber saw is what the ledger holds.
    expect(await balanceOf(app, ws, 'refunded')).toEqual({ balance: 300, ledger: 300 });
  });
});
