import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import type { Principal } from '../keys/principal.ts';
import { balanceByExternalId } from '../participants/repository.ts';
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
 * participant's spendable balance, and `meta.balance`. An unknown participant is a 404.
 */
export async function listParticipantRewards(
  ctx: AppContext,
  who: Principal,
  externalId: string,
): Promise<ParticipantCatalogue> {
  const balance = await balanceByExternalId(ctx, who, externalId);
  if (balance === null) throw notFound('participant');
  const rewards = await listRewards(ctx, who);
  return { data: rewards.map((r) => ({ ...r, can_afford: balance >= r.cost_points })), meta: { balance } };
}

/** One reward (archived ones too, so redemption history can name them). */
export async function getReward(ctx: AppContext, who: Principal, id: string | number): Promise<RewardDto> {
  return presentReward(await readRewardRow(ctx, who, id), revealsSecrets(who));
}
