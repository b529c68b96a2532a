import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { pointsChanged } from '../src/services/ledger/post-entry.ts';
import { presentEntry } from '../src/services/ledger/presenters.ts';
import { entryColumns, type RawEntry } from '../src/services/ledger/repository.ts';
import { redemptionJsonSql } from '../src/services/rewards/presenters.ts';
import { findRedemption } from '../src/services/rewards/repository.ts';
import { redeemedResult } from '../src/services/rewards/settle-redemption.ts';
import { redemptionShape } from '../src/services/rewards/shapes.ts';
import { deliveryPayloadShape, webhookDeliveryDetailShape } from '../src/services/webhooks/shapes.ts';
import { balanceOf, buildParticipant, buildReward, outboxOf } from './factories.ts';
import { startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

// JSON built inside SQL (redemptionJsonSql, the outbox's webhook bodies) prints the same shape as
// the presenters: parsed with the shape made strict at every level, a field added, dropped or
// renamed on either side fails. The redeeming statement (rewards/redeem.sql.ts), composed from
// the ledger's and the outbox's builders, is checked whole: its results are the presenters' bytes.

/** `schema` with every object closed (unknown keys refused), however deep. */
function strict(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodObject)
    return z.strictObject(
      Object.fromEntries(Object.entries(schema.shape).map(([k, v]) => [k, strict(v as z.ZodType)])),
    );
  if (schema instanceof z.ZodOptional) return strict(schema.unwrap() as z.ZodType).optional();
  if (schema instanceof z.ZodNullable) return strict(schema.unwrap() as z.ZodType).nullable();
  if (schema instanceof z.ZodArray) return z.array(strict(schema.element as z.ZodType));
  return schema;
}

const strictRedemption = strict(redemptionShape);

let app: TestApp;
let ws: TestWorkspace;

beforeAll(async () => {
  app = await startTestApp();
  ws = await app.workspace();
  // Test mode: deliveries are stored (simulated), with the body the outbox built.
  const sub = await ws.api('/v1/webhook-subscriptions', {
    body: { url: 'http://127.0.0.1:9/hook', event_types: ['*'] },
  });
  expect(sub.status, sub.text).toBe(201);
});
afterAll(() => app?.close());

/** Each fulfilment the redeeming statement builds: a pool code, a multiplier, an asset, none. */
async function redemptionsOfEveryKind(): Promise<number[]> {
  await buildParticipant(app, ws, { externalId: 'shape-1', points: 10_000 });
  const voucher = await buildReward(ws, { name: 'Shape voucher', type: 'voucher_code', cost_points: 1 });
  expect((await ws.api(`/v1/rewards/${voucher.id}/codes`, { body: { codes: ['SHAPE-1'] } })).status).toBe(
    200,
  );
  const rewards = [
    voucher,
    await buildReward(ws, {
      name: 'Shape multiplier',
      type: 'points_multiplier',
      cost_points: 1,
      config: { factor: 1.5, duration_hours: 2 },
    }),
    await buildReward(ws, {
      name: 'Shape asset',
      type: 'digital_asset',
      cost_points: 1,
      config: { asset_code: 'LIC-9', asset_url: 'https://example.com/a' },
    }),
    await buildReward(ws, { name: 'Shape parcel', type: 'physical', cost_points: 1 }),
  ];
  const ids: number[] = [];
  for (const [i, reward] of rewards.entries()) {
    const res = await ws.api('/v1/redemptions', {
      body: { participant: 'shape-1', reward_id: reward.id, idempotency_key: `shape-${i}` },
    });
    expect(res.status, res.text).toBe(201);
    ids.push(res.body.id);
  }
  return ids;
}

