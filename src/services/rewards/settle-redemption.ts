import type { AppContext } from '../../context.ts';
import type { Sql } from '../../db/tx.ts';
import { DomainError, notFound } from '../../errors.ts';
import type { Principal } from '../keys/principal.ts';
import { postEntry } from '../ledger/post-entry.ts';
import { emitResults, type ResultToEmit } from '../outbox/emit.ts';
import { presentRedemption, type RedemptionRow } from './presenters.ts';
import type { RedeemResult } from './redeem-reward.ts';
import { REDEMPTION_COLUMNS } from './repository.ts';

// Raw SQL: settles redemptions on the redemption path's pg client and locks (bench suite `rewards`): `for
// update` and conditional `update … returning`.

type Scope = Pick<Principal, 'workspaceId' | 'mode'>;

/** The `reward.redeemed` result (CONTRACT 10) of a redemption. */
export function redeemedResult(
  who: Scope,
  row: RedemptionRow,
  reward: { id: number; name: string; type: string },
): ResultToEmit {
  return {
    workspaceId: who.workspaceId,
    mode: who.mode,
    type: 'reward.redeemed',
    data: {
      participant: { external_id: row.external_id },
      redemption: presentRedemption(row),
      reward: { id: Number(reward.id), name: reward.name, type: reward.type },
    },
  };
}

/** `reward.redeemed`, written in the caller's transaction. */
export async function emitRedeemed(
  sql: Sql,
  who: Scope,
  row: RedemptionRow,
  reward: { id: number; name: string; type: string },
): Promise<void> {
  await emitResults(sql, [redeemedResult(who, row, reward)]);
}

export interface LockedRedemption extends RedemptionRow {
  participant_id: string;
  workspace_id: string;
  failure: { type: string; message: string } | null;
  reference: string;
  reward_name: string;
  reward_type: string;
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

/**
 * Cancels a pending redemption in the caller's transaction: the stock unit goes back and the
 * debit is reversed by a new ledger entry that references it (never an edit). Locks in the order
 * redemption → reward → participant; a redemption takes reward/code → participant and no existing
 * redemption row, so the two cannot deadlock.
 */
export async function cancelAndRefund(
  sql: Sql,
  x: LockedRedemption,
  failure: { type: string; message: string } | null,
): Promise<RedemptionRow> {
  const { rows } = await sql.query<RedemptionRow>(
    `update redemptions set status = 'cancelled', failure = $2::jsonb, updated_at = now()
      where id = $1
      returning id, reward_id, mode, status, fulfilment, cost_points, idempotency_key, created_at, updated_at`,
    [x.id, failure ? JSON.stringify(failure) : null],
  );
  await sql.query(
    `update rewards set stock_remaining = stock_remaining + 1 where id = $1 and stock_remaining is not null`,
    [x.reward_id],
  );
  const debit = await sql.query<{ id: string }>(
    `select id from ledger_entries where participant_id = $1 and source = 'redemption' and reference = $2`,
    [x.participant_id, String(x.id)],
  );
  if (debit.rows[0]) {
    await postEntry(sql, {
      workspaceId: x.workspace_id,
      mode: x.mode,
      participantId: Number(x.participant_id),
      externalId: x.external_id,
      points: Number(x.cost_points),
      source: 'reversal',
      reason: `Redemption ${x.id} cancelled`,
      reference: String(x.id),
      reversesEntryId: Number(debit.rows[0].id),
    });
  }
  return { ...rows[0]!, external_id: x.external_id };
}

/** The error a cancelled external redemption answers, first time and on every replay. */
export function fulfilmentFailed(redemptionId: number | string, message: string): DomainError {
  return new DomainError(
    'external_fulfilment_failed',
    `External fulfilment failed: ${message}. The points were refunded and the redemption cancelled.`,
    { redemption_id: Number(redemptionId) },
  );
}

/**
 * Answers a request whose idempotency key is already used: the original redemption untouched
 * (the REST door answers 200 with `Idempotent-Replayed: true`), the original failure again for a
 * cancelled external one, or 409 when the key came with a different body.
 */
export async function replayRedemption(
  ctx: AppContext,
  who: Scope,
  id: number | string,
  hash: string,
): Promise<RedeemResult> {
  const { rows } = await ctx.pool.query<
    RedemptionRow & { request_hash: string | null; failure: { message: string } | null }
  >(
    `select ${REDEMPTION_COLUMNS}, x.request_hash, x.failure from redemptions x
       join participants p on p.id = x.participant_id
      where x.id = $1 and x.workspace_id = $2 and x.mode = $3`,
    [id, who.workspaceId, who.mode],
  );
  const row = rows[0];
  if (!row) throw notFound('redemption');
  if (row.request_hash !== hash)
    throw new DomainError(
      'idempotency_conflict',
      'This idempotency key was already used with a different request body',
    );
  if (row.status === 'cancelled' && row.failure) throw fulfilmentFailed(row.id, row.failure.message);
  return { redemption: presentRedemption(row), replayed: true };
}
