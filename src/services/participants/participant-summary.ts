import type { AppContext } from '../../context.ts';
import type { Scope } from '../keys/principal.ts';
import { rankOf } from '../leaderboards/read-leaderboard.ts';
import { activeMultiplier } from '../rewards/repository.ts';
import { presentTier } from '../tiers/presenters.ts';
import { presentNextExpiry } from './presenters.ts';
import { countsOf, findParticipant } from './repository.ts';
import type { ParticipantSummary } from './shapes.ts';

/** `GET /v1/participants/{external_id}/summary`: counts, all-time rank and the active multiplier. */
export async function participantSummary(
  ctx: AppContext,
  who: Scope,
  externalId: string,
): Promise<ParticipantSummary> {
  const p = await findParticipant(ctx.pool, who, externalId);
  const [counts, standing, multiplier] = await Promise.all([
    countsOf(ctx.pool, p.id),
    rankOf(ctx.pool, who, 'all_time', Number(p.lifetime_points)),
    activeMultiplier(ctx.pool, Number(p.id)),
  ]);
  return {
    external_id: p.external_id,
    balance: Number(p.balance),
    lifetime_points: Number(p.lifetime_points),
    pending_points: Number(p.pending_points),
    next_expiry: presentNextExpiry(p),
    tier: presentTier(p),
    badges_count: counts.badges,
    redemptions_count: counts.redemptions,
    events_count: counts.events,
    rank: standing,
    active_multiplier: multiplier,
  };
}
