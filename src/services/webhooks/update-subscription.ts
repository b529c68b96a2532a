import type { AppContext } from '../../context.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import type { Principal } from '../keys/principal.ts';
import { presentSubscription } from './presenters.ts';
import {
  announceSubscriptionChange,
  findSubscriptionEntity,
  killPendingDeliveries,
  subscriptionRow,
} from './repository.ts';
import type { SubscriptionDto } from './shapes.ts';
import { checkUrl, type UpdateSubscriptionInput, updateSubscriptionInput } from './subscription-input.ts';

export { updateSubscriptionInput };

/**
 * Changes url, event_types, headers, description or status. A new URL passes the egress guard
 * first. Pausing kills the pending deliveries in the same transaction (docs/api.md#webhooks); resuming
 * does not revive them (replay and recover do). `active` also re-enables a disabled subscription
 * with a clean record: no reason, no failing streak (docs/webhooks.md#auto-disable). Changes apply
 * to the next attempt of every delivery.
 */
export async function updateSubscription(
  ctx: AppContext,
  who: Principal,
  id: string,
  data: UpdateSubscriptionInput,
): Promise<SubscriptionDto> {
  if (data.url !== undefined) await checkUrl(ctx, data.url);
  return unitOfWork(ctx, async ({ em }) => {
    const sub = await findSubscriptionEntity(em, who, id, { lock: true });
    if (data.url !== undefined) sub.url = data.url;
    if (data.event_types !== undefined) sub.eventTypes = data.event_types;
    if (data.headers !== undefined) sub.headers = data.headers;
    if (data.description !== undefined) sub.description = data.description;
    if (data.status !== undefined && data.status !== sub.status) {
      // Leaving `disabled` (or `paused`) starts afresh: a streak from before must not disable it again at once.
      sub.status = data.status;
      sub.disabledReason = null;
      sub.disabledAt = null;
      sub.failingSince = null;
    }
    sub.updatedAt = new Date();
    await em.flush();
    if (data.status === 'paused') await killPendingDeliveries(em, sub.id, 'subscription paused');
    await announceSubscriptionChange(em, sub.id);
    return presentSubscription(subscriptionRow(sub));
  });
}
