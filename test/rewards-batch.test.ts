import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mode, Principal } from '../src/services/keys/principal.ts';
import { DELIVERIES_CHANNEL } from '../src/services/outbox/emit.ts';
import { type RedeemInput, redeemReward } from '../src/services/rewards/redeem-reward.ts';
import { balanceOf, buildParticipant, buildReward, ledgerMismatches, outboxOf } from './factories.ts';
import { eventually, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

// Redemptions made in the same turn of the event loop share one statement (redeem-batch.ts,
// batchFor). Calling the service directly, all in one tick, makes that batch certain, so the
// per-row rules of the shared statement are checked here with a known composition.

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const principal = (ws: TestWorkspace, mode: Mode = 'test'): Principal => ({
  workspaceId: ws.id,
  workspaceSlug: ws.slug,
  mode,
  keyId: ws.keyIds[mode],
  abilities: ['*'],
});

type Settled = { ok: true; body: any } | { ok: false; type: string; message: string };

/** Starts every redemption in the same tick; their outcomes in order. */
async function sameTick(ws: TestWorkspace, bodies: RedeemInput[], mode: Mode = 'test'): Promise<Settled[]> {
  const who = principal(ws, mode);
  const calls = bodies.map((b) => redeemReward(app.ctx, who, b));
  return Promise.all(
    calls.map((c) =>
      c.then(
        (r): Settled => ({ ok: true, body: r.redemption }),
        (e: { type?: string; message: string }): Settled => ({
          ok: false,
          type: e.type ?? 'error',
          message: e.message,
        }),
      ),
    ),
  );
}

describe('redemptions sharing one statement', () => {
  it('gives units in order, refuses per row, and writes each its own row, entry and results', async () => {
    const ws = await app.workspace();
    // A test-mode subscription: the shared statement also writes the (simulated) deliveries.
    await app.ctx.pool.query(
      `insert into webhook_subscriptions (id, workspace_id, mode, url, event_types, secret_enc)
       values ($1, $2, 'test', 'https://hooks.example.com/x', '["*"]', 'unused')`,
      [randomUUID(), ws.id],
    );
    const counted = await buildReward(ws, { name: 'Mug', type: 'physical', cost_points: 10, stock: 2 });
    const voucher = await buildReward(ws, {
      name: 'Voucher',
      type: 'voucher_code',
      cost_points: 20,
      codes: ['V-1', 'V-2'],
    });
    const perk = await buildReward(ws, {
      name: 'Double',
      type: 'points_multiplier',
      cost_points: 5,
      config: { factor: 2, duration_hours: 24 },
    });
    const asset = await buildReward(ws, {
      name: 'Ebook',
      type: 'digital_asset',
      cost_points: 5,
      config: { asset_url: 'https://cdn.example.com/book.pdf', asset_code: 'BOOK "1"' },
    });
    for (const [name, points] of [
      ['a', 100],
      ['b', 100],
      ['c', 100],
      ['d', 100],
      ['e', 100],
      ['poor', 5],
    ] as const)
      await buildParticipant(app, ws, { externalId: name, points: points });

    const out = await sameTick(ws, [
      { participant: 'a', reward_id: counted.id },
      { participant: 'poor', reward_id: counted.id }, // cannot pay: holds nothing
      { participant: 'b', reward_id: counted.id },
      { participant: 'c', reward_id: counted.id }, // the stock of 2 is gone
      { participant: 'd', reward_id: voucher.id },
      { participant: 'e', reward_id: voucher.id },
      { participant: 'a', reward: 'Voucher' }, // a again: the next statement; the pool is empty by then
      { participant: 'c', reward_id: perk.id },
      { participant: 'b', reward: 'Ebook' },
      { participant: 'ghost', reward_id: counted.id },
    ]);
    const kinds = out.map((o) => (o.ok ? 201 : o.type));
    expect(kinds).toEqual([
      201,
      'insufficient_points',
      201,
      'out_of_stock',
      201,
      201,
      'out_of_stock',
      201,
      201,
      'not_found',
    ]);
    const ok = out.filter((o): o is { ok: true; body: any } => o.ok).map((o) => o.body);
    expect(ok.map((r) => r.fulfilment)).toEqual([
      { type: 'physical' },
      { type: 'physical' },
      { type: 'voucher_code', code: 'V-1' },
      { type: 'voucher_code', code: 'V-2' },
      { type: 'points_multiplier', multiplier: { factor: 2, expires_at: expect.any(String) } },
      { type: 'digital_asset', url: 'https://cdn.example.com/book.pdf', code: 'BOOK "1"' },
    ]);
    expect(ok.map((r) => r.status)).toEqual([
      'pending',
      'pending',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
    expect(new Set(ok.map((r) => r.id)).size).toBe(6);
    expect((await ws.api(`/v1/rewards/${counted.id}`)).body.stock_remaining).toBe(0);
    expect((await ws.api(`/v1/rewards/${voucher.id}`)).body.stock_remaining).toBe(0);

    // Balances: each debited once, by its own cost; every balance equals its ledger.
    expect(await balanceOf(app, ws, 'a')).toEqual({ balance: 90, ledger: 90 });
    expect(await balanceOf(app, ws, 'b')).toEqual({ balance: 85, ledger: 85 });
    expect(await balanceOf(app, ws, 'c')).toEqual({ balance: 95, ledger: 95 });
    expect(await balanceOf(app, ws, 'd')).toEqual({ balance: 80, ledger: 80 });
    expect(await balanceOf(app, ws, 'poor')).toEqual({ balance: 5, ledger: 5 });
    expect(await ledgerMismatches(app, ws)).toEqual([]);

    // The perk row matches its fulfilment.
    const perkRows = await app.ctx.pool.query(
      `select factor, expires_at from participant_multipliers where redemption_id = $1`,
      [ok[4].id],
    );
    expect(Number(perkRows.rows[0].factor)).toBe(2);
    expect(new Date(perkRows.rows[0].expires_at).toISOString()).toBe(ok[4].fulfilment.multiplier.expires_at);

    // Each redemption's results, built in SQL, equal what the API answered and what the ledger holds.
    const redeemed = await outboxOf(app, ws, 'reward.redeemed');
    const changed = await outboxOf(app, ws, 'points.changed');
    const entries = await app.ctx.pool.query(
      `select l.id, l.points, l.balance_after, l.reason, l.source, l.reference, l.reverses_entry_id,
              l.idempotency_key, l.created_at, p.external_id
         from ledger_entries l join participants p on p.id = l.participant_id
        where l.workspace_id = $1 and l.source = 'redemption'`,
      [ws.id],
    );
    expect(entries.rows).toHaveLength(6);
    for (const r of ok) {
      const reward = [counted, voucher, perk, asset].find((x) => x.id === r.reward_id)!;
      expect(redeemed.filter((d) => d.redemption.id === r.id)).toEqual([
        {
          participant: r.participant,
          redemption: r,
          reward: { id: reward.id, name: reward.name, type: reward.type },
        },
      ]);
      const e = entries.rows.find((x) => x.reference === String(r.id))!;
      expect(changed.filter((d) => d.entry.reference === String(r.id))).toEqual([
        {
          participant: { external_id: e.external_id },
          entry: {
            id: Number(e.id),
            points: -r.cost_points,
            balance_after: Number(e.balance_after),
            reason: `Redeemed ${reward.name}`,
            source: 'redemption',
            reference: String(r.id),
            reverses_entry_id: null,
            idempotency_key: null,
            expires_at: null,
            capped_points: 0,
            created_at: new Date(e.created_at).toISOString(),
          },
          balance: Number(e.balance_after),
        },
      ]);
    }
    // Their deliveries: one per result, simulated (test mode), the body's data being the outbox data.
    const deliveries = await app.ctx.pool.query(
      `select d.status, d.body, o.data from webhook_deliveries d join outbox o on o.id = d.outbox_id
        where d.workspace_id = $1 and o.type in ('reward.redeemed', 'points.changed')`,
      [ws.id],
    );
    expect(deliveries.rows.filter((d) => d.data.redemption?.fulfilment.type !== undefined)).toHaveLength(6);
    expect(deliveries.rows.filter((d) => d.data.entry?.source === 'redemption')).toHaveLength(6);
    for (const d of deliveries.rows) {
      expect(d.status).toBe('simulated');
      expect(JSON.parse(d.body).data).toEqual(d.data);
    }
  });

  it('one participant many times in one tick: debited one after another, never below zero', async () => {
    const ws = await app.workspace();
    const r = await buildReward(ws, { name: 'Sticker', type: 'physical', cost_points: 30 });
    await buildParticipant(app, ws, { externalId: 'solo', points: 100 });
    const out = await sameTick(
      ws,
      Array.from({ length: 6 }, () => ({ participant: 'solo', reward_id: r.id })),
    );
    expect(out.map((o) => (o.ok ? 201 : o.type))).toEqual([
      201,
      201,
      201,
      'insufficient_points',
      'insufficient_points',
      'insufficient_points',
    ]);
    expect(await balanceOf(app, ws, 'solo')).toEqual({ balance: 10, ledger: 10 });
  });
  it('a statement Postgres refuses because of one redemption runs the others again alone: they succeed', async () => {
    const ws = await app.workspace();
    const fine = await buildReward(ws, { name: 'Fine', type: 'physical', cost_points: 10, stock: 5 });
    const broken = await buildReward(ws, {
      name: 'Broken perk',
      type: 'points_multiplier',
      cost_points: 10,
      config: { factor: 2, duration_hours: 1 },
    });
    // A config the API would refuse, written behind its back: this redemption's row cannot be made.
    await app.ctx.pool.query(`update rewards set config = '{}' where id = $1`, [broken.id]);
    for (const name of ['f1', 'f2', 'b1']) await buildParticipant(app, ws, { externalId: name, points: 100 });
    const out = await sameTick(ws, [
      { participant: 'f1', reward_id: fine.id },
      { participant: 'b1', reward_id: broken.id },
      { participant: 'f2', reward_id: fine.id },
    ]);
    expect(out.map((o) => o.ok)).toEqual([true, false, true]);
    expect(await balanceOf(app, ws, 'b1')).toEqual({ balance: 100, ledger: 100 });
    expect(await balanceOf(app, ws, 'f1')).toEqual({ balance: 90, ledger: 90 });
    expect((await ws.api(`/v1/rewards/${fine.id}`)).body.stock_remaining).toBe(3);
    expect(await ledgerMismatches(app, ws)).toEqual([]);
  });
  it('live mode: a delivery per active subscription, and the dispatchers are woken on commit', async () => {
    const ws = await app.workspace();
    await app.ctx.pool.query(
      `insert into webhook_subscriptions (id, workspace_id, mode, url, event_types, secret_enc, status)
       values ($1, $2, 'live', 'https://hooks.example.com/x', '["reward.redeemed"]', 'unused', 'paused')`,
      [randomUUID(), ws.id],
    );
    const r = await buildReward(ws, { name: 'Live mug', type: 'physical', cost_points: 10 }, 'live');
    for (const name of ['l1', 'l2'])
      await buildParticipant(app, ws, { externalId: name, points: 50, mode: 'live' });
    // Paused at first: the first redemption makes no delivery.
    const listener = new pg.Client({ connectionString: app.databaseUrl });
    await listener.connect();
    try {
      const woken: string[] = [];
      listener.on('notification', (n) => woken.push(n.channel));
      await listener.query(`listen ${DELIVERIES_CHANNEL}`);
      expect((await sameTick(ws, [{ participant: 'l1', reward_id: r.id }], 'live'))[0]!.ok).toBe(true);
      await app.ctx.pool.query(`update webhook_subscriptions set status = 'active' where workspace_id = $1`, [
        ws.id,
      ]);
      const out = await sameTick(
        ws,
        ['l1', 'l2'].map((p) => ({ participant: p, reward_id: r.id })),
        'live',
      );
      expect(out.map((o) => o.ok)).toEqual([true, true]);
      await eventually(async () => woken.length > 0);
      // One delivery per redemption made while the subscription was active (a dispatcher may
      // already be working on them, so their status is not asserted).
      const { rows } = await app.ctx.pool.query(
        `select type from webhook_deliveries where workspace_id = $1`,
        [ws.id],
      );
      expect(rows).toEqual([{ type: 'reward.redeemed' }, { type: 'reward.redeemed' }]);
    } finally {
      await listener.end();
    }
  });
});
