import type { AppContext } from '../../context.ts';
import { withTransaction } from '../../db/tx.ts';
import type { Principal } from '../keys/principal.ts';
import { announceSubscriptionChange, findSubscription, killPendingDeliveries } from './repository.ts';

/**
 * Removes a subscription: it receives nothing more and its pending deliveries die at once. The
 * row is kept (marked deleted) so its delivery log stays readable.
 */
export async function deleteSubscription(
  ctx: AppContext,
  who: Principal,
  id: string,
): Promise<{ id: string; deleted: true }> {
  return withTransaction(ctx.pool, async (sql) => {
    const current = await findSubscription(sql, who, id, { lock: true });
    await sql.query(`update webhook_subscriptions set deleted_at = now(), updated_at = now() where id = $1`, [
      current.id,
    ]);
    await killPendingDeliveries(sql, current.id, 'subscription deleted');
    await announceSubscriptionChange(sql, current.id);
    return { id: current.id, deleted: true as const };
  });
}
