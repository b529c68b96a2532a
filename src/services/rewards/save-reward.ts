import type { AppContext } from '../../context.ts';
import { uniqueViolation, withTransaction } from '../../db/tx.ts';
import { validationError } from '../../errors.ts';
import { assertEgressAllowed, EgressError } from '../../lib/egress.ts';
import type { Principal } from '../keys/principal.ts';
import { parseInput } from '../validation.ts';
import { presentReward, revealsSecrets } from './presenters.ts';
import {
  checkWindow,
  createRewardInput,
  parseConfig,
  type RewardType,
  updateRewardInput,
} from './reward-input.ts';
import { findReward } from './rewards-repo.ts';
import type { RewardDto } from './shapes.ts';

// Raw SQL: a reward is written in the transaction that then reads it back through rewards-repo.ts'
// `findReward` (stock counted from `reward_codes_available_idx`, the sale window against `now()`, shared
// with the redemption path of the bench suite `rewards`); moving rewards' CRUD to the Reward entity needs
// those as formula properties first.

/** Creates a catalogue reward (CONTRACT 8); an external reward's endpoint must pass the egress guard. */
export async function createReward(ctx: AppContext, who: Principal, input: unknown): Promise<RewardDto> {
  const data = parseInput(createRewardInput, input);
  const config = await checkedConfig(ctx, data.type, data.config);
  checkStock(data.type, data.stock);
  checkWindow(data.starts_at, data.ends_at);
  const stock = data.stock ?? null;
  return withTransaction(ctx.pool, async (sql) => {
    const { rows } = await nameTaken(() =>
      sql.query<{ id: string }>(
        `insert into rewards (workspace_id, mode, name, type, cost_points, subtitle, description, image_url,
           active, starts_at, ends_at, stock, stock_remaining, config)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12, $13::jsonb)
         returning id`,
        [
          who.workspaceId,
          who.mode,
          data.name,
          data.type,
          data.cost_points,
          data.subtitle ?? null,
          data.description ?? null,
          data.image_url ?? null,
          data.active ?? true,
          data.starts_at ?? null,
          data.ends_at ?? null,
          stock,
          JSON.stringify(config),
        ],
      ),
    );
    return presentReward(await findReward(sql, who, Number(rows[0]!.id)), revealsSecrets(who));
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
  input: unknown,
): Promise<RewardDto> {
  const data = parseInput(updateRewardInput, input);
  return withTransaction(ctx.pool, async (sql) => {
    const current = await findReward(sql, who, id, { lock: true });
    const type = current.type as RewardType;
    const config = data.config === undefined ? undefined : await checkedConfig(ctx, type, data.config);
    if (data.stock !== undefined) checkStock(type, data.stock);
    checkWindow(
      data.starts_at === undefined ? current.starts_at : data.starts_at,
      data.ends_at === undefined ? current.ends_at : data.ends_at,
    );
    const sets: string[] = [];
    const values: unknown[] = [];
    const set = (column: string, value: unknown, cast = '') => {
      values.push(value);
      sets.push(`${column} = $${values.length}${cast}`);
    };
    for (const [field, column] of [
      ['name', 'name'],
      ['subtitle', 'subtitle'],
      ['description', 'description'],
      ['image_url', 'image_url'],
      ['cost_points', 'cost_points'],
      ['active', 'active'],
      ['starts_at', 'starts_at'],
      ['ends_at', 'ends_at'],
    ] as const) {
      if (data[field] !== undefined) set(column, data[field]);
    }
    if (config !== undefined) set('config', JSON.stringify(config), '::jsonb');
    if (data.stock !== undefined) {
      set('stock', data.stock);
      values.push(data.stock);
      const n = `$${values.length}::int`;
      sets.push(
        `stock_remaining = case when ${n} is null then null
           when stock is null or stock_remaining is null then ${n}
           else greatest(stock_remaining + ${n} - stock, 0) end`,
      );
    }
    if (sets.length) {
      values.push(current.id);
      await nameTaken(() =>
        sql.query(
          `update rewards set ${sets.join(', ')}, updated_at = now() where id = $${values.length}`,
          values,
        ),
      );
    }
    return presentReward(await findReward(sql, who, current.id), revealsSecrets(who));
  });
}

/** Archives a reward: it leaves the catalogue and cannot be redeemed; its redemptions stay. */
export async function archiveReward(
  ctx: AppContext,
  who: Principal,
  id: string | number,
): Promise<RewardDto> {
  return withTransaction(ctx.pool, async (sql) => {
    const current = await findReward(sql, who, id, { lock: true });
    await sql.query(
      `update rewards set archived_at = now(), active = false, updated_at = now() where id = $1`,
      [current.id],
    );
    return presentReward(await findReward(sql, who, current.id, { archived: true }), revealsSecrets(who));
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
