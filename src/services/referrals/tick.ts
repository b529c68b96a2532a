import type { AppContext } from '../../context.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import { uuidv7 } from '../../lib/uuid7.ts';
import type { Mode } from '../keys/principal.ts';
import { emitResults, type ResultToEmit } from '../outbox/emit.ts';
import type { ReferralResultData } from '../outbox/result-shapes.ts';
import { settleGrants } from '../points/activate.sql.ts';
import { type GrantToWrite, writeAwards } from '../points/award.sql.ts';
import { creditGrants } from '../points/pending-points.ts';
import { awardReferralBadges } from './award.sql.ts';
import { presentReferral } from './present.ts';
import { referralProgramFrom } from './settings.ts';
import {
  type DueReward,
  dueReferralOwners,
  dueRewards,
  expireReferrals,
  lockOwners,
  setReferralGrants,
  settleReferral,
} from './tick.sql.ts';

/** Due referrals one transaction looks at. */
const DUE_PER_BATCH = 1000;

/**
 * One batch of the referral job (docs/referrals.md#the-referral-job), in one transaction: pending
 * referrals whose window ended become `expired` (under their friends' locks, so an event being
 * processed for the friend is not overtaken); for qualified ones, under their advocates' locks,
 * the advocate's points are written as one pending grant available at the hold's end, and at the
 * hold's end the grant is activated (unless the pending-points job did it first), the advocate's
 * badges awarded and the referral `rewarded` with `referral.rewarded` — or `clawed_back` if its
 * grant was cancelled meanwhile. Participants another transaction holds are looked at next time. Answers
 * how many referrals it looked at.
 */
export function runReferralBatch(
  ctx: Pick<AppContext, 'orm'>,
  now: Date,
  limit = DUE_PER_BATCH,
): Promise<number> {
  return unitOfWork(ctx, async ({ sql }) => {
    const due = await dueReferralOwners(sql, now, limit);
    // Friends and advocates in one id-ordered lock, as the engine takes its participants.
    const locked = new Set(await lockOwners(sql, [...new Set([...due.friends, ...due.advocates])]));
    const expired = await expireReferrals(
      sql,
      due.friends.filter((id) => locked.has(id)),
      now,
    );
    const rewards = await dueRewards(
      sql,
      due.advocates.filter((id) => locked.has(id)),
      now,
    );
    const results: ResultToEmit[] = [];
    for (const r of rewards) {
      const settled = await advance(sql, r, now);
      if (settled) results.push(settled);
    }
    await emitResults(sql, results);
    return expired + rewards.length;
  });
}

/** One qualified referral's due step; answers its `referral.rewarded` when it was rewarded. */
async function advance(
  sql: Parameters<typeof writeAwards>[0],
  r: DueReward,
  now: Date,
): Promise<ResultToEmit | null> {
  const settings = r.settings ? referralProgramFrom(r.settings) : null;
  const actions = settings?.advocate_actions ?? [];
  let grantIds = r.grant_ids;
  let statuses = r.grant_statuses;
  if (grantIds === null) {
    // One grant for all the points: the reward is pending, activated or cancelled as a whole.
    const points = actions.reduce((sum, a) => sum + (a.type === 'award_points' ? a.points : 0), 0);
    const grants: GrantToWrite[] =
      points > 0
        ? [
            {
              id: uuidv7(),
              workspaceId: r.workspace_id,
              mode: r.mode,
              participantId: Number(r.advocate_id),
              points,
              availableAt: new Date(r.reward_available_at!),
              eventId: r.qualifying_event_id,
              flowRunId: null,
              idempotencyKey: `referral:${r.id}:advocate`,
            },
          ]
        : [];
    await writeAwards(sql, { counts: [], grants, moves: [] });
    grantIds = grants.map((g) => g.id);
    statuses = grants.map(() => 'pending');
    await setReferralGrants(sql, r.id, grantIds);
  }
  if (new Date(r.reward_available_at!).getTime() > now.getTime()) return null;
  if (statuses.includes('cancelled')) {
    // Its grant was cancelled (POST /v1/pending-points/{id}/cancel): nothing was ever credited.
    await settleReferral(sql, r.id, 'clawed_back', now);
    return null;
  }
  await creditGrants(sql, await settleGrants(sql, 'activated', { grantIds }), now);
  await awardReferralBadges(
    sql,
    actions.flatMap((a) =>
      a.type === 'award_badge'
        ? [
            {
              workspaceId: r.workspace_id,
              mode: r.mode,
              participantId: Number(r.advocate_id),
              referralId: r.id,
              key: a.badge,
              tier: a.tier ?? '',
            },
          ]
        : [],
    ),
  );
  const row = await settleReferral(sql, r.id, 'rewarded', now);
  return {
    workspaceId: r.workspace_id,
    mode: r.mode as Mode,
    type: 'referral.rewarded',
    data: { referral: presentReferral(row) } satisfies ReferralResultData,
  };
}

/** Every due referral at `now`, batch after batch until one comes back short. */
export async function runReferralTick(ctx: Pick<AppContext, 'orm'>, now = new Date(), stop = () => false) {
  let total = 0;
  for (let n = DUE_PER_BATCH; n >= DUE_PER_BATCH && !stop(); total += n) n = await runReferralBatch(ctx, now);
  return total;
}
