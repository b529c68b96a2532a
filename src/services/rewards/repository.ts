import { LockMode, raw } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Sql } from '../../db/tx.ts';
import { notFound } from '../../errors.ts';
import type { Principal, Scope } from '../keys/principal.ts';
import { Reward, RewardCode } from './entities.ts';
import type { RedemptionRow, RewardRow } from './presenters.ts';

/**
 * The queries of rewards. The catalogue's CRUD is a cold path: MikroORM over the caller's forked
 * `em` (in its transaction, the row locked, when it changes one), its live stock counted in one
 * query per read ({@link codeStock}). The redemption path stays in SQL for the bench suite
 * `rewards`: {@link findReward} (the row locked `for update` on the raw client by import-codes.ts'
 * `poolReward`), {@link findRedemption} and `REDEMPTION_COLUMNS` (settle-redemption.ts builds its
 * results from the same columns).
 */

const live = (who: Scope) => ({ workspace: who.workspaceId, mode: who.mode, archivedAt: null });

/** Parses a path id that should be a positive integer; anything else is the 404 of an unknown id. */
export function numericId(id: string | number, what: string): number {
  const n = typeof id === 'number' ? id : /^\d{1,18}$/.test(id) ? Number(id) : Number.NaN;
  if (!Number.isSafeInteger(n) || n <= 0) throw notFound(what);
  return n;
}

/**
 * One reward of the caller's workspace and mode (archived ones too when `archived`), locked for
 * `em`'s transaction when `lock`; 404 otherwise.
 */
