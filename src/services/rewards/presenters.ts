import { isoJsonSql, jsonObjectSql, jsonSql } from '../../db/sql-json.ts';
import { isoTime, isoTimeOrNull } from '../../lib/iso-time.ts';
import { hasAbility } from '../keys/abilities.ts';
import type { Mode, Principal } from '../keys/principal.ts';
import type { RewardType } from './reward-input.ts';
import type { FulfilmentDto, RedemptionDto, RedemptionStatus, RewardDto } from './shapes.ts';

/** What `presentReward` reads: repository.ts' `rewardRow` of an entity, or the redemption path's SQL row. */
export interface RewardRow {
  id: string | number;
  name: string;
  subtitle: string | null;
  description: string | null;
  image_url: string | null;
  type: RewardType;
  cost_points: string | number;
  active: boolean;
  starts_at: Date | null;
  ends_at: Date | null;
  stock: number | null;
  /** Live: unredeemed codes of a code-backed reward, else the counter. */
  live_stock: string | number | null;
  code_backed: boolean;
  in_window: boolean;
  config: Record<string, unknown>;
  min_tier: string | null;
  archived_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const REDACTED = '[redacted]';

/**
 * `reveal`: show an external reward's header values (they often hold the third party's API
 * key). Catalogue reads need any key, so only holders of `rewards:write` see them.
 */
export function presentReward(r: RewardRow, reveal: boolean): RewardDto {
  const stockRemaining = r.live_stock === null ? null : Number(r.live_stock);
  let config = r.config ?? {};
  if (!reveal && r.type === 'external' && config.headers && typeof config.headers === 'object') {
    config = {
      ...config,
      headers: Object.fromEntries(Object.keys(config.headers).map((k) => [k, REDACTED])),
    };
  }
  return {
    id: Number(r.id),
    name: r.name,
    subtitle: r.subtitle,
    description: r.description,
    image_url: r.image_url,
    type: r.type,
    cost_points: Number(r.cost_points),
    active: r.active,
    starts_at: isoTimeOrNull(r.starts_at),
    ends_at: isoTimeOrNull(r.ends_at),
    stock: r.stock,
    stock_remaining: stockRemaining,
    is_claimable: r.in_window && !r.archived_at && (stockRemaining === null || stockRemaining > 0),
    config,
    min_tier: r.min_tier,
    created_at: isoTime(r.created_at),
    updated_at: isoTime(r.updated_at),
  };
}

/** Whether `who` may see an external reward's header values (`rewards:write`). */
export const revealsSecrets = (who: Principal) => hasAbility(who.abilities, 'rewards:write');

/** A redemption as SQL reads it (repository.ts' `REDEMPTION_COLUMNS`): its row and its participant's external id. */
export interface RedemptionRow {
  id: string;
  reward_id: string;
  external_id: string;
  mode: Mode;
  status: RedemptionStatus;
  fulfilment: FulfilmentDto;
  cost_points: string;
  idempotency_key: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A redemption as every door shows it. */
export function presentRedemption(r: RedemptionRow): RedemptionDto {
  return {
    id: Number(r.id),
    reward_id: Number(r.reward_id),
    participant: { external_id: r.external_id },
    status: r.status,
    fulfilment: r.fulfilment,
    cost_points: Number(r.cost_points),
    idempotency_key: r.idempotency_key,
    is_sandbox: r.mode === 'test',
    created_at: isoTime(r.created_at),
    updated_at: isoTime(r.updated_at),
  };
}

/**
 * {@link presentRedemption} in SQL: the compact JSON text of the redemption row `alias` (the
 * columns of `redemptions`), same keys in the same order, for results built inside the
 * redeeming statement. `externalId` and `fulfilment` (compact JSON text) are SQL expressions.
 */
export function redemptionJsonSql(alias: string, externalId: string, fulfilment: string): string {
  return jsonObjectSql<RedemptionDto>({
    id: `${alias}.id`,
    reward_id: `${alias}.reward_id`,
    participant: jsonObjectSql<RedemptionDto['participant']>({ external_id: jsonSql(externalId) }),
    status: jsonSql(`${alias}.status::text`),
    fulfilment,
    cost_points: `${alias}.cost_points`,
    idempotency_key: jsonSql(`${alias}.idempotency_key::text`),
    is_sandbox: `(${alias}.mode = 'test')::text`,
    created_at: isoJsonSql(`${alias}.created_at`),
    updated_at: isoJsonSql(`${alias}.updated_at`),
  });
}
