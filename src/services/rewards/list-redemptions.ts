import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { pageInput } from '../../lib/pagination.ts';
import { text } from '../../lib/primitives.ts';
import type { Principal } from '../keys/principal.ts';
import { pagedList } from '../paged-list.ts';
import { presentRedemption, type RedemptionRow } from './presenters.ts';
import { findRedemption, redemptionsIn } from './repository.ts';
import { type RedemptionDto, redemptionStatus } from './shapes.ts';

export const listRedemptionsInput = pageInput.extend({
  participant: text(255, { min: 1 }).optional().meta({ description: "A participant's external id." }),
  status: redemptionStatus.optional(),
  reward_id: z.coerce.number().int().positive().optional(),
});
export type ListRedemptionsInput = z.output<typeof listRedemptionsInput>;

/** Redemptions of the key's workspace and mode, newest first, filtered by participant, status, reward. */
export const listRedemptions = pagedList({
  input: listRedemptionsInput,
  keyOf: (r: RedemptionRow) => Number(r.id),
  fetch: (ctx: AppContext, who: Principal, q, range) => redemptionsIn(ctx.pool, who, q, range),
  present: presentRedemption,
});

/** One redemption of the key's workspace and mode, else 404. */
export async function getRedemption(
  ctx: AppContext,
  who: Principal,
  id: string | number,
): Promise<RedemptionDto> {
  const row = await findRedemption(ctx.pool, who, id);
  if (!row) throw notFound('redemption');
  return presentRedemption(row);
}
