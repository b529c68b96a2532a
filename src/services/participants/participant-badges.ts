import type { AppContext } from '../../context.ts';
import type { Scope } from '../keys/principal.ts';
import { findParticipant } from './find-participant.ts';
import type { ParticipantBadgeDto } from './shapes.ts';

export type { ParticipantBadgeDto } from './shapes.ts';

/** `GET /v1/participants/{external_id}/badges`: every key+tier held, newest award first. */
export async function participantBadges(
  ctx: AppContext,
  who: Scope,
  externalId: string,
): Promise<{ data: ParticipantBadgeDto[] }> {
  const participant = await findParticipant(ctx.pool, who, externalId);
  const { rows } = await ctx.pool.query<{
    key: string;
    tier: string;
    name: string;
    awarded_at: Date;
    flow_run_id: string | null;
  }>(
    `select b.key, pb.tier, b.name, pb.awarded_at, pb.flow_run_id
       from participant_badges pb join badges b on b.id = pb.badge_id
      where pb.participant_id = $1
      order by pb.awarded_at desc, pb.id desc`,
    [participant.id],
  );
  return {
    data: rows.map((r) => ({
      key: r.key,
      tier: r.tier === '' ? null : r.tier,
      name: r.name,
      awarded_at: new Date(r.awarded_at).toISOString(),
      flow_run_id: r.flow_run_id,
    })),
  };
}
