import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeMultiplier } from '../src/services/rewards/repository.ts';
import { seedDemoRewards } from '../src/services/rewards/seed-rewards.ts';
import { balanceOf, buildParticipant, buildReward, outboxOf } from './factories.ts';
import { startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

let app: TestApp;
let ws: TestWorkspace;

beforeAll(async () => {
  app = await startTestApp();
  ws = await app.workspace();
});
afterAll(() => app?.close());

const redeem = (body: Record<string, unknown>, headers?: Record<string, string>) =>
  ws.api('/v1/redemptions', { body, headers });

describe('reward management', () => {
  it('creates, shows, patches and archives a reward with the CONTRACT 8 field names', async () => {
    const created = await buildReward(ws, {
      name: 'Mug',
      type: 'physical',
      cost_points: 300,
      subtitle: 'Ceramic',
      description: 'A mug',
      image_url: 'https://example.com/mug.png',
      stock: 5,
      starts_at: '2020-01-01T00:00:00Z',
      ends_at: null,
    });
    expect(created).toMatchObject({
      id: expect.any(Number),
      name: 'Mug',
      type: 'physical',
      cost_points: 300,
      active: true,
      starts_at: '2020-01-01T00:00:00.000Z',
      ends_at: null,
      stock: 5,
      stock_remaining: 5,
      is_claimable: true,
      config: {},
    });
    const shown = await ws.api(`/v1/rewards/${created.id}`);
    expect(shown.body).toEqual(created);

    const patched = await ws.api(`/v1/rewards/${created.id}`, {
      method: 'PATCH',
      body: { cost_points: 250, stock: 8, active: false },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      cost_points: 250,
      stock: 8,
      stock_remaining: 8,
      active: false,
      is_claimable: false,
    });

    const archived = await ws.api(`/v1/rewards/${created.id}`, { method: 'DELETE' });
    expect(archived.status).toBe(200);
    const list = await ws.api('/v1/rewards?include_inactive=true');
    expect(list.body.data.map((r: { id: number }) => r.id)).not.toContain(created.id);
    // Archiving frees the name.
    await buildReward(ws, { name: 'Mug', type: 'physical', cost_points: 1 });
  });

  it('refuses a duplicate name, a voucher stock, a bad config and an end before the start', async () => {
    await buildReward(ws, { name: 'Unique', type: 'physical', cost_points: 1 });
    const dup = await ws.api('/v1/rewards', { body: { name: 'Unique', type: 'physical', cost_points: 1 } });
    expect(dup.status).toBe(422);
    expect(dup.body.error.errors[0].field).toBe('name');
    const voucherStock = await ws.api('/v1/rewards', {
      body: { name: 'V', type: 'voucher_code', cost_points: 1, stock: 3 },
    });
    expect(voucherStock.body.error.errors[0].field).toBe('stock');
    const badFactor = await ws.api('/v1/rewards', {
      body: {
        name: 'M',
        type: 'points_multiplier',
        cost_points: 1,
        config: { factor: 11, duration_hours: 1 },
      },
    });
    expect(badFactor.body.error.errors[0].field).toBe('config.factor');
    const window = await ws.api('/v1/rewards', {
      body: {
        name: 'W',
        type: 'physical',
        cost_points: 1,
        starts_at: '2030-01-02T00:00:00Z',
        ends_at: '2030-01-01T00:00:00Z',
      },
    });
    expect(window.body.error.errors[0].field).toBe('ends_at');
  });

  it('refuses an external endpoint that the egress guard blocks, when the reward is saved', async () => {
    for (const url of ['http://10.0.0.7/x', 'http://169.254.169.254/latest', 'ftp://example.com/x']) {
      const res = await ws.api('/v1/rewards', {
        body: {
          name: `Ext ${url}`,
          type: 'external',
          cost_points: 1,
          config: { endpoint_url: url, code_path: 'code' },
        },
      });
      expect(res.status, url).toBe(422);
      expect(res.body.error.errors[0].field).toBe('config.endpoint_url');
    }
  });

  it('needs rewards:write to manage rewards but any valid key to read the catalogue', async () => {
    const limited = await app.workspace({ abilities: ['events:write'] });
    const write = await limited.api('/v1/rewards', { body: { name: 'X', type: 'physical', cost_points: 1 } });
    expect(write.status).toBe(403);
    const read = await limited.api('/v1/rewards');
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ data: [] });
    const none = await limited.api('/v1/rewards', { key: null });
    expect(none.status).toBe(401);
  });

  it('hides an external reward’s header values from keys without rewards:write', async () => {
    const own = await app.workspace();
    await buildReward(own, {
      name: 'Secret headers',
      type: 'external',
      cost_points: 1,
      config: {
        endpoint_url: 'http://127.0.0.1:9/x',
        headers: { Authorization: 'Bearer s3cret' },
        code_path: 'c',
      },
    });
    const full = await own.api('/v1/rewards');
    expect(full.body.data[0].config.headers).toEqual({ Authorization: 'Bearer s3cret' });
    const { issueKey } = await import('../src/services/keys/manage-keys.ts');
    const reader = await issueKey(app.ctx, {
      workspace: own.slug,
      mode: 'test',
      abilities: ['participants:read'],
    });
    const limited = await own.api('/v1/rewards', { key: reader.key });
    expect(limited.body.data[0].config.headers).toEqual({ Authorization: '[redacted]' });
  });

  it('computes is_claimable from active, the window and stock, and keeps modes apart', async () => {
    const own = await app.workspace();
    const future = await buildReward(own, {
      name: 'Future',
      type: 'physical',
      cost_points: 1,
      starts_at: new Date(Date.now() + 86_400_000).toISOString(),
    });
    const past = await buildReward(own, {
      name: 'Past',
      type: 'physical',
      cost_points: 1,
      ends_at: new Date(Date.now() - 1000).toISOString(),
    });
    const empty = await buildReward(own, { name: 'Empty', type: 'physical', cost_points: 1, stock: 0 });
    const voucher = await buildReward(own, { name: 'No codes', type: 'voucher_code', cost_points: 1 });
    const ok = await buildReward(own, { name: 'Fine', type: 'physical', cost_points: 1 });
    const byId = Object.fromEntries(
      (await own.api('/v1/rewards')).body.data.map((r: { id: number; is_claimable: boolean }) => [r.id, r]),
    );
    expect(byId[future.id].is_claimable).toBe(false);
    expect(byId[past.id].is_claimable).toBe(false);
    expect(byId[empty.id].is_claimable).toBe(false);
    expect(byId[voucher.id]).toMatchObject({ is_claimable: false, stock_remaining: 0 });
    expect(byId[ok.id]).toMatchObject({ is_claimable: true, stock_remaining: null });
    expect((await own.api('/v1/rewards', { mode: 'live' })).body.data).toEqual([]);
    expect((await own.api(`/v1/rewards/${ok.id}`, { mode: 'live' })).status).toBe(404);
  });

  it('shows the per-participant catalogue with can_afford and meta.balance; 404 for an unknown participant', async () => {
    const own = await app.workspace();
    await buildReward(own, { name: 'Cheap', type: 'physical', cost_points: 100 });
    await buildReward(own, { name: 'Dear', type: 'physical', cost_points: 1000 });
    await buildParticipant(app, own, { externalId: 'cat-1', points: 500 });
    const res = await own.api('/v1/participants/cat-1/rewards');
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ balance: 500 });
    expect(res.body.data.map((r: { name: string; can_afford: boolean }) => [r.name, r.can_afford])).toEqual([
      ['Cheap', true],
      ['Dear', false],
    ]);
    expect((await own.api('/v1/participants/nobody/rewards')).status).toBe(404);
    expect((await own.api('/v1/rewards')).body.data[0]).not.toHaveProperty('can_afford');
  });
});

