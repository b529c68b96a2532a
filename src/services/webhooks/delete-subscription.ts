import type { AppContext } from '../../context.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import type { Principal } from '../keys/principal.ts';
import { announceSubscriptionChange, findSubscriptionEntity, killPendingDeliveries } from './repository.ts';

/**
 * Removes a subscription: it receives nothing more and its pending deliveries die at once. The
 * row is kept (marked deleted) so its delivery log stays readable.
 */
export async function deleteSubscription(
  ctx: AppContext,
  who: Principal,
  id: string,
): Promise<{ id: string; deleted: true }> {
  return unitOfWork(ctx, async ({ em }) => {
    const sub = await findSubscriptionEntity(em, who, id, { lock: true });
    sub.deletedAt = sub.updatedAt = new Date();
    await em.flush();
    await killPendingDeliveries(em, sub.id, 'subscription deleted');
    await announceSubscriptionChange(em, sub.id);
    return { id: sub.id, deleted: true as const };
  });
}
