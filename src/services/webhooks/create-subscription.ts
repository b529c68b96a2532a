import type { AppContext } from '../../context.ts';
import { encryptSecret } from '../../lib/secrets.ts';
import { uuidv7 } from '../../lib/uuid7.ts';
import { randomToken } from '../keys/key-format.ts';
import type { Principal } from '../keys/principal.ts';
import { parseInput } from '../validation.ts';
import { presentSubscription, type SubscriptionRow } from './presenters.ts';
import { SUBSCRIPTION_COLUMNS } from './repository.ts';
import type { SubscriptionCreatedDto } from './shapes.ts';
import { checkUrl, createSubscriptionInput } from './subscription-input.ts';

export { createSubscriptionInput };

/**
 * Creates a subscription in the caller's mode after the egress guard accepted its URL (the URL
 * is not called). The signing secret — given, or a generated `whsec_…` — is stored encrypted
 * and returned only here.
 */
export async function createSubscription(
  ctx: AppContext,
  who: Principal,
  input: unknown,
): Promise<SubscriptionCreatedDto> {
  const data = parseInput(createSubscriptionInput, input);
  await checkUrl(ctx, data.url);
  const secret = data.secret ?? `whsec_${randomToken(32)}`;
  const { rows } = await ctx.pool.query<SubscriptionRow>(
    `insert into webhook_subscriptions (id, workspace_id, mode, url, event_types, headers, description, secret_enc)
     values ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7, $8) returning ${SUBSCRIPTION_COLUMNS}`,
    [
      uuidv7(),
      who.workspaceId,
      who.mode,
      data.url,
      JSON.stringify(data.event_types),
      JSON.stringify(data.headers ?? {}),
      data.description ?? null,
      encryptSecret(secret, ctx.config.secret),
    ],
  );
  return { ...presentSubscription(rows[0]!), secret };
}
