import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { keysetSql, pageInput } from '../../lib/pagination.ts';
import { text } from '../../lib/primitives.ts';
import type { Principal } from '../keys/principal.ts';
import { pagedList } from '../paged-list.ts';
import { presentRedemption, type RedemptionRow } from './presenters.ts';
import { findRedemption, REDEMPTION_COLUMNS } from './repository.ts';
import { type RedemptionDto, redemptionStatus } from './shapes.ts';

// Raw SQL: presented from `REDEMPTION_COLUMNS`, the SQL row shape the redemption path (bench suite
// `rewards`) returns, joined to the participant for its external id.

export const listRedemptionsInput = pageInput.extend({
  participant: text(255, { min: 1 }).optional().meta({ description: "A participant's external id." }),
  status: redemptionStatus.optional(),
  reward_id: z.coerce.number().int().positive().optional(),
});
export type ListRedemptionsInput = z.input<typeof listRedemptionsInput>;

/** Redemptions of the key's workspace and mode, newest first, filtered by participant, status, reward. */
export const listRedemptions = pagedList({
  input: listRedemptionsInput,
  keyOf: (r: RedemptionRow) => Number(r.id),
  fetch: async (ctx: AppContext, who: Principal, q, range) => {
    const where = ['x.workspace_id = $1', 'x.mode = $2'];
    const values: unknown[] = [who.workspaceId, who.mode];
    const add = (clause: string, value: unknown) => {
      values.push(value);
      where.push(clause.replace('?', `$${values.length}`));
    };
    if (q.participant) add('p.external_id = ?', q.participant);
    if (q.status) add('x.status = ?', q.status);
    if (q.reward_id) add('x.reward_id = ?', q.reward_id);
    const k = keysetSql(range, 'x.id', values.length + 1);
    const { rows } = await ctx.pool.query<RedemptionRow>(
      `select ${REDEMPTION_COLUMNS} from redemptions x join participants p on p.id = x.participant_id
        where ${where.join(' and ')} and ${k.where}
        order by ${k.order} limit ${k.limit}`,
      [...values, ...k.params],
    );
    return rows;
  },
  present: presentRedemption,
});

export async function getRedemption(
  ctx: AppContext,
  who: Principal,
  id: string | number,
): Promise<RedemptionDto> {
  const row = await findRedemption(ctx.pool, who, id);
  if (!row) throw notFound('redemption');
  return presentRedemption(row);
}