describe('code pools', () => {
  it('imports a JSON list: blanks ignored, duplicates (in the list and in the pool) skipped and counted', async () => {
    const r = await buildReward(ws, { name: 'Pool JSON', type: 'voucher_code', cost_points: 1 });
    const first = await ws.api(`/v1/rewards/${r.id}/codes`, {
      body: { codes: ['A1', ' A2 ', '', 'A1', 'A3'] },
    });
    expect(first.body).toEqual({ imported: 3, skipped_duplicates: 1, stock_remaining: 3 });
    const second = await ws.api(`/v1/rewards/${r.id}/codes`, { body: { codes: ['A3', 'A4'] } });
    expect(second.body).toEqual({ imported: 1, skipped_duplicates: 1, stock_remaining: 4 });
    expect((await ws.api(`/v1/rewards/${r.id}`)).body).toMatchObject({
      stock_remaining: 4,
      is_claimable: true,
    });
  });

  it('imports pasted text (one code per line) and CSV (first column, quoted fields, header row)', async () => {
    const r = await buildReward(ws, { name: 'Pool text', type: 'voucher_code', cost_points: 1 });
    const text = await ws.api(`/v1/rewards/${r.id}/codes`, {
      raw: 'T-1\r\n\r\nT-2\n  \nT-1\nT-3\n',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status, text.text).toBe(200);
    expect(text.body).toEqual({ imported: 3, skipped_duplicates: 1, stock_remaining: 3 });
    const csv = await ws.api(`/v1/rewards/${r.id}/codes`, {
      raw: 'code,note\n"C,1","has, comma"\nC-2,x\n\n"C ""3""",y\nT-1,dup\n',
      headers: { 'content-type': 'text/csv' },
    });
    expect(csv.status, csv.text).toBe(200);
    expect(csv.body).toEqual({ imported: 3, skipped_duplicates: 1, stock_remaining: 6 });
    const { rows } = await app.ctx.pool.query(
      'select code from reward_codes where reward_id = $1 order by id',
      [r.id],
    );
    expect(rows.map((c) => c.code)).toEqual(['T-1', 'T-2', 'T-3', 'C,1', 'C-2', 'C "3"']);
  });

  it('refuses codes for a reward without a pool, and malformed CSV', async () => {
    const phys = await buildReward(ws, { name: 'No pool', type: 'physical', cost_points: 1 });
    const res = await ws.api(`/v1/rewards/${phys.id}/codes`, { body: { codes: ['x'] } });
    expect(res.status).toBe(422);
    const v = await buildReward(ws, { name: 'Bad csv', type: 'voucher_code', cost_points: 1 });
    const bad = await ws.api(`/v1/rewards/${v.id}/codes`, {
      raw: '"unterminated\n',
      headers: { 'content-type': 'text/csv' },
    });
    expect(bad.status).toBe(422);
    expect((await ws.api(`/v1/rewards/999999/codes`, { body: { codes: ['x'] } })).status).toBe(404);
  });

  it('generates distinct codes with a prefix from an alphabet without look-alikes', async () => {
    const r = await buildReward(ws, {
      name: 'Generated',
      type: 'voucher_code',
      cost_points: 1,
      codes: ['SUMMER-MANUAL'],
    });
    const res = await ws.api(`/v1/rewards/${r.id}/codes/generate`, {
      body: { count: 20_000, prefix: 'SUMMER-', length: 8 },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ generated: 20_000, stock_remaining: 20_001 });
    const { rows } = await app.ctx.pool.query(
      `select count(distinct code) as n, bool_and(code ~ '^SUMMER-[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}$' or code = 'SUMMER-MANUAL') as shaped
         from reward_codes where reward_id = $1`,
      [r.id],
    );
    expect(rows[0]).toEqual({ n: '20001', shaped: true });
    const tooMany = await ws.api(`/v1/rewards/${r.id}/codes/generate`, { body: { count: 100_001 } });
    expect(tooMany.status).toBe(422);
  });
});

describe('POST /v1/redemptions', () => {
  it('hands out a voucher code, debits through the ledger and emits reward.redeemed and points.changed', async () => {
    const r = await buildReward(ws, {
      name: 'Coffee',
      type: 'voucher_code',
      cost_points: 200,
      codes: ['COFFEE-1', 'COFFEE-2'],
    });
    const { id: pid } = await buildParticipant(app, ws, { externalId: 'red-1', points: 500 });
    const res = await redeem({ participant: 'red-1', reward_id: r.id });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.any(Number),
      reward_id: r.id,
      participant: { external_id: 'red-1' },
      status: 'fulfilled',
      fulfilment: { type: 'voucher_code', code: 'COFFEE-1' },
      cost_points: 200,
      is_sandbox: true,
    });
    expect(await balanceOf(app, ws, 'red-1')).toEqual({ balance: 300, ledger: 300 });
    const { rows } = await app.ctx.pool.query(
      `select points, source, reference from ledger_entries where participant_id = $1 order by id desc limit 1`,
      [pid],
    );
    expect(rows[0]).toEqual({ points: '-200', source: 'redemption', reference: String(res.body.id) });
    expect((await ws.api(`/v1/rewards/${r.id}`)).body.stock_remaining).toBe(1);
    const redeemed = (await outboxOf(app, ws, 'reward.redeemed')).find(
      (d) => d.redemption.id === res.body.id,
    );
    expect(redeemed).toEqual({
      participant: { external_id: 'red-1' },
      redemption: res.body,
      reward: { id: r.id, name: 'Coffee', type: 'voucher_code' },
    });
    const changed = await outboxOf(app, ws, 'points.changed');
    expect(changed.some((d) => d.entry.reference === String(res.body.id) && d.balance === 300)).toBe(true);
    // By name as well.
    const byName = await redeem({ participant: 'red-1', reward: 'Coffee' });
    expect(byName.body.fulfilment.code).toBe('COFFEE-2');
  });

  it('checks in the order 404 → reward_unavailable → out_of_stock → insufficient_points', async () => {
    const own = await app.workspace();
    const api = (body: Record<string, unknown>) => own.api('/v1/redemptions', { body });
    await buildParticipant(app, own, { externalId: 'poor', points: 10 });
    await buildParticipant(app, own, { externalId: 'rich', points: 10_000 });
    const inactiveEmpty = await buildReward(own, {
      name: 'Off',
      type: 'physical',
      cost_points: 50,
      stock: 0,
      active: false,
    });
    const empty = await buildReward(own, { name: 'Empty', type: 'physical', cost_points: 50, stock: 0 });
    const emptyPool = await buildReward(own, { name: 'Empty pool', type: 'voucher_code', cost_points: 50 });
    const dear = await buildReward(own, { name: 'Dear', type: 'physical', cost_points: 50 });

    const ghost = await api({ participant: 'ghost', reward_id: inactiveEmpty.id });
    expect([ghost.status, ghost.body.error.type]).toEqual([404, 'not_found']);
    expect(await balanceOf(app, own, 'ghost')).toBeNull(); // not created
    expect((await api({ participant: 'poor', reward_id: 987654 })).status).toBe(404);
    expect((await api({ participant: 'poor', reward: 'Nope' })).status).toBe(404);
    expect((await api({ participant: 'poor', reward_id: inactiveEmpty.id })).body.error.type).toBe(
      'reward_unavailable',
    );
    expect((await api({ participant: 'poor', reward_id: empty.id })).body.error.type).toBe('out_of_stock');
    expect((await api({ participant: 'poor', reward_id: emptyPool.id })).body.error.type).toBe(
      'out_of_stock',
    );
    const poor = await api({ participant: 'poor', reward_id: dear.id });
    expect(poor.status).toBe(422);
    expect(poor.body.error).toMatchObject({ type: 'insufficient_points', balance: 10, cost_points: 50 });
    expect(poor.body.error.message).toMatch(/10 points.*50/);
    expect((await api({ participant: 'rich', reward_id: dear.id })).status).toBe(201);
  });

  it('answers 422 validation_error without reward_id or reward, and for a reward_id/name mismatch', async () => {
    const res = await redeem({ participant: 'red-1' });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ type: 'validation_error', errors: [{ field: 'reward_id' }] });
    const r = await buildReward(ws, { name: 'Named', type: 'physical', cost_points: 1 });
    const mismatch = await redeem({ participant: 'red-1', reward_id: r.id, reward: 'Other' });
    expect(mismatch.body.error.errors[0].field).toBe('reward');
  });

  it('replays an idempotent retry with 200 and the original object, and refuses the key with another body', async () => {
    const r = await buildReward(ws, { name: 'Idem', type: 'physical', cost_points: 10, stock: 10 });
    await buildParticipant(app, ws, { externalId: 'idem-1', points: 100 });
    const body = { participant: 'idem-1', reward_id: r.id, idempotency_key: 'order-77' };
    const first = await redeem(body);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await redeem(body);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const header = await redeem(
      { participant: 'idem-1', reward_id: r.id },
      { 'Idempotency-Key': 'order-77' },
    );
    expect(header.status).toBe(200);
    const other = await redeem({ ...body, participant: 'red-1' });
    expect(other.status).toBe(409);
    expect(other.body.error.type).toBe('idempotency_conflict');
    expect(await balanceOf(app, ws, 'idem-1')).toEqual({ balance: 90, ledger: 90 });
    expect((await ws.api(`/v1/rewards/${r.id}`)).body.stock_remaining).toBe(9);
  });

  it('needs redemptions:write', async () => {
    const limited = await app.workspace({ abilities: ['participants:read'] });
    const res = await limited.api('/v1/redemptions', { body: { participant: 'x', reward_id: 1 } });
    expect(res.status).toBe(403);
  });
});

