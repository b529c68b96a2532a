import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import type { Principal } from '../keys/principal.ts';
import { parseInput } from '../validation.ts';
import { presentReward, type RewardRow, revealsSecrets } from './presenters.ts';
import { findReward, REWARD_COLUMNS } from './rewards-repo.ts';
import type { ParticipantCatalogue, RewardDto } from './shapes.ts';

// Raw SQL: the catalogue is presented from `REWARD_COLUMNS` (stock counted from the partial index
// `reward_codes_available_idx`, `in_window` against `now()`), the SQL rewards-repo.ts shares with the
// redemption path (bench suite `rewards`).

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
  const { rows } = await ctx.pool.query<RewardRow>(
    `select ${REWARD_COLUMNS} from rewards r
      where r.workspace_id = $1 and r.mode = $2 and r.archived_at is null ${q.include_inactive ? '' : 'and r.active'}
      order by r.id`,
    [who.workspaceId, who.mode],
  );
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
  const { rows } = await ctx.pool.query<{ balance: string }>(
    `select balance from participants where workspace_id = $1 and mode = $2 and external_id = $3`,
    [who.workspaceId, who.mode, externalId],
  );
  if (!rows[0]) throw notFound('participant');
  const balance = Number(rows[0].balance);
  const rewards = await listRewards(ctx, who);
  return { data: rewards.map((r) => ({ ...r, can_afford: balance >= r.cost_points })), meta: { balance } };
}

/** One reward (archived ones too, so redemption history can name them). */
export async function getReward(ctx: AppContext, who: Principal, id: string | number): Promise<RewardDto> {
  return presentReward(await findReward(ctx.pool, who, id, { archived: true }), revealsSecrets(who));
}
