import type { AppContext } from '../../context.ts';
import { withTransaction } from '../../db/tx.ts';
import type { Principal } from '../keys/principal.ts';
import { parseInput } from '../validation.ts';
import { presentSubscription, type SubscriptionRow } from './presenters.ts';
import {
  announceSubscriptionChange,
  findSubscription,
  killPendingDeliveries,
  SUBSCRIPTION_COLUMNS,
} from './repository.ts';
import type { SubscriptionDto } from './shapes.ts';
import { checkUrl, updateSubscriptionInput } from './subscription-input.ts';

export { updateSubscriptionInput };

/**
 * Changes url, event_types, headers, description or status. A new URL passes the egress guard
 * first. Pausing kills the pending deliveries in the same transaction (SPEC 6.4.6); resuming
 * does not revive them (replay does). Changes apply to the next attempt of every delivery.
 */
export async function updateSubscription(
  ctx: AppContext,
  who: Principal,
  id: string,
  input: unknown,
): Promise<SubscriptionDto> {
  const data = parseInput(updateSubscriptionInput, input);
  if (data.url !== undefined) await checkUrl(ctx, data.url);
  return withTransaction(ctx.pool, async (sql) => {
    const current = await findSubscription(sql, who, id, { lock: true });
    const { rows } = await sql.query<SubscriptionRow>(
      `update webhook_subscriptions set
         url = coalesce($2, url),
         event_types = coalesce($3::jsonb, event_types),
         headers = coalesce($4::jsonb, headers),
         description = case when $5::boolean then $6 else description end,
         status = coalesce($7, status),
         updated_at = now()
       where id = $1 returning ${SUBSCRIPTION_COLUMNS}`,
      [
        current.id,
        data.url ?? null,
        data.event_types ? JSON.stringify(data.event_types) : null,
        data.headers ? JSON.stringify(data.headers) : null,
        data.description !== undefined,
        data.description ?? null,
        data.status ?? null,
      ],
    );
    if (data.status === 'paused') await killPendingDeliveries(sql, current.id, 'subscription paused');
    await announceSubscriptionChange(sql, current.id);
    return presentSubscription(rows[0]!);
  });
}