describe('reward types', () => {
  it('physical: pending, then fulfil; a cancel refunds by a reversal entry and restores stock; other moves are 409', async () => {
    const r = await buildReward(ws, { name: 'Hoodie', type: 'physical', cost_points: 400, stock: 2 });
    const { id: pid } = await buildParticipant(app, ws, { externalId: 'phys-1', points: 1000 });
    const a = await redeem({ participant: 'phys-1', reward_id: r.id });
    const b = await redeem({ participant: 'phys-1', reward_id: r.id });
    expect(a.body).toMatchObject({ status: 'pending', fulfilment: { type: 'physical' } });
    expect((await ws.api(`/v1/rewards/${r.id}`)).body.stock_remaining).toBe(0);

    const fulfilled = await ws.api(`/v1/redemptions/${a.body.id}/fulfil`, { method: 'POST' });
    expect(fulfilled.body.status).toBe('fulfilled');
    const again = await ws.api(`/v1/redemptions/${a.body.id}/fulfil`, { method: 'POST' });
    expect([again.status, again.body.error.type]).toEqual([409, 'invalid_state']);
    expect((await ws.api(`/v1/redemptions/${a.body.id}/cancel`, { method: 'POST' })).status).toBe(409);

    const cancelled = await ws.api(`/v1/redemptions/${b.body.id}/cancel`, { method: 'POST' });
    expect(cancelled.body.status).toBe('cancelled');
    expect((await ws.api(`/v1/redemptions/${b.body.id}/fulfil`, { method: 'POST' })).status).toBe(409);
    expect((await ws.api(`/v1/redemptions/${b.body.id}/cancel`, { method: 'POST' })).status).toBe(409);
    expect(await balanceOf(app, ws, 'phys-1')).toEqual({ balance: 600, ledger: 600 });
    expect((await ws.api(`/v1/rewards/${r.id}`)).body.stock_remaining).toBe(1);
    const { rows } = await app.ctx.pool.query(
      `select r.points, r.source, r.reverses_entry_id = d.id as reverses_debit
         from ledger_entries r join ledger_entries d on d.reference = r.reference and d.source = 'redemption'
        where r.participant_id = $1 and r.source = 'reversal'`,
      [pid],
    );
    expect(rows).toEqual([{ points: '400', source: 'reversal', reverses_debit: true }]);
    expect((await ws.api('/v1/redemptions/424242/fulfil', { method: 'POST' })).status).toBe(404);
  });

  it('points_multiplier: fulfilled at once; the highest active factor applies, never the product', async () => {
    const x2 = await buildReward(ws, {
      name: 'Double',
      type: 'points_multiplier',
      cost_points: 10,
      config: { factor: 2, duration_hours: 24 },
    });
    const x3 = await buildReward(ws, {
      name: 'Triple',
      type: 'points_multiplier',
      cost_points: 10,
      config: { factor: 3, duration_hours: 1 },
    });
    const { id: pid } = await buildParticipant(app, ws, { externalId: 'mult-1', points: 100 });
    expect(await activeMultiplier(app.ctx.pool, pid)).toBeNull();
    const a = await redeem({ participant: 'mult-1', reward_id: x2.id });
    expect(a.body).toMatchObject({
      status: 'fulfilled',
      fulfilment: { type: 'points_multiplier', multiplier: { factor: 2, expires_at: expect.any(String) } },
    });
    await redeem({ participant: 'mult-1', reward_id: x3.id });
    await redeem({ participant: 'mult-1', reward_id: x2.id });
    const now = await activeMultiplier(app.ctx.pool, pid);
    expect(now?.factor).toBe(3);
    const later = await activeMultiplier(app.ctx.pool, pid, new Date(Date.now() + 2 * 3_600_000));
    expect(later?.factor).toBe(2);
    expect(await activeMultiplier(app.ctx.pool, pid, new Date(Date.now() + 48 * 3_600_000))).toBeNull();
  });

  it('digital_asset: delivers from config without a pool, and one-time codes once a pool is loaded', async () => {
    const r = await buildReward(ws, {
      name: 'E-book',
      type: 'digital_asset',
      cost_points: 5,
      config: { asset_url: 'https://example.com/book.pdf', asset_code: 'BOOK' },
    });
    await buildParticipant(app, ws, { externalId: 'dig-1', points: 100 });
    const a = await redeem({ participant: 'dig-1', reward_id: r.id });
    expect(a.body.fulfilment).toEqual({
      type: 'digital_asset',
      code: 'BOOK',
      url: 'https://example.com/book.pdf',
    });
    await ws.api(`/v1/rewards/${r.id}/codes`, { body: { codes: ['LIC-1'] } });
    expect((await ws.api(`/v1/rewards/${r.id}`)).body.stock_remaining).toBe(1);
    const b = await redeem({ participant: 'dig-1', reward_id: r.id });
    expect(b.body.fulfilment).toEqual({ type: 'digital_asset', code: 'LIC-1' });
    const c = await redeem({ participant: 'dig-1', reward_id: r.id });
    expect(c.body.error.type).toBe('out_of_stock');
  });
});

