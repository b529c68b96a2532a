import type { AppContext } from '../../context.ts';
import type { Scope } from '../keys/principal.ts';
import { presentParticipant } from './presenters.ts';
import { findParticipant } from './repository.ts';
import type { ParticipantDto } from './shapes.ts';

/** `GET /v1/participants/{external_id}`: the participant, else 404. */
export async function showParticipant(
  ctx: AppContext,
  who: Scope,
  externalId: string,
): Promise<ParticipantDto> {
  return presentParticipant(await findParticipant(ctx.pool, who, externalId));
}
