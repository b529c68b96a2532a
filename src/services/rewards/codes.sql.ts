import type { Sql } from '../../db/tx.ts';
import { notFound } from '../../errors.ts';
import type { Scope } from '../keys/principal.ts';
import type { RewardRow } from './presenters.ts';

// Raw SQL: a code pool is loaded by multi-row inserts of unnest()ed arrays, not one INSERT per
// code (bench `rewards`: import), on the connection of a unit of work that holds the reward's row
// lock (`for update`) while it does.

/**
 * Whether reward `rewardId` has a code (a free one when `free`): one probe of an index of the
 * reward's codes. Ordered as that index is, so the planner walks it: with a few rewards holding
 * many codes its statistics expect a third of the table to match any reward, and an EXISTS or a
 * bare LIMIT 1 became a scan of every code until a match, all of them for a reward with none
 * (27 ms a probe at 200,000 codes: bench suite `points` after `rewards`).
 */
export const hasCodeSql = (rewardId: string, free = false) =>
  free
    ? `((select 1 from reward_codes c where c.reward_id = ${rewardId} and c.redeemed_at is null
          order by c.reward_id, c.id limit 1) is not null)`
    : `((select 1 from reward_codes c where c.reward_id = ${rewardId} order by c.reward_id, c.code limit 1) is not null)`;

/**
 * Whether the reward `r` is code-backed: a voucher, or a digital asset with a pool loaded; its
 * stock is then counted from the free list (partial index `reward_codes_available_idx`), never cached.
 */
export const CODE_BACKED = `(r.type = 'voucher_code' or (r.type = 'digital_asset'
  and ${hasCodeSql('r.id')}))`;

/** Whether the reward `r` is active and inside its window now (repository.ts' `rewardRow` in SQL). */
export const IN_WINDOW = `(r.active and (r.starts_at is null or r.starts_at <= now()) and (r.ends_at is null or r.ends_at > now()))`;

const REWARD_COLUMNS = `r.id, r.name, r.subtitle, r.description, r.image_url, r.type, r.cost_points,
  r.active, r.starts_at, r.ends_at, r.stock, r.config, r.min_tier, r.archived_at, r.created_at, r.updated_at,
  ${CODE_BACKED} as code_backed,
  case when ${CODE_BACKED}
    then (select count(*) from reward_codes c where c.reward_id = r.id and c.redeemed_at is null)
    else r.stock_remaining end as live_stock,
  ${IN_WINDOW} as in_window`;

/** One reward as a row, locked `for update` when `lock` (import-codes.ts' `poolReward`, while it loads a pool). */
export async function findReward(
  sql: Sql,
  who: Scope,
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

/** Code pool inserts per statement. */
const CHUNK = 25_000;

/** Inserts codes not yet in the pool; returns how many were new. */
export async function insertCodes(sql: Sql, rewardId: number, codes: string[]): Promise<number> {
  let inserted = 0;
  for (let i = 0; i < codes.length; i += CHUNK) {
    const res = await sql.query(
      `insert into reward_codes (reward_id, code)
       select $1, c from unnest($2::text[]) as c
       on conflict (reward_id, code) do nothing`,
      [rewardId, codes.slice(i, i + CHUNK)],
    );
    inserted += res.rowCount ?? 0;
  }
  return inserted;
}

/** The unredeemed codes of a reward's pool. */
export async function availableCodes(sql: Sql, rewardId: number): Promise<number> {
  const { rows } = await sql.query<{ n: string }>(
    `select count(*) as n from reward_codes where reward_id = $1 and redeemed_at is null`,
    [rewardId],
  );
  return Number(rows[0]!.n);
}