describe('GET /v1/redemptions', () => {
  it('lists newest first with participant, status and reward filters carried in the links; shows one', async () => {
    const own = await app.workspace();
    const a = await buildReward(own, { name: 'A', type: 'physical', cost_points: 1 });
    const b = await buildReward(own, {
      name: 'B',
      type: 'points_multiplier',
      cost_points: 1,
      config: { factor: 2, duration_hours: 1 },
    });
    await buildParticipant(app, own, { externalId: 'l-1', points: 100 });
    await buildParticipant(app, own, { externalId: 'l-2', points: 100 });
    const made = [];
    for (const [p, r] of [
      ['l-1', a],
      ['l-2', a],
      ['l-1', b],
      ['l-1', a],
    ] as const)
      made.push((await own.api('/v1/redemptions', { body: { participant: p, reward_id: r.id } })).body);
    const all = await own.api('/v1/redemptions');
    expect(all.body.data.map((x: { id: number }) => x.id)).toEqual(made.map((x) => x.id).reverse());
    const page = await own.api(`/v1/redemptions?participant=l-1&status=pending&reward_id=${a.id}&limit=1`);
    expect(page.body.data.map((x: { id: number }) => x.id)).toEqual([made[3].id]);
    expect(page.body.links.next).toContain('participant=l-1');
    const next = await own.api(page.body.links.next.replace(app.url, ''));
    expect(next.body.data.map((x: { id: number }) => x.id)).toEqual([made[0].id]);
    expect(next.body.links.next).toBeNull();
    const one = await own.api(`/v1/redemptions/${made[2].id}`);
    expect(one.body).toEqual(made[2]);
    expect((await own.api('/v1/redemptions/99999999')).status).toBe(404);
    expect((await own.api(`/v1/redemptions/${made[2].id}`, { mode: 'live' })).status).toBe(404);
    const limited = await app.workspace({ abilities: ['redemptions:write'] });
    expect((await limited.api('/v1/redemptions')).status).toBe(403);
  });
});

describe('demo seed', () => {
  it('creates a few rewards of every type with code pools in both modes, idempotently', async () => {
    const own = await app.workspace();
    await seedDemoRewards(app.ctx, own);
    await seedDemoRewards(app.ctx, own);
    for (const mode of ['test', 'live'] as const) {
      const all = (await own.api('/v1/rewards?include_inactive=true', { mode })).body.data as {
        type: string;
        stock_remaining: number | null;
        is_claimable: boolean;
      }[];
      expect(new Set(all.map((r) => r.type))).toEqual(
        new Set(['voucher_code', 'digital_asset', 'physical', 'points_multiplier', 'external']),
      );
      expect(all).toHaveLength(7);
      expect(all.filter((r) => r.type === 'voucher_code').map((r) => r.stock_remaining)).toEqual([25, 5]);
    }
  });
});