describe('SQL-built redemption JSON', () => {
  it('is exactly the redemption shape, and the object the presenter prints', async () => {
    const ids = await redemptionsOfEveryKind();
    expect(await balanceOf(app, ws, 'shape-1')).toEqual({ balance: 9_996, ledger: 9_996 });
    const { rows } = await app.ctx.pool.query<{ id: string; json: string }>(
      `select x.id, ${redemptionJsonSql('x', 'p.external_id', 'x.fulfilment::text')} as json
         from redemptions x join participants p on p.id = x.participant_id
        where x.id = any($1::bigint[]) order by x.id`,
      [ids],
    );
    expect(rows).toHaveLength(ids.length);
    for (const row of rows) {
      const built = JSON.parse(row.json);
      const parsed = strictRedemption.safeParse(built);
      expect(parsed.success, `${row.json}: ${parsed.error?.message}`).toBe(true);
      const presented = await ws.api(`/v1/redemptions/${row.id}`);
      expect(presented.status).toBe(200);
      expect(built).toEqual(presented.body);
      expect(Object.keys(built)).toEqual(Object.keys(presented.body));
    }
  });

  it('in the reward.redeemed results the redeeming statement writes', async () => {
    const results = await outboxOf(app, ws, 'reward.redeemed');
    expect(results.length).toBeGreaterThanOrEqual(4);
    for (const data of results) {
      const parsed = strictRedemption.safeParse(data.redemption);
      expect(parsed.success, `${JSON.stringify(data.redemption)}: ${parsed.error?.message}`).toBe(true);
    }
  });

  it('in the bodies of the webhook deliveries those results make', async () => {
    const list = await ws.api('/v1/webhook-deliveries?type=reward.redeemed');
    expect(list.status).toBe(200);
    expect(list.body.data.length).toBeGreaterThanOrEqual(4);
    const strictDetail = strict(webhookDeliveryDetailShape.extend({ payload: deliveryPayloadShape }));
    for (const { id } of list.body.data) {
      const detail = await ws.api(`/v1/webhook-deliveries/${id}`);
      const parsed = strictDetail.safeParse(detail.body);
      expect(parsed.success, `${detail.text}: ${parsed.error?.message}`).toBe(true);
      const redemption = strictRedemption.safeParse(detail.body.payload.data.redemption);
      expect(redemption.success, redemption.error?.message).toBe(true);
    }
  });

  it('the redeeming statement prints its results byte for byte as the presenters print the rows it wrote', async () => {
    // The delivery body keeps the `data` bytes the statement built (the outbox row is jsonb).
    const { rows } = await app.ctx.pool.query<{ type: string; body: string }>(
      `select type, body from webhook_deliveries
        where workspace_id = $1 and type in ('points.changed', 'reward.redeemed') order by created_at, id`,
      [ws.id],
    );
    const who = { workspaceId: ws.id, mode: 'test' as const };
    let compared = 0;
    for (const { type, body } of rows) {
      const data = body.slice(body.indexOf(',"data":') + ',"data":'.length, -1);
      const parsed = JSON.parse(data);
      if (type === 'reward.redeemed') {
        const row = (await findRedemption(app.ctx.pool, who, parsed.redemption.id))!;
        const reward = await app.ctx.pool.query(`select id, name, type from rewards where id = $1`, [
          row.reward_id,
        ]);
        const { id, name, type: rewardType } = reward.rows[0]!;
        expect(data).toBe(
          JSON.stringify(redeemedResult(who, row, { id: Number(id), name, type: rewardType }).data),
        );
        compared++;
      } else if (parsed.entry.source === 'redemption') {
        const entry = await app.ctx.pool.query<RawEntry>(
          `select ${entryColumns()} from ledger_entries where id = $1`,
          [parsed.entry.id],
        );
        const presented = pointsChanged({ ...who, externalId: 'shape-1' }, presentEntry(entry.rows[0]!));
        expect(data).toBe(JSON.stringify(presented.data));
        compared++;
      }
    }
    // Both results of each redemption of every kind (redemptionsOfEveryKind).
    expect(compared).toBe(8);
  });

  it('fails on drift: an extra or a missing field is refused', () => {
    const sample = {
      id: 1,
      reward_id: 2,
      participant: { external_id: 'p' },
      status: 'fulfilled',
      fulfilment: { type: 'voucher_code', code: 'A' },
      cost_points: 1,
      idempotency_key: null,
      is_sandbox: true,
      created_at: '2026-11-22T10:00:00.000Z',
      updated_at: '2026-11-22T10:00:00.000Z',
    };
    expect(strictRedemption.safeParse(sample).success).toBe(true);
    expect(strictRedemption.safeParse({ ...sample, extra: 1 }).success).toBe(false);
    expect(
      strictRedemption.safeParse({ ...sample, fulfilment: { type: 'voucher_code', x: 1 } }).success,
    ).toBe(false);
    const { is_sandbox: _, ...missing } = sample;
    expect(strictRedemption.safeParse(missing).success).toBe(false);
  });
});
