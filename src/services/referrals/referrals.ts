import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import { DomainError, notFound } from '../../errors.ts';
import { type Page, pageInput } from '../../lib/pagination.ts';
import { TEXT_LIMITS, text } from '../../lib/primitives.ts';
import type { Scope } from '../keys/principal.ts';
import { participantIdOf } from '../participants/repository.ts';
import { settleGrants } from '../points/activate.sql.ts';
import { presentReferral, type ReferralRow } from './present.ts';
import { cancelState, lockAdvocate, markClawedBack, referralById, referralRows } from './repository.ts';
import { type ReferralDto, referralStatus } from './shapes.ts';

export { presentReferral, type ReferralRow } from './present.ts';

export const listReferralsInput = pageInput.extend({
  advocate: text(TEXT_LIMITS.externalId, { min: 1 })
    .optional()
    .meta({ description: 'Only the referrals of the advocate with this external id (unknown: none).' }),
  status: referralStatus.optional().meta({ description: 'Only referrals in this status.' }),
});
export type ListReferralsInput = z.output<typeof listReferralsInput>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `GET /v1/referrals` (docs/referrals.md#reads): newest first, by advocate and status. */
export async function listReferrals(
  ctx: AppContext,
  who: Scope,
  q: ListReferralsInput,
): Promise<Page<ReferralDto>> {
  const advocateId = q.advocate
    ? await participantIdOf(ctx.pool, { ...who, externalId: q.advocate })
    : undefined;
  return ctx.paginator.page(
    q,
    (r: ReferralRow) => r.id,
    async (range) =>
      // An unknown advocate made no referrals (the cursor is still checked).
      advocateId === null ? [] : referralRows(ctx.pool, who, { advocateId, status: q.status }, range),
    presentReferral,
  );
}

/** `GET /v1/referrals/{id}`: an unknown id, or one that cannot be a referral's, is a 404. */
export async function showReferral(ctx: AppContext, who: Scope, id: string): Promise<ReferralDto> {
  const row = UUID.test(id) ? await referralById(ctx.pool, who, id) : null;
  if (!row) throw notFound('referral');
  return presentReferral(row);
}

/**
 * `POST /v1/referrals/{id}/cancel` (docs/referrals.md#hold-and-claw-back): during its hold, a
 * qualified referral's advocate points still pending are cancelled (they leave `pending_points` and
 * are never credited) and it becomes `clawed_back`; grants the job has not written yet never will
 * be. Under the advocate's row lock, the one the jobs take, so they cannot write or activate those
 * grants meanwhile. Another status, or a hold that has ended: 409 `invalid_state`.
 */
export function cancelReferral(ctx: AppContext, who: Scope, id: string): Promise<ReferralDto> {
  if (!UUID.test(id)) return Promise.reject(notFound('referral'));
  return unitOfWork(ctx, async ({ sql }) => {
    if (!(await lockAdvocate(sql, who, id))) throw notFound('referral');
    const state = await cancelState(sql, id);
    if (!state) throw notFound('referral');
    if (state.status !== 'qualified')
      throw new DomainError(
        'invalid_state',
        `This referral is ${state.status}: only a qualified referral can be cancelled`,
      );
    // The hold's end: the advocate's points are (being) credited, nothing pending is left to claw back.
    if (state.hold_ended)
      throw new DomainError(
        'invalid_state',
        'The hold has ended: the advocate’s points are no longer pending',
      );
    if (state.grant_ids?.length) await settleGrants(sql, 'cancelled', { grantIds: state.grant_ids });
    await markClawedBack(sql, id);
    return presentReferral((await referralById(sql, who, id))!);
  });
}
