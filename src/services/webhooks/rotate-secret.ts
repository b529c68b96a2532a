import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import { isoTime } from '../../lib/iso-time.ts';
import { encryptSecret, generateWebhookSecret } from '../../lib/secrets.ts';
import type { Principal } from '../keys/principal.ts';
import { announceSubscriptionChange, findSubscriptionEntity } from './repository.ts';
import type { SecretRotatedDto } from './shapes.ts';
import { MAX_PREVIOUS_SECRETS, unexpired } from './signing-secrets.ts';
import { signingSecret } from './subscription-input.ts';

/** The longest grace an old secret gets: a week. */
export const MAX_GRACE_SECONDS = 604_800;

export const rotateSecretInput = z.strictObject({
  secret: signingSecret.optional(),
  grace_seconds: z
    .int()
    .min(0)
    .max(MAX_GRACE_SECONDS)
    .default(86_400)
    .meta({
      description:
        'How long the replaced secret keeps signing beside the new one (0 to 604800 s, default 86400: a day). ' +
        '0 stops it at once.',
    }),
});
export type RotateSecretInput = z.output<typeof rotateSecretInput>;

/**
 * Replaces a subscription's signing secret (docs/webhooks.md#rotation). The old one, still
 * encrypted, keeps signing until `previous_expires_at`; at most 5 old secrets are kept (the
 * oldest dropped) and expired ones are dropped now. Dispatchers drop what they queued for it, so
 * the next attempt of every delivery is signed with the new set. The new secret is shown only here.
 */
export async function rotateSecret(
  ctx: AppContext,
  who: Principal,
  id: string,
  data: RotateSecretInput,
): Promise<SecretRotatedDto> {
  const secret = data.secret ?? generateWebhookSecret();
  return unitOfWork(ctx, async ({ em }) => {
    const sub = await findSubscriptionEntity(em, who, id, { lock: true });
    const now = Date.now();
    const expiresAt = new Date(now + data.grace_seconds * 1000);
    const kept = unexpired(sub.previousSecrets, now);
    sub.previousSecrets = (
      data.grace_seconds > 0
        ? [{ secret_enc: sub.secretEnc, expires_at: expiresAt.toISOString() }, ...kept]
        : kept
    ).slice(0, MAX_PREVIOUS_SECRETS);
    sub.secretEnc = encryptSecret(secret, ctx.config.secret);
    sub.updatedAt = new Date(now);
    await em.flush();
    await announceSubscriptionChange(em, sub.id);
    return { secret, previous_expires_at: isoTime(expiresAt) };
  });
}
