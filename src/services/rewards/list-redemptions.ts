import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { type Page, pageInput } from '../../lib/pagination.ts';
import { text } from '../../lib/primitives.ts';
import type { Principal } from '../keys/principal.ts';
import { parseInput } from '../validation.ts';
import { presentRedemption, type RedemptionRow } from './presenters.ts';
import { findRedemption, REDEMPTION_COLUMNS } from './rewards-repo.ts';
import { type RedemptionDto, redemptionStatus } from './shapes.ts';

export const listRedemptionsInput = pageInput.extend({
  participant: text(255, { min: 1 }).optional().meta({ description: "A participant's external id." }),
  status: redemptionStatus.optional(),
  reward_id: z.coerce.number().int().positive().optional(),
});
export type ListRedemptionsInput = z.input<typeof listRedemptionsInput>;

/** Redemptions of the key's workspace and mode, newest first, filtered by participant, status, reward. */
export async function listRedemptions(
  ctx: AppContext,
  who: Principal,
  input: unknown,
): Promise<Page<RedemptionDto>> {
  const q = parseInput(listRedemptionsInput, input);
  const where = ['x.workspace_id = $1', 'x.mode = $2'];
  const values: unknown[] = [who.workspaceId, who.mode];
  const add = (clause: string, value: unknown) => {
    values.push(value);
    where.push(clause.replace('?', `$${values.length}`));
  };
  if (q.participant) add('p.external_id = ?', q.participant);
  if (q.status) add('x.status = ?', q.status);
  if (q.reward_id) add('x.reward_id = ?', q.reward_id);
  const page = await ctx.paginator.page(
    q,
    (r: RedemptionRow) => Number(r.id),
    async ({ after, take }) => {
      const v = [...values];
      const w = [...where];
      if (after) {
        v.push(after.key);
        w.push(`x.id ${after.op === 'lt' ? '<' : '>'} $${v.length}`);
      }
      v.push(take);
      const { rows } = await ctx.pool.query<RedemptionRow>(
        `select ${REDEMPTION_COLUMNS} from redemptions x join participants p on p.id = x.participant_id
          where ${w.join(' and ')}
          order by x.id ${after?.op === 'gt' ? 'asc' : 'desc'} limit $${v.length}`,
        v,
      );
      return rows;
    },
  );
  return { ...page, data: page.data.map(presentRedemption) };
}

export async function getRedemption(
  ctx: AppContext,
  who: Principal,
  id: string | number,
): Promise<RedemptionDto> {
  const row = await findRedemption(ctx.pool, who, id);
  if (!row) throw notFound('redemption');
  return presentRedemption(row);
}
