import type { AppContext } from '../../context.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import { runInactivityTick } from '../inactivity/tick.ts';
import type { Mode } from '../keys/principal.ts';
import { emitResults } from '../outbox/emit.ts';
import { runReferralTick } from '../referrals/tick.ts';
import { runStreakTick } from '../streaks/tick.ts';
import { runTierTick } from '../tiers/tick.ts';
import { lockDueGrantOwners, settleGrants } from './activate.sql.ts';
import { expireLotsOf, lockDueOwners, markNotices } from './expire.sql.ts';
import { creditGrants } from './pending-points.ts';
import type { PointsExpiringData } from './shapes.ts';

/** Due lots (or grants) whose owners one transaction locks; lots per notice transaction. */
const DUE_PER_BATCH = 2000;
const NOTICES_PER_BATCH = 2000;

/**
 * One batch of due expiries (docs/points.md#expiry): lock the owners of up to `limit` due lots,
 * then empty every due lot of theirs with its entry and `points.changed` (live subscribers see
 * the entries through the ledger's trigger). Answers how many lots it expired.
 */
export function expireDueLots(
  ctx: Pick<AppContext, 'orm'>,
  now: Date,
  limit = DUE_PER_BATCH,
): Promise<number> {
  return unitOfWork(ctx, async ({ sql }) => {
    const owners = await lockDueOwners(sql, now, limit);
    if (!owners.length) return 0;
    return expireLotsOf(sql, owners, now);
  });
}

/** One batch of pending grants coming due (docs/points.md#pending-points); answers how many it activated. */
export function activateDueGrants(
  ctx: Pick<AppContext, 'orm'>,
  now: Date,
  limit = DUE_PER_BATCH,
): Promise<number> {
  return unitOfWork(ctx, async ({ sql }) => {
    const owners = await lockDueGrantOwners(sql, now, limit);
    if (!owners.length) return 0;
    const grants = await settleGrants(sql, 'activated', { participantIds: owners, dueAt: now });
    await creditGrants(sql, grants, now);
    return grants.length;
  });
}

/** One batch of `points.expiring` notices, one per lot (docs/points.md#expiry). */
export function announceExpiringLots(
  ctx: Pick<AppContext, 'orm'>,
  now: Date,
  limit = NOTICES_PER_BATCH,
): Promise<number> {
  return unitOfWork(ctx, async ({ sql }) => {
    const lots = await markNotices(sql, now, limit);
    await emitResults(
      sql,
      lots.map((l) => {
        const data: PointsExpiringData = {
          participant: { external_id: l.external_id },
          points: Number(l.remaining),
          expires_at: l.expires_at.toISOString(),
          balance: Number(l.balance),
        };
        return { workspaceId: l.workspace_id, mode: l.mode as Mode, type: 'points.expiring' as const, data };
      }),
    );
    return lots.length;
  });
}

/** Everything due at `now`, batch after batch until a batch comes back short. */
export async function runLoyaltyTick(ctx: Pick<AppContext, 'orm'>, now = new Date(), stop = () => false) {
  const drain = async (step: (n: Date) => Promise<number>, full: number) => {
    let total = 0;
    for (let n = full; n >= full && !stop(); total += n) n = await step(now);
    return total;
  };
  return {
    activated: await drain((n) => activateDueGrants(ctx, n), DUE_PER_BATCH),
    expired: await drain((n) => expireDueLots(ctx, n), DUE_PER_BATCH),
    announced: await drain((n) => announceExpiringLots(ctx, n), NOTICES_PER_BATCH),
    tiers: await runTierTick(ctx, now, stop),
    streaks: await runStreakTick(ctx, now, stop),
    inactivity: await runInactivityTick(ctx, now, stop),
    referrals: await runReferralTick(ctx, now, stop),
  };
}

/**
 * Runs the tick every `LOYALTY_TICK_SECONDS` on every worker process; the locks (SKIP LOCKED)
 * share the work and keep each lot and grant to one of them. The returned stop waits for a tick
 * in flight.
 */
export function startLoyaltyTicker(ctx: AppContext): () => Promise<void> {
  const intervalMs = ctx.config.LOYALTY_TICK_SECONDS * 1000;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> = Promise.resolve();
  const ending = () => stopped || Boolean((ctx.pool as { ending?: boolean }).ending);
  const tick = async () => {
    if (ending()) return;
    try {
      await runLoyaltyTick(ctx, new Date(), ending);
    } catch (err) {
      ctx.log.warn({ err }, 'loyalty tick failed; the next tick retries');
    }
    if (!stopped) {
      timer = setTimeout(() => {
        inFlight = tick();
      }, intervalMs);
      timer.unref();
    }
  };
  timer = setTimeout(() => {
    inFlight = tick();
  }, intervalMs);
  timer.unref();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await inFlight;
  };
}
