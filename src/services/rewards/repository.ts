import { LockMode, raw } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppContext } from '../../context.ts';
import { columnList } from '../../db/sql-json.ts';
import type { Sql } from '../../db/tx.ts';
import { notFound } from '../../errors.ts';
import { type CursorKey, type KeysetRange, keysetSql } from '../../lib/pagination.ts';
import type { Scope } from '../keys/principal.ts';
import { Reward, RewardCode } from './entities.ts';
import { activeMultipliersSql } from './multiplier.ts';
import type { RedemptionRow, RewardRow } from './presenters.ts';
import type { ActiveMultiplier, RedemptionStatus } from './shapes.ts';

// Raw SQL: the redemption rows are read in the shape the redeeming statement returns them (bench
// suite `rewards`), by their own column list; the demo's external reward is written past the
// egress guard; the multiplier rule is SQL the engine shares. The catalogue's CRUD is a cold path:
// MikroORM over a forked `em` (a unit of work's, the row locked, when it changes one), its live
// stock counted in one query per read ({@link codeStock}).

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

/** The catalogue as rows: unarchived rewards of the caller (active ones only unless `includeInactive`), oldest first. */
export async function catalogueRows(
  ctx: Pick<AppContext, 'orm'>,
  who: Scope,
  includeInactive: boolean,
): Promise<RewardRow[]> {
  const em = ctx.orm.em.fork();
  const rewards = await em.find(
    Reward,
    { ...live(who), ...(includeInactive ? {} : { active: true }) },
    { orderBy: { id: 'asc' } },
  );
  return rewardRows(em, rewards);
}

/** {@link findRewardEntity} outside any unit of work (no lock). */
export function readReward(
  ctx: Pick<AppContext, 'orm'>,
  who: Scope,
  id: number | string,
  opts: { archived?: boolean } = {},
): Promise<Reward> {
  return findRewardEntity(ctx.orm.em.fork(), who, id, opts);
}

/** One reward of the caller as a row, archived ones too, its pool counted; 404 otherwise. */
export async function readRewardRow(
  ctx: Pick<AppContext, 'orm'>,
  who: Scope,
  id: number | string,
): Promise<RewardRow> {
  const em = ctx.orm.em.fork();
  const [row] = await rewardRows(em, [await findRewardEntity(em, who, id, { archived: true })]);
  return row!;
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
    type: r.type,
    cost_points: r.costPoints,
    active: r.active,
    starts_at: r.startsAt ?? null,
    ends_at: r.endsAt ?? null,
    stock: r.stock ?? null,
    live_stock: codeBacked ? (pool?.free ?? 0) : (r.stockRemaining ?? null),
    code_backed: codeBacked,
    in_window: r.active && (!r.startsAt || r.startsAt <= now) && (!r.endsAt || r.endsAt > now),
    config: r.config,
    min_tier: r.minTier ?? null,
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

// Raw SQL below: the redemption rows the redemption path (bench suite `rewards`) and its lists read.

/** The `redemptions` columns of a {@link RedemptionRow}, in one place: a field renamed there fails here. */
const REDEMPTION: Record<Exclude<keyof RedemptionRow, 'external_id'>, true> = {
  id: true,
  reward_id: true,
  mode: true,
  status: true,
  fulfilment: true,
  cost_points: true,
  idempotency_key: true,
  created_at: true,
  updated_at: true,
};

/** The `redemptions` columns of a RedemptionRow (all but the external id), qualified by `alias` when given. */
export const redemptionColumns = (alias?: string): string => columnList(REDEMPTION, alias);

/** A RedemptionRow's columns over `redemptions x join participants p`. */
export const REDEMPTION_COLUMNS = `${redemptionColumns('x')}, p.external_id`;

/** One redemption of the caller's workspace and mode, or null. */
export async function findRedemption(
  sql: Sql,
  who: Scope,
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

/** What a redemption list may be filtered by. */
export interface RedemptionFilters {
  participant?: string;
  status?: RedemptionStatus;
  reward_id?: number;
}

/** One keyset range of the caller's redemptions, filtered. */
export async function redemptionsIn(
  sql: Sql,
  who: Scope,
  filters: RedemptionFilters,
  range: KeysetRange<CursorKey>,
): Promise<RedemptionRow[]> {
  const where = ['x.workspace_id = $1', 'x.mode = $2'];
  const values: unknown[] = [who.workspaceId, who.mode];
  const add = (clause: string, value: unknown) => {
    values.push(value);
    where.push(clause.replace('?', `$${values.length}`));
  };
  if (filters.participant) add('p.external_id = ?', filters.participant);
  if (filters.status) add('x.status = ?', filters.status);
  if (filters.reward_id) add('x.reward_id = ?', filters.reward_id);
  const k = keysetSql(range, 'x.id', values.length + 1);
  const { rows } = await sql.query<RedemptionRow>(
    `select ${REDEMPTION_COLUMNS} from redemptions x join participants p on p.id = x.participant_id
      where ${where.join(' and ')} and ${k.where}
      order by ${k.order} limit ${k.limit}`,
    [...values, ...k.params],
  );
  return rows;
}

/** The newest `limit` redemptions of a participant. */
export async function latestRedemptions(
  sql: Sql,
  participantId: number,
  limit: number,
): Promise<RedemptionRow[]> {
  const { rows } = await sql.query<RedemptionRow>(
    `select ${REDEMPTION_COLUMNS} from redemptions x join participants p on p.id = x.participant_id
      where x.participant_id = $1 order by x.id desc limit $2`,
    [participantId, limit],
  );
  return rows;
}

/** The names of the unarchived rewards of a workspace and mode. */
export async function rewardNames(sql: Sql, who: Scope): Promise<Set<string>> {
  const { rows } = await sql.query<{ name: string }>(
    'select name from rewards where workspace_id = $1 and mode = $2 and archived_at is null',
    [who.workspaceId, who.mode],
  );
  return new Set(rows.map((r) => r.name));
}

/**
 * An inactive external reward written as it is, past `createReward`'s checks: the demo's, whose
 * endpoint is a placeholder the egress guard would refuse.
 */
export async function insertInactiveExternal(
  sql: Sql,
  who: Scope,
  r: { name: string; costPoints: number; subtitle: string; config: Record<string, unknown> },
): Promise<void> {
  await sql.query(
    `insert into rewards (workspace_id, mode, name, type, cost_points, active, config, subtitle)
     values ($1, $2, $3, 'external', $4, false, $5::jsonb, $6)`,
    [who.workspaceId, who.mode, r.name, r.costPoints, JSON.stringify(r.config), r.subtitle],
  );
}

/** The participant's points multiplier at `at`, null when none is active (the rule of multiplier.ts). */
export async function activeMultiplier(
  sql: Sql,
  participantId: number,
  at: Date = new Date(),
): Promise<ActiveMultiplier | null> {
  const { rows } = await sql.query<{ factor: string; expires_at: Date }>(
    activeMultipliersSql('array[$1::bigint]', '$2::timestamptz'),
    [participantId, at],
  );
  const row = rows[0];
  return row ? { factor: Number(row.factor), expires_at: new Date(row.expires_at).toISOString() } : null;
}
