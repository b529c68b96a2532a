import type { AppContext } from '../../context.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import { encryptSecret } from '../../lib/secrets.ts';
import { uuidv7 } from '../../lib/uuid7.ts';
import { randomToken } from '../keys/key-format.ts';
import type { Principal } from '../keys/principal.ts';
import { WebhookSubscription } from './entities.ts';
import { presentSubscription } from './presenters.ts';
import { subscriptionRow } from './repository.ts';
import type { SubscriptionCreatedDto } from './shapes.ts';
import { type CreateSubscriptionInput, checkUrl, createSubscriptionInput } from './subscription-input.ts';

export { createSubscriptionInput };

/**
 * Creates a subscription in the caller's mode after the egress guard accepted its URL (the URL
 * is not called). The signing secret — given, or a generated `whsec_…` — is stored encrypted
 * and returned only here.
 */
export async function createSubscription(
  ctx: AppContext,
  who: Principal,
  data: CreateSubscriptionInput,
): Promise<SubscriptionCreatedDto> {
  await checkUrl(ctx, data.url);
  const secret = data.secret ?? `whsec_${randomToken(32)}`;
  const sub = await unitOfWork(ctx, async ({ em }) =>
    em.create(WebhookSubscription, {
      id: uuidv7(),
      workspace: who.workspaceId,
      mode: who.mode,
      url: data.url,
      eventTypes: data.event_types,
      headers: data.headers ?? {},
      description: data.description ?? null,
      secretEnc: encryptSecret(secret, ctx.config.secret),
    }),
  );
  return { ...presentSubscription(subscriptionRow(sub)), secret };
}
