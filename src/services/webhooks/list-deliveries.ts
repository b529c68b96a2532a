import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { pageInput } from '../../lib/pagination.ts';
import type { Principal } from '../keys/principal.ts';
import { pagedList } from '../paged-list.ts';
import { type DeliveryRow, presentAttempt, presentDelivery } from './presenters.ts';
import { attemptsOf, attemptsOfMany, findDeliveries, findDelivery, pageDeliveries } from './repository.ts';
import { DELIVERY_STATUSES, type DeliveryDetailDto, resultType } from './shapes.ts';

export const listDeliveriesInput = pageInput.extend({
  subscription_id: z.uuid().optional().meta({ description: 'Only deliveries to this subscription.' }),
  status: z.enum(DELIVERY_STATUSES).optional(),
  type: resultType.optional(),
});
export type ListDeliveriesInput = z.output<typeof listDeliveriesInput>;

/** The delivery log, newest first, filtered by subscription, status and type (docs/api.md#webhooks). */
export const listDeliveries = pagedList({
  input: listDeliveriesInput,
  keyOf: (d: DeliveryRow) => d.id,
  fetch: (ctx: AppContext, who: Principal, q, range) =>
    pageDeliveries(
      ctx.pool,
      who,
      { subscriptionId: q.subscription_id, status: q.status, type: q.type },
      range,
    ),
  present: presentDelivery,
});

/** One delivery with the body it sends and every attempt, oldest first. */
export async function getDelivery(ctx: AppContext, who: Principal, id: string): Promise<DeliveryDetailDto> {
  const delivery = await findDelivery(ctx.pool, who, id);
  const attempts = await attemptsOf(ctx.pool, delivery.id);
  return {
    ...presentDelivery(delivery),
    payload: JSON.parse(delivery.body),
    attempts: attempts.map(presentAttempt),
  };
}

/**
 * `getDelivery` for many ids in two statements (GraphQL's nested `payload` and `attempts`), in
 * the order asked; an id that is not a delivery of the caller's workspace and mode is a 404.
 */
export async function getDeliveries(
  ctx: AppContext,
  who: Principal,
  ids: readonly string[],
): Promise<(DeliveryDetailDto | Error)[]> {
  const [deliveries, attempts] = await Promise.all([
    findDeliveries(ctx.pool, who, ids),
    attemptsOfMany(ctx.pool, who, ids),
  ]);
  const found = new Map<string, DeliveryDetailDto>();
  for (const d of deliveries)
    found.set(d.id, { ...presentDelivery(d), payload: JSON.parse(d.body), attempts: [] });
  for (const a of attempts) found.get(a.delivery_id)?.attempts.push(presentAttempt(a));
  return ids.map((id) => found.get(id) ?? notFound('webhook delivery'));
}
