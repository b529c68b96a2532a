import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import { DomainError, validationError } from '../../errors.ts';
import type { Principal } from '../keys/principal.ts';
import { findSubscriptionEntity, recoverDeadDeliveries, wakeDispatchers } from './repository.ts';
import type { RecoveredDto } from './shapes.ts';

/** How far back a recover reaches (docs/webhooks.md#recover). */
export const RECOVER_MAX_DAYS = 14;

const instant = z.iso.datetime({ offset: true });

export const recoverDeliveriesInput = z
  .strictObject({
    since: instant.meta({
      description: `Deliveries created at or after this time (ISO 8601), at most ${RECOVER_MAX_DAYS} days ago.`,
      examples: ['2026-11-28T09:00:00Z'],
    }),
    until: instant.optional().meta({
      description: 'Deliveries created at or before this time (ISO 8601); default: now.',
    }),
  })
  .refine((q) => !q.until || Date.parse(q.until) >= Date.parse(q.since), {
    path: ['until'],
    message: 'must not be before since',
  });
export type RecoverDeliveriesInput = z.output<typeof recoverDeliveriesInput>;

/**
 * Recover (docs/webhooks.md#recover): every dead delivery of the subscription created in [since,
 * until] goes back to `pending`, oldest first, its attempt count reset, the same body bytes sent
 * again. `since` reaches back 14 days at most (older: 422 on `since`). Only an active subscription
 * recovers: a paused or disabled one is 409 `invalid_state` (re-enable it first, then recover
 * since it went down).
 */
export async function recoverDeliveries(
  ctx: AppContext,
  who: Principal,
  id: string,
  data: RecoverDeliveriesInput,
): Promise<RecoveredDto> {
  const now = Date.now();
  const since = new Date(data.since);
  if (since.getTime() < now - RECOVER_MAX_DAYS * 86_400_000) {
    throw validationError([{ field: 'since', message: `must be at most ${RECOVER_MAX_DAYS} days ago` }]);
  }
  const until = data.until ? new Date(data.until) : new Date(now);
  return unitOfWork(ctx, async ({ em, sql }) => {
    const sub = await findSubscriptionEntity(em, who, id, { lock: true });
    if (sub.status !== 'active') {
      throw new DomainError(
        'invalid_state',
        `The subscription is ${sub.status}: set its status to active before recovering its deliveries`,
      );
    }
    const recovered = await recoverDeadDeliveries(sql, sub.id, since, until);
    if (recovered) await wakeDispatchers(sql);
    return { recovered };
  });
}
