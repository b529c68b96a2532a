import type { AppContext } from '../../context.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import { DomainError } from '../../errors.ts';
import type { Principal } from '../keys/principal.ts';
import { getDelivery } from './list-deliveries.ts';
import { findDelivery, lockDelivery, rearmDelivery, wakeDispatchers } from './repository.ts';
import type { DeliveryDetailDto } from './shapes.ts';

/**
 * Replay (docs/api.md#webhooks): a dead or succeeded delivery goes back to `pending`, due now,
 * with its attempt count reset; the same body bytes are sent again. Anything else is 409
 * `invalid_state`, as is a delivery whose subscription is paused, disabled or deleted (set it
 * active first).
 */
export async function replayDelivery(
  ctx: AppContext,
  who: Principal,
  id: string,
): Promise<DeliveryDetailDto> {
  await unitOfWork(ctx, async ({ sql }) => {
    const delivery = await findDelivery(sql, who, id);
    const row = await lockDelivery(sql, delivery.id);
    if (row.status !== 'dead' && row.status !== 'succeeded') {
      throw new DomainError(
        'invalid_state',
        `Only a dead or succeeded delivery can be replayed; this one is ${row.status}`,
      );
    }
    if (row.deleted || row.sub_status !== 'active') {
      throw new DomainError(
        'invalid_state',
        row.deleted
          ? "The delivery's subscription is deleted"
          : `The delivery's subscription is ${row.sub_status}: set its status to active before replaying`,
      );
    }
    await rearmDelivery(sql, delivery.id);
    await wakeDispatchers(sql);
  });
  return getDelivery(ctx, who, id);
}
