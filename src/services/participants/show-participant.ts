import type { AppContext } from '../../context.ts';
import { findParticipant } from './find-participant.ts';
import { type ParticipantDto, presentParticipant, type Scope } from './presenters.ts';

/** `GET /v1/participants/{external_id}` (CONTRACT 7). */
export async function showParticipant(
  ctx: AppContext,
  who: Scope,
  externalId: string,
): Promise<ParticipantDto> {
  return presentParticipant(await findParticipant(ctx.pool, who, externalId));
}
