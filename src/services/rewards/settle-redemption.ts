import type { AppContext } from '../../context.ts';
import type { Sql } from '../../db/tx.ts';
import { DomainError, notFound } from '../../errors.ts';
import type { Scope } from '../keys/principal.ts';
import { postEntry } from '../ledger/post-entry.ts';
import { redemptionDebit } from '../ledger/repository.ts';
import { emitResults, type ResultToEmit } from '../outbox/emit.ts';
import { presentRedemption, type RedemptionRow } from './presenters.ts';
import type { RedeemResult } from './redeem-reward.ts';
import type { RewardType } from './reward-input.ts';
import { type LockedRedemption, markCancelled, replayable, restoreStock } from './settle.sql.ts';
import type { RewardRedeemedData } from './shapes.ts';

/** The `reward.redeemed` result of a redemption (the redeeming statement builds the same in SQL). */
export function redeemedResult(
  who: Scope,
  row: RedemptionRow,
  reward: { id: number; name: string; type: RewardType },
): ResultToEmit {
  const data: RewardRedeemedData = {
    participant: { external_id: row.external_id },
    redemption: presentRedemption(row),
    reward: { id: Number(reward.id), name: reward.name, type: reward.type },
  };
  return { workspaceId: who.workspaceId, mode: who.mode, type: 'reward.redeemed', data };
}

/** `reward.redeemed`, written in the caller's transaction. */
export async function emitRedeemed(
  sql: Sql,
  who: Scope,
  row: RedemptionRow,
  reward: { id: number; name: string; type: RewardType },
): Promise<void> {
  await emitResults(sql, [redeemedResult(who, row, reward)]);
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
  const row = await markCancelled(sql, x.id, failure);
  await restoreStock(sql, x.reward_id);
  const debit = await redemptionDebit(sql, x.participant_id, x.id);
  if (debit !== null) {
    await postEntry(sql, {
      workspaceId: x.workspace_id,
      mode: x.mode,
      participantId: Number(x.participant_id),
      externalId: x.external_id,
      points: Number(x.cost_points),
      source: 'reversal',
      reason: `Redemption ${x.id} cancelled`,
      reference: String(x.id),
      reversesEntryId: debit,
    });
  }
  return { ...row, external_id: x.external_id };
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
 * Answers a request whose idempotency key is already used (docs/api.md#idempotency): the
 * original redemption untouched (the REST door answers 200 with `Idempotent-Replayed: true`), the
 * original failure again for a cancelled external one, or 409 when the key came with a different body.
 */
export async function replayRedemption(
  ctx: AppContext,
  who: Scope,
  by: { id: number | string } | { key: string },
  hash: string,
): Promise<RedeemResult> {
  const row = await replayable(ctx.pool, who, by);
  if (!row) throw notFound('redemption');
  if (row.request_hash !== hash)
    throw new DomainError(
      'idempotency_conflict',
      'This idempotency key was already used with a different request body',
    );
  if (row.status === 'cancelled' && row.failure) throw fulfilmentFailed(row.id, row.failure.message);
  return { redemption: presentRedemption(row), replayed: true };
}