export async function findRewardEntity(
  em: EntityManager,
  who: Scope,
  id: number | string,
  opts: { archived?: boolean; lock?: boolean } = {},
): Promise<Reward> {
  const where = opts.archived
    ? { workspace: who.workspaceId, mode: who.mode, id: numericId(id, 'reward') }
    : { ...live(who), id: numericId(id, 'reward') };
  const reward = await em.findOne(Reward, where, opts.lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  if (!reward) throw notFound('reward');
  return reward;
}

/** The catalogue: unarchived rewards of the caller (active ones only unless `includeInactive`), oldest first. */
export function catalogue(em: EntityManager, who: Scope, includeInactive: boolean): Promise<Reward[]> {
  return em.find(
    Reward,
    { ...live(who), ...(includeInactive ? {} : { active: true }) },
    { orderBy: { id: 'asc' } },
  );
}

/** What the pool of a reward holds: all its codes, and the unredeemed ones. */
export interface CodeStock {
  codes: number;
  free: number;
}

/**
 * The pools of these rewards, in one grouped count (the free ones from the partial index
 * `reward_codes_available_idx`); rewards that cannot hold a pool are not asked about.
 */
export async function codeStock(em: EntityManager, rewards: Reward[]): Promise<Map<number, CodeStock>> {
  const ids = rewards.filter((r) => r.type === 'voucher_code' || r.type === 'digital_asset').map((r) => r.id);
  const stock = new Map<number, CodeStock>();
  if (!ids.length) return stock;
  const rows = await em
    .createQueryBuilder(RewardCode, 'c')
    .select([
      'c.reward',
      raw('count(*) as codes'),
      raw('count(*) filter (where c.redeemed_at is null) as free'),
    ])
    .where({ reward: { $in: ids } })
    .groupBy('c.reward')
    .execute<{ reward_id: string | number; codes: string | number; free: string | number }[]>('all', false);
  for (const row of rows)
    stock.set(Number(row.reward_id), { codes: Number(row.codes), free: Number(row.free) });
  return stock;
}

/**
 * The row the presenter reads. A reward is code-backed when it is a voucher, or a digital asset
 * with a pool loaded; its stock is then its unredeemed codes, never cached. `in_window` is taken
 * against `now`.
 */
export function rewardRow(r: Reward, pool: CodeStock | undefined, now = new Date()): RewardRow {
  const codeBacked = r.type === 'voucher_code' || (r.type === 'digital_asset' && (pool?.codes ?? 0) > 0);
  return {
    id: r.id,
    name: r.name,
    subtitle: r.subtitle ?? null,
    description: r.description ?? null,
    image_url: r.imageUrl ?? null,
    type: r.type as RewardRow['type'],
    cost_points: r.costPoints,
    active: r.active,
    starts_at: r.startsAt ?? null,
    ends_at: r.endsAt ?? null,
    stock: r.stock ?? null,
    live_stock: codeBacked ? (pool?.free ?? 0) : (r.stockRemaining ?? null),
    code_backed: codeBacked,
    in_window: r.active && (!r.startsAt || r.startsAt <= now) && (!r.endsAt || r.endsAt > now),
    config: r.config,
    archived_at: r.archivedAt ?? null,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
  };
}

/** Rewards as rows, their pools counted in one query. */
export async function rewardRows(em: EntityManager, rewards: Reward[]): Promise<RewardRow[]> {
  const stock = await codeStock(em, rewards);
  const now = new Date();
  return rewards.map((r) => rewardRow(r, stock.get(r.id), now));
}

// Raw SQL below: the redemption path's own reads (bench suite `rewards`).

/**
 * A reward is code-backed when it is a voucher, or a digital asset with a pool loaded; its stock
 * is then counted from the free list (partial index `reward_codes_available_idx`), never cached.
 */
const CODE_BACKED = `(r.type = 'voucher_code' or (r.type = 'digital_asset'
  and exists (select 1 from reward_codes c where c.reward_id = r.id)))`;

const REWARD_COLUMNS = `r.id, r.name, r.subtitle, r.description, r.image_url, r.type, r.cost_points,
  r.active, r.starts_at, r.ends_at, r.stock, r.config, r.archived_at, r.created_at, r.updated_at,
  ${CODE_BACKED} as code_backed,
  case when ${CODE_BACKED}
    then (select count(*) from reward_codes c where c.reward_id = r.id and c.redeemed_at is null)
    else r.stock_remaining end as live_stock,
  (r.active and (r.starts_at is null or r.starts_at <= now()) and (r.ends_at is null or r.ends_at > now()))
    as in_window`;

/**
 * One reward as a row, in SQL, on the raw client of the redemption path: import-codes.ts'
 * `poolReward` locks it `for update` while it loads a pool (bench suite `rewards`).
 */
export async function findReward(
  sql: Sql,
  who: Principal,
  id: number | string,
  opts: { archived?: boolean; lock?: boolean } = {},
): Promise<RewardRow> {
  const numeric = typeof id === 'number' ? id : /^\d{1,18}$/.test(id) ? Number(id) : null;
  if (numeric === null) throw notFound('reward');
  const { rows } = await sql.query<RewardRow>(
    `select ${REWARD_COLUMNS} from rewards r
      where r.id = $1 and r.workspace_id = $2 and r.mode = $3 ${opts.archived ? '' : 'and r.archived_at is null'}
      ${opts.lock ? 'for update' : ''}`,
    [numeric, who.workspaceId, who.mode],
  );
  if (!rows[0]) throw notFound('reward');
  return rows[0];
}

export const REDEMPTION_COLUMNS = `x.id, x.reward_id, p.external_id, x.mode, x.status, x.fulfilment,
  x.cost_points, x.idempotency_key, x.created_at, x.updated_at`;

export async function findRedemption(
  sql: Sql,
  who: Pick<Principal, 'workspaceId' | 'mode'>,
  id: number | string,
): Promise<RedemptionRow | null> {
  const numeric = typeof id === 'number' ? id : /^\d{1,18}$/.test(id) ? Number(id) : null;
  if (numeric === null) return null;
  const { rows } = await sql.query<RedemptionRow>(
    `select ${REDEMPTION_COLUMNS} from redemptions x join participants p on p.id = x.participant_id
      where x.id = $1 and x.workspace_id = $2 and x.mode = $3`,
    [numeric, who.workspaceId, who.mode],
  );
  return rows[0] ?? null;
}
