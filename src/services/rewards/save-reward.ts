import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppContext } from '../../context.ts';
import { uniqueViolation } from '../../db/tx.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import { validationError } from '../../errors.ts';
import { assertEgressAllowed, EgressError } from '../../lib/egress.ts';
import type { Principal } from '../keys/principal.ts';
import { tierRulesOf } from '../tiers/programme.ts';
import { Reward } from './entities.ts';
import { presentReward, revealsSecrets } from './presenters.ts';
import { findRewardEntity, rewardRows } from './repository.ts';
import {
  type CreateRewardInput,
  checkWindow,
  parseConfig,
  type RewardType,
  type UpdateRewardInput,
} from './reward-input.ts';
import type { RewardDto } from './shapes.ts';

// A cold path: the Reward entity over a forked `em`. Changes lock the row in `em`'s transaction,
// since the redemption path (SQL, bench suite `rewards`) moves `stock_remaining` concurrently.

const toDate = (v: string | null | undefined) => (v == null ? null : new Date(v));

/** A `min_tier` must name a level of the running tier programme (docs/tiers.md#benefits). */
async function checkMinTier(ctx: AppContext, who: Principal, minTier: string | null | undefined) {
  if (minTier == null) return;
  const rules = await tierRulesOf(ctx.pool, who.workspaceId, who.mode);
  const keys = rules?.programme.levels.map((l) => l.key) ?? [];
  if (!keys.includes(minTier))
    throw validationError([
      {
        field: 'min_tier',
        message: rules
          ? `no level "${minTier}"; the levels are ${keys.join(', ')}`
          : 'no tier programme runs: PUT /v1/tiers first',
      },
    ]);
}

async function present(em: EntityManager, who: Principal, reward: Reward): Promise<RewardDto> {
  const [row] = await rewardRows(em, [reward]);
  return presentReward(row!, revealsSecrets(who));
}

/** Creates a catalogue reward; an external reward's endpoint must pass the egress guard. */
export async function createReward(
  ctx: AppContext,
  who: Principal,
  data: CreateRewardInput,
): Promise<RewardDto> {
  const config = await checkedConfig(ctx, data.type, data.config);
  checkStock(data.type, data.stock);
  checkWindow(data.starts_at, data.ends_at);
  await checkMinTier(ctx, who, data.min_tier);
  const stock = data.stock ?? null;
  return unitOfWork(ctx, async ({ em }) => {
    const now = new Date();
    const reward = em.create(Reward, {
      workspace: who.workspaceId,
      mode: who.mode,
      name: data.name,
      type: data.type,
      costPoints: data.cost_points,
      subtitle: data.subtitle ?? null,
      description: data.description ?? null,
      imageUrl: data.image_url ?? null,
      active: data.active ?? true,
      startsAt: toDate(data.starts_at),
      endsAt: toDate(data.ends_at),
      stock,
      stockRemaining: stock,
      config,
      minTier: data.min_tier ?? null,
      createdAt: now,
      updatedAt: now,
    });
    await nameTaken(() => em.flush());
    return present(em, who, reward);
  });
}

/**
 * PATCH: replaces the given fields. `stock` moves `stock_remaining` by the same difference
 * (from unlimited it starts at the new stock), so units already redeemed stay counted.
 */
export async function updateReward(
  ctx: AppContext,
  who: Principal,
  id: string | number,
  data: UpdateRewardInput,
): Promise<RewardDto> {
  return unitOfWork(ctx, async ({ em }) => {
    const reward = await findRewardEntity(em, who, id, { lock: true });
    const type = reward.type as RewardType;
    const config = data.config === undefined ? undefined : await checkedConfig(ctx, type, data.config);
    if (data.stock !== undefined) checkStock(type, data.stock);
    await checkMinTier(ctx, who, data.min_tier);
    checkWindow(
      data.starts_at === undefined ? reward.startsAt : data.starts_at,
      data.ends_at === undefined ? reward.endsAt : data.ends_at,
    );
    if (data.name !== undefined) reward.name = data.name;
    if (data.subtitle !== undefined) reward.subtitle = data.subtitle;
    if (data.description !== undefined) reward.description = data.description;
    if (data.image_url !== undefined) reward.imageUrl = data.image_url;
    if (data.cost_points !== undefined) reward.costPoints = data.cost_points;
    if (data.active !== undefined) reward.active = data.active;
    if (data.starts_at !== undefined) reward.startsAt = toDate(data.starts_at);
    if (data.ends_at !== undefined) reward.endsAt = toDate(data.ends_at);
    if (config !== undefined) reward.config = config;
    if (data.min_tier !== undefined) reward.minTier = data.min_tier;
    if (data.stock !== undefined) {
      const n = data.stock;
      const { stock, stockRemaining } = reward;
      reward.stockRemaining =
        n === null
          ? null
          : stock == null || stockRemaining == null
            ? n
            : Math.max(stockRemaining + n - stock, 0);
      reward.stock = n;
    }
    if (Object.values(data).some((v) => v !== undefined)) {
      reward.updatedAt = new Date();
      await nameTaken(() => em.flush());
    }
    return present(em, who, reward);
  });
}

/** Archives a reward: it leaves the catalogue and cannot be redeemed; its redemptions stay. */
export async function archiveReward(
  ctx: AppContext,
  who: Principal,
  id: string | number,
): Promise<RewardDto> {
  return unitOfWork(ctx, async ({ em }) => {
    const reward = await findRewardEntity(em, who, id, { lock: true });
    const now = new Date();
    reward.archivedAt = now;
    reward.active = false;
    reward.updatedAt = now;
    await em.flush();
    return present(em, who, reward);
  });
}

async function checkedConfig(
  ctx: AppContext,
  type: RewardType,
  raw: unknown,
): Promise<Record<string, unknown>> {
  const config = parseConfig(type, raw);
  if (type === 'external') {
    try {
      await assertEgressAllowed(String(config.endpoint_url), { allowCidrs: ctx.config.EGRESS_ALLOW_CIDRS });
    } catch (err) {
      if (err instanceof EgressError)
        throw validationError([{ field: 'config.endpoint_url', message: err.message }]);
      throw err;
    }
  }
  return config;
}

function checkStock(type: RewardType, stock: number | null | undefined) {
  if (type === 'voucher_code' && stock != null)
    throw validationError([
      { field: 'stock', message: 'a voucher_code reward’s stock is its code pool: import or generate codes' },
    ]);
}

async function nameTaken<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (uniqueViolation(err) === 'rewards_name_unique')
      throw validationError([
        { field: 'name', message: 'another reward in this mode already has this name' },
      ]);
    throw err;
  }
}
