import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { signParticipantToken } from '../keys/participant-token.ts';
import type { Principal } from '../keys/principal.ts';
import { findParticipant } from './repository.ts';
import type { ParticipantTokenDto } from './shapes.ts';

export const mintTokenInput = z.strictObject({
  ttl_seconds: z
    .int()
    .min(60)
    .max(86_400)
    .default(3600)
    .meta({ description: 'Lifetime in seconds: 60 to 86400, default 3600.' }),
});
export type MintTokenInput = z.output<typeof mintTokenInput>;

/**
 * `POST /v1/participants/{external_id}/tokens`: a short-lived token a browser may
 * hold for one participant, bound to the workspace, the mode and the minting key. 404 for an
 * unknown participant.
 */
export async function mintParticipantToken(
  ctx: AppContext,
  who: Principal,
  externalId: string,
  { ttl_seconds }: MintTokenInput,
): Promise<ParticipantTokenDto> {
  await findParticipant(ctx.pool, who, externalId);
  const expiresAt = Math.floor(Date.now() / 1000) + ttl_seconds;
  const token = signParticipantToken(ctx.config.secret, {
    workspaceId: who.workspaceId,
    workspaceSlug: who.workspaceSlug,
    mode: who.mode,
    externalId,
    keyId: who.keyId,
    expiresAt,
  });
  return { token, expires_at: new Date(expiresAt * 1000).toISOString() };
}
