import type { AppContext } from '../../context.ts';
import type { Scope } from '../keys/principal.ts';
import { findParticipant } from './find-participant.ts';
import { type ParticipantDto, presentParticipant } from './presenters.ts';

/** `GET /v1/participants/{external_id}` (CONTRACT 7). */
export async function showParticipant(
  ctx: AppContext,
  who: Scope,
  externalId: string,
): Promise<ParticipantDto> {
  return presentParticipant(await findParticipant(ctx.pool, who, externalId));
}
