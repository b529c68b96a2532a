import type { AppContext } from '../../context.ts';
import type { Scope } from '../keys/principal.ts';
import { rankOf } from '../leaderboards/read-leaderboard.ts';
import { activeMultiplier } from '../rewards/multiplier.ts';
import { findParticipant } from './find-participant.ts';
import type { ParticipantSummary } from './shapes.ts';

export type { ParticipantSummary } from './shapes.ts';
// Raw SQL: three counts in one round trip, beside the rank from the histogram (leaderboards/histogram.ts,
// bench suite `leaderboards`).

/** `GET /v1/participants/{external_id}/summary` (CONTRACT 7). */
export async function participantSummary(
  ctx: AppContext,
  who: Scope,
  externalId: string,
): Promise<ParticipantSummary> {
  const p = await findParticipant(ctx.pool, who, externalId);
  const [counts, standing, multiplier] = await Promise.all([
    ctx.pool.query<{ badges: string; redemptions: string; events: string }>(
      `select (select count(*) from participant_badges where participant_id = $1) as badges,
              (select count(*) from redemptions where participant_id = $1) as redemptions,
              (select count(*) from events where participant_id = $1) as events`,
      [p.id],
    ),
    rankOf(ctx.pool, who, 'all_time', Number(p.lifetime_points)),
    activeMultiplier(ctx.pool, Number(p.id)),
  ]);
  const c = counts.rows[0]!;
  return {
    external_id: p.external_id,
    balance: Number(p.balance),
    lifetime_points: Number(p.lifetime_points),
    badges_count: Number(c.badges),
    redemptions_count: Number(c.redemptions),
    events_count: Number(c.events),
    rank: standing,
    active_multiplier: multiplier,
  };
}
