import type { AppContext } from '../../context.ts';
import { isoTime } from '../../lib/iso-time.ts';
import type { Scope } from '../keys/principal.ts';
import { badgesHeld, findParticipant, type HeldBadgeRow } from './repository.ts';
import type { ParticipantBadgeDto } from './shapes.ts';

/** `GET /v1/participants/{external_id}/badges`: every key+tier held, newest award first. */
export async function participantBadges(
  ctx: AppContext,
  who: Scope,
  externalId: string,
): Promise<{ data: ParticipantBadgeDto[] }> {
  const participant = await findParticipant(ctx.pool, who, externalId);
  const held = await badgesHeld(ctx, Number(participant.id));
  return { data: held.map(presentHeldBadge) };
}

/** One award as `…/badges` shows it (also the subject-access export's). */
export const presentHeldBadge = (h: Awaited<ReturnType<typeof badgesHeld>>[number]): ParticipantBadgeDto =>
  presentHeldBadgeRow({
    key: h.badge.key,
    tier: h.tier,
    name: h.badge.name,
    awarded_at: h.awardedAt,
    flow_run_id: h.flowRunId ?? null,
  });

/** An award read by raw SQL (`badges` joined to `participant_badges`), as {@link presentHeldBadge} shows it. */
export const presentHeldBadgeRow = (r: HeldBadgeRow): ParticipantBadgeDto => ({
  key: r.key,
  tier: r.tier === '' ? null : r.tier,
  name: r.name,
  awarded_at: isoTime(r.awarded_at),
  flow_run_id: r.flow_run_id ?? null,
});
