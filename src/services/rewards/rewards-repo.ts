import type { Sql } from '../../db/tx.ts';
import { notFound } from '../../errors.ts';
import type { Principal } from '../keys/principal.ts';
import type { RedemptionRow, RewardRow } from './presenters.ts';

// Raw SQL: stock is computed in SQL (`CODE_BACKED`, `live_stock` counted from the partial index
// `reward_codes_available_idx`) and rows are locked `for update` by the redemption path (bench suite
// `rewards`).

/**
 * A reward is code-backed when it is a voucher, or a digital asset with a pool loaded; its stock
 * is then counted from the free list (partial index `reward_codes_available_idx`), never cached.
 */
export const CODE_BACKED = `(r.type = 'voucher_code' or (r.type = 'digital_asset'
  and exists (select 1 from reward_codes c where c.reward_id = r.id)))`;

export const REWARD_COLUMNS = `r.id, r.name, r.subtitle, r.description, r.image_url, r.type, r.cost_points,
  r.active, r.starts_at, r.ends_at, r.stock, r.config, r.archived_at, r.created_at, r.updated_at,
  ${CODE_BACKED} as code_backed,
  case when ${CODE_BACKED}
    then (select count(*) from reward_codes c where c.reward_id = r.id and c.redeemed_at is null)
    else r.stock_remaining end as live_stock,
  (r.active and (r.starts_at is null or r.starts_at <= now()) and (r.ends_at is null or r.ends_at > now()))
    as in_window`;

/** One reward of the caller's workspace and mode (archived ones too when `archived`); 404 otherwise. */
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

/** Parses a path id that should be a positive integer; anything else is the 404 of an unknown id. */
export function numericId(id: string | number, what: string): number {
  const n = typeof id === 'number' ? id : /^\d{1,18}$/.test(id) ? Number(id) : Number.NaN;
  if (!Number.isSafeInteger(n) || n <= 0) throw notFound(what);
  return n;
}
