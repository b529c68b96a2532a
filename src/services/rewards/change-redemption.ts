import type { AppContext } from '../../context.ts';
import type { Sql } from '../../db/tx.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import { DomainError, notFound } from '../../errors.ts';
import type { Principal } from '../keys/principal.ts';
import { presentRedemption, type RedemptionRow } from './presenters.ts';
import { numericId } from './repository.ts';
import { type LockedRedemption, lockRedemption, markFulfilled } from './settle.sql.ts';
import { cancelAndRefund } from './settle-redemption.ts';
import type { RedemptionDto } from './shapes.ts';

/** Only a pending physical redemption moves by hand; an external one is settled by its own call. */
function assertMovable(x: LockedRedemption | null, action: string): LockedRedemption {
  if (!x) throw notFound('redemption');
  if (x.status !== 'pending' || x.reward_type !== 'physical')
    throw new DomainError(
      'invalid_state',
      `Cannot ${action} a ${x.status} ${x.reward_type} redemption: only pending physical redemptions can be ${action === 'fulfil' ? 'fulfilled' : 'cancelled'}`,
      { status: x.status },
    );
  return x;
}

/** `pending` → `fulfilled` for a physical reward, once it has shipped. */
export function fulfilRedemption(
  ctx: AppContext,
  who: Principal,
  id: string | number,
): Promise<RedemptionDto> {
  return move(ctx, who, id, 'fulfil', async (sql, x) => ({
    ...(await markFulfilled(sql, x.id)),
    external_id: x.external_id,
  }));
}

/** `pending` → `cancelled` for a physical reward: points refunded by a reversal entry, stock unit restored. */
export function cancelRedemption(
  ctx: AppContext,
  who: Principal,
  id: string | number,
): Promise<RedemptionDto> {
  return move(ctx, who, id, 'cancel', (sql, x) => cancelAndRefund(sql, x, null));
}

/** Locks the redemption (the first lock any settlement takes), checks it may move, and moves it. */
function move(
  ctx: AppContext,
  who: Principal,
  id: string | number,
  action: 'fulfil' | 'cancel',
  settle: (sql: Sql, x: LockedRedemption) => Promise<RedemptionRow>,
): Promise<RedemptionDto> {
  const redemptionId = numericId(id, 'redemption');
  return unitOfWork(ctx, async ({ sql }) => {
    const x = assertMovable(await lockRedemption(sql, who, redemptionId), action);
    return presentRedemption(await settle(sql, x));
  });
}
