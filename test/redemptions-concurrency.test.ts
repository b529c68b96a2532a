import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceOf, buildParticipant, buildReward, ledgerMismatches } from './factories.ts';
import { startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

// Real concurrency: hundreds of parallel HTTP requests against the running app and a real
// Postgres. Nothing is mocked; the guarantees come from the conditional writes in one transaction.

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const statuses = (responses: { status: number; body: any }[]) => {
  const count: Record<string, number> = {};
  for (const r of responses) {
    const k = r.status === 201 ? '201' : `${r.status} ${r.body?.error?.type}`;
    count[k] = (count[k] ?? 0) + 1;
  }
  return count;
};

async function fundMany(ws: TestWorkspace, prefix: string, n: number, points: number) {
  for (let i = 0; i < n; i += 50)
    await Promise.all(
      Array.from({ length: Math.min(50, n - i) }, (_, j) =>
        buildParticipant(app, ws, { externalId: `${prefix}-${i + j}`, points: points }),
      ),
    );
}

describe('concurrent redemptions', () => {
  it('N = 300 concurrent redemptions of a voucher with K = 100 codes: exactly 100 fulfilled, no code twice', async () => {
    const ws = await app.workspace();
    const r = await buildReward(ws, { name: 'Hot voucher', type: 'voucher_code', cost_points: 10 });
    await ws.api(`/v1/rewards/${r.id}/codes/generate`, { body: { count: 100 } });
    await fundMany(ws, 'v', 300, 50);
    const responses = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        ws.api('/v1/redemptions', { body: { participant: `v-${i}`, reward_id: r.id } }),
      ),
    );
    expect(statuses(responses)).toEqual({ '201': 100, '422 out_of_stock': 200 });
    const codes = responses.filter((x) => x.status === 201).map((x) => x.body.fulfilment.code);
    expect(new Set(codes).size).toBe(100);
    const { rows } = await app.ctx.pool.query(
      `select count(*) filter (where redeemed_at is null) as free,
              count(distinct redemption_id) filter (where redeemed_at is not null) as claimed
         from reward_codes where reward_id = $1`,
      [r.id],
    );
    expect(rows[0]).toEqual({ free: '0', claimed: '100' });
    const redemptions = await app.ctx.pool.query(
      `select count(*) as n from redemptions where reward_id = $1`,
      [r.id],
    );
    expect(redemptions.rows[0].n).toBe('100');
    expect((await ws.api(`/v1/rewards/${r.id}`)).body).toMatchObject({
      stock_remaining: 0,
      is_claimable: false,
    });
    expect(await ledgerMismatches(app, ws)).toEqual([]);
    // The 100 winners paid, the 200 losers did not.
    const { rows: paid } = await app.ctx.pool.query(
      `select count(*) filter (where balance = 40) as paid, count(*) filter (where balance = 50) as unpaid
         from participants where workspace_id = $1`,
      [ws.id],
    );
    expect(paid[0]).toEqual({ paid: '100', unpaid: '200' });
  });

  it('N = 250 concurrent redemptions of a counted stock of K = 60: exactly 60 succeed, stock ends at 0', async () => {
    const ws = await app.workspace();
    const r = await buildReward(ws, { name: 'Hot tee', type: 'physical', cost_points: 10, stock: 60 });
    await fundMany(ws, 's', 250, 10);
    const responses = await Promise.all(
      Array.from({ length: 250 }, (_, i) =>
        ws.api('/v1/redemptions', { body: { participant: `s-${i}`, reward_id: r.id } }),
      ),
    );
    expect(statuses(responses)).toEqual({ '201': 60, '422 out_of_stock': 190 });
    expect((await ws.api(`/v1/rewards/${r.id}`)).body.stock_remaining).toBe(0);
    expect(await ledgerMismatches(app, ws)).toEqual([]);
  });

  it('one participant whose balance covers M = 7 of N = 200 concurrent redemptions gets exactly 7', async () => {
    const ws = await app.workspace();
    const r = await buildReward(ws, { name: 'Sticker', type: 'physical', cost_points: 30 });
    await buildParticipant(app, ws, { externalId: 'solo', points: 7 * 30 + 29 });
    const responses = await Promise.all(
      Array.from({ length: 200 }, () =>
        ws.api('/v1/redemptions', { body: { participant: 'solo', reward_id: r.id } }),
      ),
    );
    expect(statuses(responses)).toEqual({ '201': 7, '422 insufficient_points': 193 });
    expect(await balanceOf(app, ws, 'solo')).toEqual({ balance: 29, ledger: 29 });
  });

  it('one participant racing for pool codes: exactly M redeemed, and the codes the refused ones touched stay free', async () => {
    const ws = await app.workspace();
    const r = await buildReward(ws, { name: 'Pool race', type: 'voucher_code', cost_points: 25 });
    await ws.api(`/v1/rewards/${r.id}/codes/generate`, { body: { count: 50 } });
    await buildParticipant(app, ws, { externalId: 'solo', points: 5 * 25 });
    const responses = await Promise.all(
      Array.from({ length: 150 }, () =>
        ws.api('/v1/redemptions', { body: { participant: 'solo', reward_id: r.id } }),
      ),
    );
    expect(statuses(responses)).toEqual({ '201': 5, '422 insufficient_points': 145 });
    expect((await ws.api(`/v1/rewards/${r.id}`)).body.stock_remaining).toBe(45);
    expect(await balanceOf(app, ws, 'solo')).toEqual({ balance: 0, ledger: 0 });
  });

  it('concurrent duplicates of one idempotency key charge once: one 201, the rest 200 replays of it', async () => {
    const ws = await app.workspace();
    const r = await buildReward(ws, { name: 'Idem race', type: 'voucher_code', cost_points: 10 });
    await ws.api(`/v1/rewards/${r.id}/codes/generate`, { body: { count: 10 } });
    await buildParticipant(app, ws, { externalId: 'dup', points: 1000 });
    const body = { participant: 'dup', reward_id: r.id, idempotency_key: 'checkout-1' };
    const responses = await Promise.all(
      Array.from({ length: 100 }, () => ws.api('/v1/redemptions', { body })),
    );
    expect(statuses(responses)).toEqual({ '201': 1, '200 undefined': 99 });
    expect(new Set(responses.map((x) => x.body.id)).size).toBe(1);
    expect(new Set(responses.map((x) => x.body.fulfilment.code)).size).toBe(1);
    expect(
      responses.filter((x) => x.status === 200).every((x) => x.headers.get('idempotent-replayed') === 'true'),
    ).toBe(true);
    expect(await balanceOf(app, ws, 'dup')).toEqual({ balance: 990, ledger: 990 });
    expect((await ws.api(`/v1/rewards/${r.id}`)).body.stock_remaining).toBe(9);
  });

  it('concurrent duplicates of one key for the last unit of a counted stock: one charge, no false out_of_stock', async () => {
    const ws = await app.workspace();
    const r = await buildReward(ws, { name: 'Last unit', type: 'physical', cost_points: 10, stock: 1 });
    await buildParticipant(app, ws, { externalId: 'dup', points: 100 });
    const body = { participant: 'dup', reward_id: r.id, idempotency_key: 'last-unit' };
    const responses = await Promise.all(
      Array.from({ length: 60 }, () => ws.api('/v1/redemptions', { body })),
    );
    expect(statuses(responses)).toEqual({ '201': 1, '200 undefined': 59 });
    expect(await balanceOf(app, ws, 'dup')).toEqual({ balance: 90, ledger: 90 });
    const reused = await ws.api('/v1/redemptions', { body: { ...body, participant: 'someone-else' } });
    expect([reused.status, reused.body.error.type]).toEqual([409, 'idempotency_conflict']);
    expect((await ws.api(`/v1/rewards/${r.id}`)).body.stock_remaining).toBe(0);
  });

  it('a mixed storm (many participants, several rewards, some unaffordable) keeps every invariant', async () => {
    const ws = await app.workspace();
    const voucher = await buildReward(ws, { name: 'Mix voucher', type: 'voucher_code', cost_points: 20 });
    await ws.api(`/v1/rewards/${voucher.id}/codes/generate`, { body: { count: 40 } });
    const limited = await buildReward(ws, {
      name: 'Mix limited',
      type: 'physical',
      cost_points: 15,
      stock: 25,
    });
    const open = await buildReward(ws, {
      name: 'Mix open',
      type: 'digital_asset',
      cost_points: 5,
      config: { asset_code: 'X' },
    });
    await fundMany(ws, 'm', 60, 45);
    const rewards = [voucher.id, limited.id, open.id];
    const responses = await Promise.all(
      Array.from({ length: 360 }, (_, i) =>
        ws.api('/v1/redemptions', { body: { participant: `m-${i % 60}`, reward_id: rewards[i % 3] } }),
      ),
    );
    const ok = responses.filter((x) => x.status === 201);
    expect(responses.every((x) => x.status === 201 || x.status === 422)).toBe(true);
    const byReward = (id: number) => ok.filter((x) => x.body.reward_id === id).length;
    expect(byReward(voucher.id)).toBeLessThanOrEqual(40);
    expect(byReward(limited.id)).toBeLessThanOrEqual(25);
    const codes = ok.filter((x) => x.body.reward_id === voucher.id).map((x) => x.body.fulfilment.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect((await ws.api(`/v1/rewards/${voucher.id}`)).body.stock_remaining).toBe(40 - byReward(voucher.id));
    expect((await ws.api(`/v1/rewards/${limited.id}`)).body.stock_remaining).toBe(25 - byReward(limited.id));
    expect(await ledgerMismatches(app, ws)).toEqual([]);
    const { rows } = await app.ctx.pool.query(
      `select count(*) as negative from participants where workspace_id = $1 and balance < 0`,
      [ws.id],
    );
    expect(rows[0].negative).toBe('0');
    // Spent = what the redemptions cost.
    const spent = await app.ctx.pool.query(
      `select -coalesce(sum(points), 0) as spent from ledger_entries where workspace_id = $1 and source = 'redemption'`,
      [ws.id],
    );
    const cost = ok.reduce((s, x) => s + x.body.cost_points, 0);
    expect(Number(spent.rows[0].spent)).toBe(cost);
  });
});
