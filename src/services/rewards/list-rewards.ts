import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import type { Principal } from '../keys/principal.ts';
import { tierEligible } from '../tiers/eligibility.ts';
import { tierRulesOf } from '../tiers/programme.ts';
import { tierStandingByExternalId } from '../tiers/repository.ts';
import { presentReward, revealsSecrets } from './presenters.ts';
import { catalogueRows, readRewardRow } from './repository.ts';
import type { ParticipantCatalogue, RewardDto } from './shapes.ts';

export const catalogueInput = z.strictObject({
  include_inactive: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .or(z.boolean())
    .optional()
    .meta({ description: 'Also list inactive rewards (never archived ones). Default false.' }),
});
export type CatalogueInput = z.output<typeof catalogueInput>;

/** The catalogue (docs/api.md#rewards-and-redemptions): unarchived rewards of the key's workspace and mode, oldest first. */
export async function listRewards(
  ctx: AppContext,
  who: Principal,
  input: CatalogueInput = {},
): Promise<RewardDto[]> {
  const rows = await catalogueRows(ctx, who, input.include_inactive ?? false);
  const reveal = revealsSecrets(who);
  return rows.map((r) => presentReward(r, reveal));
}

/**
 * The catalogue as one participant sees it: each reward with `can_afford` against the
 * participant's spendable balance, `tier_eligible` against their tier level, and `meta.balance`.
 * An unknown participant is a 404.
 */
export async function listParticipantRewards(
  ctx: AppContext,
  who: Principal,
  externalId: string,
): Promise<ParticipantCatalogue> {
  const standing = await tierStandingByExternalId(ctx.pool, who, externalId);
  if (!standing) throw notFound('participant');
  const balance = Number(standing.balance);
  const [rewards, rules] = await Promise.all([
    listRewards(ctx, who),
    tierRulesOf(ctx.pool, who.workspaceId, who.mode),
  ]);
  return {
    data: rewards.map((r) => ({
      ...r,
      can_afford: balance >= r.cost_points,
      tier_eligible: tierEligible(rules, standing.tier_key, r.min_tier),
    })),
    meta: { balance },
  };
}

/** One reward (archived ones too, so redemption history can name them). */
export async function getReward(ctx: AppContext, who: Principal, id: string | number): Promise<RewardDto> {
  return presentReward(await readRewardRow(ctx, who, id), revealsSecrets(who));
}
