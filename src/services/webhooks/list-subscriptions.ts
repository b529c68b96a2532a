import type { AppContext } from '../../context.ts';
import { pageInput } from '../../lib/pagination.ts';
import type { Principal } from '../keys/principal.ts';
import { pagedList } from '../paged-list.ts';
import { presentSubscription, type SubscriptionRow } from './presenters.ts';
import { findSubscription, pageSubscriptions } from './repository.ts';
import type { SubscriptionDto } from './shapes.ts';

/** The caller's subscriptions (never their secrets), newest first. */
export const listSubscriptions = pagedList({
  input: pageInput,
  keyOf: (s: SubscriptionRow) => s.id,
  fetch: (ctx: AppContext, who: Principal, _q, range) => pageSubscriptions(ctx.orm, who, range),
  present: presentSubscription,
});

/** One subscription of the caller's workspace and mode (404 when unknown or deleted). */
export async function getSubscription(ctx: AppContext, who: Principal, id: string): Promise<SubscriptionDto> {
  return presentSubscription(await findSubscription(ctx.orm, who, id));
}
