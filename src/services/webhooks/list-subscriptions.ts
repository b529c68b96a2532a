import type { AppContext } from '../../context.ts';
import { type Page, pageInput } from '../../lib/pagination.ts';
import type { Principal } from '../keys/principal.ts';
import { parseInput } from '../validation.ts';
import { presentSubscription, type SubscriptionDto, type SubscriptionRow } from './presenters.ts';
import { findSubscription, pageSubscriptions } from './repository.ts';

/** The caller's subscriptions (never their secrets), newest first. */
export async function listSubscriptions(
  ctx: AppContext,
  who: Principal,
  input: unknown,
): Promise<Page<SubscriptionDto>> {
  const q = parseInput(pageInput, input);
  return ctx.paginator.page(
    q,
    (s: SubscriptionRow) => s.id,
    (range) => pageSubscriptions(ctx.pool, who, range),
    presentSubscription,
  );
}

/** One subscription of the caller's workspace and mode (404 when unknown or deleted). */
export async function getSubscription(ctx: AppContext, who: Principal, id: string): Promise<SubscriptionDto> {
  return presentSubscription(await findSubscription(ctx.pool, who, id));
}
