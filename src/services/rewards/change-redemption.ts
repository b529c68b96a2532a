import type { AppContext } from '../../context.ts';
import { withTransaction } from '../../db/tx.ts';
import { DomainError, notFound } from '../../errors.ts';
import type { Principal } from '../keys/principal.ts';
import { presentRedemption, type RedemptionRow } from './presenters.ts';
import { numericId } from './repository.ts';
import { cancelAndRefund, type LockedRedemption, lockRedemption } from './settle-redemption.ts';
import type { RedemptionDto } from './shapes.ts';

// Raw SQL: a redemption state change on the redemption path's pg client and locks (see redeem-reward.ts,
// bench suite `rewards`), presented from the shared `REDEMPTION_COLUMNS` SQL.

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

/** `pending` → `fulfilled` for a physical reward, once it has shipped (CONTRACT 8). */
export async function fulfilRedemption(
  ctx: AppContext,
  who: Principal,
  id: string | number,
): Promise<RedemptionDto> {
  const redemptionId = numericId(id, 'redemption');
  return withTransaction(ctx.pool, async (sql) => {
    const x = assertMovable(await lockRedemption(sql, who, redemptionId), 'fulfil');
    const { rows } = await sql.query<RedemptionRow>(
      `update redemptions set status = 'fulfilled', updated_at = now() where id = $1
       returning id, reward_id, mode, status, fulfilment, cost_points, idempotency_key, created_at, updated_at`,
      [x.id],
    );
    return presentRedemption({ ...rows[0]!, external_id: x.external_id });
  });
}

/** `pending` → `cancelled` for a physical reward: points refunded by a reversal entry, stock unit restored. */
export async function cancelRedemption(
  ctx: AppContext,
  who: Principal,
  id: string | number,
): Promise<RedemptionDto> {
  const redemptionId = numericId(id, 'redemption');
  return withTransaction(ctx.pool, async (sql) => {
    const x = assertMovable(await lockRedemption(sql, who, redemptionId), 'cancel');
    return presentRedemption(await cancelAndRefund(sql, x, null));
  });
}
