import { LockMode } from '@mikro-orm/core';
import type { AppContext } from '../../context.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import type { Mode } from '../keys/principal.ts';
import { emitResult } from '../outbox/emit.ts';
import type { WebhookDisabledData } from '../outbox/result-shapes.ts';
import { WebhookSubscription } from './entities.ts';
import type { DisableReason } from './health.sql.ts';
import { announceSubscriptionChange, killPendingDeliveries } from './repository.ts';

/**
 * Disables a subscription the dispatcher found failing or gone (docs/webhooks.md#auto-disable), in
 * one transaction: `status: 'disabled'` with the reason and time, its pending deliveries `dead`, and
 * a `webhook.disabled` result for the workspace's other subscriptions of the same mode (this one is
 * no longer active, so the result's fan-out skips it). A `failing` verdict is checked again under
 * the lock (a success or a re-enable may have come in between). Answers whether it disabled it.
 */
export async function disableSubscription(
  ctx: Pick<AppContext, 'orm' | 'config'>,
  id: string,
  reason: DisableReason,
): Promise<boolean> {
  return unitOfWork(ctx, async ({ em, sql }) => {
    const sub = await em.findOne(
      WebhookSubscription,
      { id, deletedAt: null },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (sub?.status !== 'active') return false;
    const now = new Date();
    if (reason === 'failing') {
      const since = sub.failingSince?.getTime();
      if (since === undefined || now.getTime() - since < ctx.config.WEBHOOK_DISABLE_AFTER_SECONDS * 1000) {
        return false;
      }
    }
    sub.status = 'disabled';
    sub.disabledReason = reason;
    sub.disabledAt = sub.updatedAt = now;
    await em.flush();
    await killPendingDeliveries(em, sub.id, `subscription disabled (${reason})`);
    const data: WebhookDisabledData = { subscription: { id: sub.id, url: sub.url }, reason };
    await emitResult(sql, {
      workspaceId: sub.workspace.id,
      mode: sub.mode as Mode,
      type: 'webhook.disabled',
      data,
    });
    await announceSubscriptionChange(em, sub.id);
    return true;
  });
}
