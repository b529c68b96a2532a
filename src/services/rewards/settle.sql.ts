import type { Sql } from '../../db/tx.ts';
import type { Scope } from '../keys/principal.ts';
import type { RedemptionRow } from './presenters.ts';
import { REDEMPTION_COLUMNS, redemptionColumns } from './repository.ts';
import type { RewardType } from './reward-input.ts';
import type { FulfilmentDto } from './shapes.ts';

// Raw SQL: a redemption is settled on the rows and in the lock order of the redeeming statement
// (redeem.sql.ts, bench suite `rewards`): `for update of x` first, then conditional updates
// `returning` the columns the presenter reads.

/** A redemption locked for settlement, with what settling it needs. */
export interface LockedRedemption extends RedemptionRow {
  participant_id: string;
  workspace_id: string;
  failure: { type: string; message: string } | null;
  reference: string;
  reward_name: string;
  reward_type: RewardType;
}

/** The redemption row, locked for this transaction (the first lock any settlement takes). */
export async function lockRedemption(sql: Sql, scope: Scope, id: number): Promise<LockedRedemption | null> {
  const { rows } = await sql.query<LockedRedemption>(
    `select ${REDEMPTION_COLUMNS}, x.participant_id, x.workspace_id, x.failure, x.reference,
            r.name as reward_name, r.type as reward_type
       from redemptions x
       join participants p on p.id = x.participant_id
       join rewards r on r.id = x.reward_id
      where x.id = $1 and x.workspace_id = $2 and x.mode = $3
      for update of x`,
    [id, scope.workspaceId, scope.mode],
  );
  return rows[0] ?? null;
}

/** A redemption's own row, as RETURNING reads it (its participant's external id is the caller's). */
type OwnRow = Omit<RedemptionRow, 'external_id'>;

/** `pending` → `fulfilled`, with the fulfilment when one is given (an external call's code). */
export async function markFulfilled(
  sql: Sql,
  id: string | number,
  fulfilment?: FulfilmentDto,
): Promise<OwnRow> {
  const { rows } = await sql.query<OwnRow>(
    `update redemptions set status = 'fulfilled', fulfilment = coalesce($2::jsonb, fulfilment), updated_at = now()
      where id = $1 returning ${redemptionColumns()}`,
    [id, fulfilment ? JSON.stringify(fulfilment) : null],
  );
  return rows[0]!;
}

/** `pending` → `cancelled`, keeping why (so a replay answers the same error). */
export async function markCancelled(
  sql: Sql,
  id: string | number,
  failure: { type: string; message: string } | null,
): Promise<OwnRow> {
  const { rows } = await sql.query<OwnRow>(
    `update redemptions set status = 'cancelled', failure = $2::jsonb, updated_at = now()
      where id = $1 returning ${redemptionColumns()}`,
    [id, failure ? JSON.stringify(failure) : null],
  );
  return rows[0]!;
}

/** Gives a counted stock its unit back (nothing for an unlimited or code-backed reward). */
export async function restoreStock(sql: Sql, rewardId: string | number): Promise<void> {
  await sql.query(
    `update rewards set stock_remaining = stock_remaining + 1 where id = $1 and stock_remaining is not null`,
    [rewardId],
  );
}

/** A redemption made under a key, with what a replay compares and answers. */
export type ReplayableRedemption = RedemptionRow & {
  request_hash: string | null;
  failure: { message: string } | null;
};

/** The redemption of the caller's workspace and mode with this id, or made under this idempotency key. */
export async function replayable(
  sql: Sql,
  who: Scope,
  by: { id: number | string } | { key: string },
): Promise<ReplayableRedemption | null> {
  const { rows } = await sql.query<ReplayableRedemption>(
    `select ${REDEMPTION_COLUMNS}, x.request_hash, x.failure from redemptions x
       join participants p on p.id = x.participant_id
      where ${'id' in by ? 'x.id' : 'x.idempotency_key'} = $1 and x.workspace_id = $2 and x.mode = $3`,
    ['id' in by ? by.id : by.key, who.workspaceId, who.mode],
  );
  return rows[0] ?? null;
}

/** What an external call of a redemption substitutes into its request. */
export interface ExternalCallInfo {
  workspace_id: string;
  reference: string;
  config: Record<string, unknown>;
  reward_name: string;
  email: string | null;
  name: string | null;
}

/** The reference, config and participant details an external call of redemption `redemptionId` needs. */
export async function externalCallInfo(sql: Sql, redemptionId: string | number): Promise<ExternalCallInfo> {
  const { rows } = await sql.query<ExternalCallInfo>(
    `select x.workspace_id, x.reference, r.config, r.name as reward_name, p.email, p.name
       from redemptions x join rewards r on r.id = x.reward_id join participants p on p.id = x.participant_id
      where x.id = $1`,
    [redemptionId],
  );
  return rows[0]!;
}

/** An external reward's redemption, whatever its workspace (the recovery job's), or null. */
export async function externalRedemption(sql: Sql, redemptionId: number): Promise<RedemptionRow | null> {
  const { rows } = await sql.query<RedemptionRow>(
    `select ${REDEMPTION_COLUMNS}
       from redemptions x join participants p on p.id = x.participant_id join rewards r on r.id = x.reward_id
      where x.id = $1 and r.type = 'external'`,
    [redemptionId],
  );
  return rows[0] ?? null;
}
