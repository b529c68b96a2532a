import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import type { Principal } from '../keys/principal.ts';
import { Participant } from '../participants/entities.ts';
import { parseInput } from '../validation.ts';
import { presentReward, revealsSecrets } from './presenters.ts';
import { catalogue, findRewardEntity, rewardRows } from './repository.ts';
import type { ParticipantCatalogue, RewardDto } from './shapes.ts';

// Cold paths: the Reward entity over a forked `em`, each read's pools counted in one query
// (repository.ts' `codeStock`).

export const catalogueInput = z.strictObject({
  include_inactive: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .or(z.boolean())
    .optional()
    .meta({ description: 'Also list inactive rewards (never archived ones). Default false.' }),
});

/** The catalogue (SPEC 4.1): active, unarchived rewards of the key's workspace and mode, oldest first. */
export async function listRewards(
  ctx: AppContext,
  who: Principal,
  input: unknown = {},
): Promise<RewardDto[]> {
  const q = parseInput(catalogueInput, input);
  const em = ctx.orm.em.fork();
  const rows = await rewardRows(em, await catalogue(em, who, q.include_inactive ?? false));
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
  const participant = await ctx.orm.em
    .fork()
    .findOne(
      Participant,
      { workspace: who.workspaceId, mode: who.mode, externalId },
      { fields: ['balance'] },
    );
  if (!participant) throw notFound('participant');
  const balance = Number(participant.balance);
  const rewards = await listRewards(ctx, who);
  return { data: rewards.map((r) => ({ ...r, can_afford: balance >= r.cost_points })), meta: { balance } };
}

/** One reward (archived ones too, so redemption history can name them). */
export async function getReward(ctx: AppContext, who: Principal, id: string | number): Promise<RewardDto> {
  const em = ctx.orm.em.fork();
  const [row] = await rewardRows(em, [await findRewardEntity(em, who, id, { archived: true })]);
  return presentReward(row!, revealsSecrets(who));
}
