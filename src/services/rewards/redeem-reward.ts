import { createHash, randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { uniqueViolation } from '../../db/tx.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import { DomainError, notFound, validationError } from '../../errors.ts';
import { RECOVER_REDEMPTION_QUEUE } from '../../jobs/queues.ts';
import { text } from '../../lib/primitives.ts';
import type { Principal } from '../keys/principal.ts';
import { insufficientPoints } from '../ledger/post-entry.ts';
import { fulfilExternal, recoveryDelayMs } from './external-fulfilment.ts';
import { presentRedemption } from './presenters.ts';
import {
  lockIdempotencyKey,
  type RedeemItem,
  type RedeemOutcome,
  redeemed,
  redeemStatement,
} from './redeem.sql.ts';
import { batchFor } from './redeem-batch.ts';
import { replayRedemption } from './settle-redemption.ts';
import type { RedemptionDto } from './shapes.ts';

export const redeemInput = z
  .strictObject({
    participant: text(255, { min: 1 }).meta({ description: "The participant's external id." }),
    reward_id: z.int().positive().optional().meta({ description: 'One of reward_id or reward.' }),
    reward: text(200, { min: 1 }).optional().meta({ description: 'The reward by name.' }),
    idempotency_key: text(255, { min: 1 })
      .optional()
      .meta({
        description:
          'A retry with the same key answers 200 with the original redemption and never charges twice; the ' +
          'same key with a different body is a 409. The `Idempotency-Key` header wins when both are sent.',
      }),
  })
  .refine((v) => v.reward_id !== undefined || v.reward !== undefined, {
    path: ['reward_id'],
    message: 'one of reward_id or reward is required',
  });
export type RedeemInput = z.output<typeof redeemInput>;

export interface RedeemResult {
  redemption: RedemptionDto;
  /** True when the idempotency key matched an earlier redemption: nothing was charged again. */
  replayed: boolean;
}

/**
 * Redeems a reward for a participant (docs/guarantees.md#how-redemption-stays-atomic). The
 * lookup, the unit's claim, the debit, the redemption row and its results are ONE statement
 * (redeem.sql.ts) that commits on its own: the code or stock row it locks is held for that
 * statement only, and redemptions that arrive together share it (redeem-batch.ts). Checks: 404 →
 * reward_unavailable → tier_required → out_of_stock → insufficient_points. A keyed request runs the statement
 * alone in a unit of work behind an advisory lock on its key; an external reward in one with its
 * recovery job, then calls its endpoint outside it (external-fulfilment.ts).
 */
export async function redeemReward(
  ctx: AppContext,
  who: Principal,
  input: RedeemInput,
  headerKey?: string | null,
): Promise<RedeemResult> {
  if (headerKey != null && (headerKey.length < 1 || headerKey.length > 255))
    throw validationError([{ field: 'Idempotency-Key', message: 'must be 1 to 255 characters' }]);
  const key = headerKey ?? input.idempotency_key ?? null;
  const hash = createHash('sha256')
    .update(JSON.stringify([input.participant, input.reward_id ?? null, input.reward ?? null]))
    .digest('hex');
  const item: RedeemItem = {
    workspaceId: who.workspaceId,
    mode: who.mode,
    participant: input.participant,
    rewardId: input.reward_id ?? null,
    rewardName: input.reward ?? null,
    key,
    hash,
    reference: key ?? `red_${randomUUID()}`,
  };

  let out: RedeemOutcome;
  try {
    out = key ? await inUnitOfWork(ctx, item) : await batchFor(ctx.pool).submit(item);
    // An external reward needs its recovery job in the same transaction: the shared statement
    // left it alone (nothing written), so it runs again inside one.
    if (
      !key &&
      !redeemed(out) &&
      out.reward_type === 'external' &&
      out.in_window &&
      out.tier_ok &&
      !out.existing_id
    )
      out = await inUnitOfWork(ctx, item);
  } catch (err) {
    // A concurrent request with the same key committed first: this one rolled back; replay the winner.
    if (key && uniqueViolation(err) === 'redemptions_idempotency_key_unique')
      return replayRedemption(ctx, who, { key }, hash);
    throw err;
  }

  if (out.existing_id) return replayRedemption(ctx, who, { id: out.existing_id }, hash);
  if (!out.participant_id) throw notFound('participant');
  if (!out.reward_found) throw notFound('reward');
  if (input.reward_id !== undefined && input.reward !== undefined && input.reward !== out.reward_name)
    throw validationError([
      { field: 'reward', message: `reward ${input.reward_id} is not named '${input.reward}'` },
    ]);
  if (!out.in_window)
    throw new DomainError(
      'reward_unavailable',
      `Reward '${out.reward_name}' is inactive or outside its window`,
    );
  if (!out.tier_ok)
    throw new DomainError(
      'tier_required',
      `Reward '${out.reward_name}' needs tier level '${out.min_tier}' or above`,
      { min_tier: out.min_tier },
    );
  if (redeemed(out)) {
    if (out.reward_type === 'external')
      return { redemption: await fulfilExternal(ctx, out), replayed: false };
    return { redemption: presentRedemption(out), replayed: false };
  }
  // Refused. First what the snapshot showed (nothing was locked), then what the locks found.
  const cost = Number(out.reward_cost);
  if (out.code_backed ? !out.has_free_code : out.stock_remaining === 0) throw outOfStock(out.reward_name!);
  if (Number(out.balance) < cost) throw insufficientPoints(Number(out.balance), cost);
  if (out.locked_balance !== null && Number(out.locked_balance) < cost)
    throw insufficientPoints(Number(out.locked_balance), cost);
  throw outOfStock(out.reward_name!);
}

const outOfStock = (name: string) => new DomainError('out_of_stock', `Reward '${name}' is out of stock`);

/**
 * The statement for one redemption inside a unit of work: behind its key's advisory lock, and
 * with the recovery job of an external reward, committed with the debit or not at all.
 */
function inUnitOfWork(ctx: AppContext, item: RedeemItem): Promise<RedeemOutcome> {
  return unitOfWork(ctx, async ({ sql, send }) => {
    // Duplicates of one key queue here, before any stock is touched: otherwise N copies in
    // flight would each hold a unit and starve each other (and others) into a false
    // out_of_stock. The statement, with its snapshot taken after the lock, then sees the
    // redemption of a duplicate that committed first and writes nothing.
    if (item.key) await lockIdempotencyKey(sql, `${item.workspaceId}:${item.mode}`, item.key);
    const [out] = await redeemStatement(sql, [item], true);
    // The net under the call made after commit: if this process dies first, the job finishes
    // or reverses the redemption (nothing stays debited without an outcome).
    if (redeemed(out!) && out.reward_type === 'external')
      await send(
        RECOVER_REDEMPTION_QUEUE,
        { redemptionId: Number(out.id) },
        { startAfter: new Date(Date.now() + recoveryDelayMs(ctx)) },
      );
    return out!;
  });
}
