import type { AppContext } from '../../context.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import { encryptSecret, generateWebhookSecret } from '../../lib/secrets.ts';
import { uuidv7 } from '../../lib/uuid7.ts';
import type { Principal } from '../keys/principal.ts';
import { WebhookSubscription } from './entities.ts';
import { presentSubscription } from './presenters.ts';
import { subscriptionRow } from './repository.ts';
import type { SubscriptionCreatedDto } from './shapes.ts';
import { type CreateSubscriptionInput, checkUrl, createSubscriptionInput } from './subscription-input.ts';

export { createSubscriptionInput };

/**
 * Creates a subscription in the caller's mode after the egress guard accepted its URL (the URL
 * is not called). The signing secret — given, or a generated `whsec_` + base64 of 32 random bytes
 * (docs/webhooks.md#verifying-a-delivery) — is stored encrypted and returned only here.
 */
export async function createSubscription(
  ctx: AppContext,
  who: Principal,
  data: CreateSubscriptionInput,
): Promise<SubscriptionCreatedDto> {
  await checkUrl(ctx, data.url);
  const secret = data.secret ?? generateWebhookSecret();
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
      // Set here: the entity's default would be written as the JSON string "[]", not an array.
      previousSecrets: [],
    }),
  );
  return { ...presentSubscription(subscriptionRow(sub)), secret };
}
