import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { isoTimeOrNull } from '../../lib/iso-time.ts';
import type { Scope } from '../keys/principal.ts';
import { windowStart } from './criteria.ts';
import { progressOfMany } from './progress.sql.ts';
import { type AchievementBadge, achievementBadgesOf } from './repository.ts';
import type { AchievementDto, AchievementList } from './shapes.ts';

/** min(100, floor(progress × 100 / target)), and 100 once completed. */
export const percentOf = (progress: number, target: number, completed: boolean): number =>
  completed ? 100 : Math.max(0, Math.min(100, Math.floor((progress * 100) / target)));

/** One achievement as the read shows it. */
export const presentAchievement = (
  b: AchievementBadge,
  p: { progress: number; completedAt: Date | null },
): AchievementDto => ({
  badge: { key: b.key, tier: b.criteria.tier, name: b.name },
  progress: p.progress,
  target: b.criteria.target,
  percent: percentOf(p.progress, b.criteria.target, p.completedAt !== null),
  completed_at: isoTimeOrNull(p.completedAt),
});

/**
 * `GET /v1/participants/{external_id}/achievements`: every badge with criteria, by key, with the
 * participant's progress counted now from their processed events (window ending now) and when they
 * completed it. 404 for an unknown participant.
 */
export async function participantAchievements(
  ctx: Pick<AppContext, 'pool'>,
  who: Scope,
  externalId: string,
  now: Date = new Date(),
): Promise<AchievementList> {
  const [one] = await achievementsOfMany(ctx, who, [externalId], now);
  if (one instanceof Error) throw one;
  return { data: one! };
}

/**
 * {@link participantAchievements} for many participants (GraphQL's nested `achievements` of a
 * list), in two statements whatever their number: per external id, in order, the list or the 404
 * the single read would throw.
 */
export async function achievementsOfMany(
  ctx: Pick<AppContext, 'pool'>,
  who: Scope,
  externalIds: readonly string[],
  now: Date = new Date(),
): Promise<(AchievementDto[] | Error)[]> {
  const badges = await achievementBadgesOf(ctx.pool, [who]);
  const asks = badges.map((b) => ({
    badgeId: b.id,
    criteria: b.criteria,
    since: windowStart(b.criteria, now),
  }));
  const found = new Map(
    (await progressOfMany(ctx.pool, who, externalIds, asks, now)).map((r) => [
      r.externalId,
      badges.map((b, i) => presentAchievement(b, r.values[i]!)),
    ]),
  );
  return externalIds.map((id) => found.get(id) ?? notFound('participant'));
}
