import type { AppContext } from '../../context.ts';
import type { Sql } from '../../db/tx.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import { uuidv7 } from '../../lib/uuid7.ts';
import type { Mode } from '../keys/principal.ts';
import { emitResults } from '../outbox/emit.ts';
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
  settleReferrals,
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
    await advance(sql, rewards, now);
    return expired + rewards.length;
  });
}

/**
 * The due steps of these qualified referrals, in a fixed number of statements whatever their
 * number (bench suite `engine`, the referrals scenario: a burst qualifies thousands at once):
 * the grants not written yet, then, for those whose hold has ended, the activations with their
 * credits, the advocates' badges, the settled referrals and their `referral.rewarded`.
 */
async function advance(sql: Sql, rewards: DueReward[], now: Date): Promise<void> {
  const actionsOf = (r: DueReward) => (r.settings ? referralProgramFrom(r.settings).advocate_actions : []);
  const written = new Map<string, { grantIds: string[]; statuses: string[] }>();
  const grants: GrantToWrite[] = [];
  for (const r of rewards) {
    if (r.grant_ids !== null) {
      written.set(r.id, { grantIds: r.grant_ids, statuses: r.grant_statuses });
      continue;
    }
    // One grant for all the points: the reward is pending, activated or cancelled as a whole.
    const points = actionsOf(r).reduce((sum, a) => sum + (a.type === 'award_points' ? a.points : 0), 0);
    const grant: GrantToWrite | null =
      points > 0
        ? {
            id: uuidv7(),
            workspaceId: r.workspace_id,
            mode: r.mode,
            participantId: Number(r.advocate_id),
            points,
            availableAt: new Date(r.reward_available_at!),
            eventId: r.qualifying_event_id,
            flowRunId: null,
            idempotencyKey: `referral:${r.id}:advocate`,
          }
        : null;
    if (grant) grants.push(grant);
    written.set(r.id, { grantIds: grant ? [grant.id] : [], statuses: grant ? ['pending'] : [] });
  }
  if (grants.length || rewards.some((r) => r.grant_ids === null)) {
    await writeAwards(sql, { counts: [], grants, moves: [] });
    await setReferralGrants(
      sql,
      rewards
        .filter((r) => r.grant_ids === null)
        .map((r) => ({ id: r.id, grantId: written.get(r.id)!.grantIds[0] ?? null })),
    );
  }

  const ended = rewards.filter((r) => new Date(r.reward_available_at!).getTime() <= now.getTime());
  // A cancelled grant (POST /v1/pending-points/{id}/cancel) claws its referral back: nothing was ever credited.
  const clawed = ended.filter((r) => written.get(r.id)!.statuses.includes('cancelled'));
  const rewarded = ended.filter((r) => !clawed.includes(r));
  await settleReferrals(
    sql,
    clawed.map((r) => r.id),
    'clawed_back',
    now,
  );
  if (!rewarded.length) return;
  await creditGrants(
    sql,
    await settleGrants(sql, 'activated', { grantIds: rewarded.flatMap((r) => written.get(r.id)!.grantIds) }),
    now,
  );
  await awardReferralBadges(
    sql,
    rewarded.flatMap((r) =>
      actionsOf(r).flatMap((a) =>
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
    ),
  );
  const rows = await settleReferrals(
    sql,
    rewarded.map((r) => r.id),
    'rewarded',
    now,
  );
  const scope = new Map(rewarded.map((r) => [r.id, r]));
  await emitResults(
    sql,
    rows.map((row) => ({
      workspaceId: scope.get(row.id)!.workspace_id,
      mode: scope.get(row.id)!.mode as Mode,
      type: 'referral.rewarded' as const,
      data: { referral: presentReferral(row) } satisfies ReferralResultData,
    })),
  );
}

/** Every due referral at `now`, batch after batch until one comes back short. */
export async function runReferralTick(ctx: Pick<AppContext, 'orm'>, now = new Date(), stop = () => false) {
  let total = 0;
  for (let n = DUE_PER_BATCH; n >= DUE_PER_BATCH && !stop(); total += n) n = await runReferralBatch(ctx, now);
  return total;
}
