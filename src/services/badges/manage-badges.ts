import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { TEXT_LIMITS, text } from '../../lib/primitives.ts';
import { forgetAchievements } from '../achievements/catalogue.ts';
import { criteriaInput, storedCriteria } from '../achievements/criteria.ts';
import type { Principal } from '../keys/principal.ts';
import { badgeCatalogue, upsertBadge } from './repository.ts';
import type { BadgeDto, BadgeListItem } from './shapes.ts';

/** Column lengths of `badges.key` and `participant_badges.tier`. */
export const BADGE_KEY_LENGTH = 128;
export const TIER_LENGTH = 64;

export const defineBadgeInput = z
  .strictObject({
    key: text(BADGE_KEY_LENGTH).trim().min(1),
    name: text(TEXT_LIMITS.name).trim().min(1),
    description: text(TEXT_LIMITS.description).nullable().optional(),
    image_url: text(TEXT_LIMITS.description)
      .pipe(z.url({ protocol: /^https?$/ }))
      .nullable()
      .optional(),
    tiers: z
      .array(text(TIER_LENGTH, { min: 1 }))
      .max(50)
      .optional(),
    criteria: criteriaInput
      .nullable()
      .optional()
      .meta({
        description:
          'Makes the badge an achievement, awarded once when a processed event brings a participant to the ' +
          'target (docs/engagement.md#achievements). Absent or null: awarded by flows only.',
      }),
  })
  .superRefine((b, ctx) => {
    const tier = b.criteria?.tier;
    if (tier !== undefined && !(b.tiers ?? []).includes(tier))
      ctx.addIssue({
        code: 'custom',
        path: ['criteria', 'tier'],
        message: `must be one of the badge's tiers (${(b.tiers ?? []).join(', ') || 'it has none'})`,
      });
  })
  .meta({ id: 'BadgeInput' });
export type DefineBadgeInput = z.output<typeof defineBadgeInput>;

/**
 * Defines a badge, or redefines it (same key: name, description, image, tiers and criteria
 * replaced), so a badge a flow created on first use can be given its real name later. Criteria
 * set or changed apply to events processed from then on; participants who already meet them are
 * awarded by a backfill, not here (docs/engagement.md#achievements). Answers whether it was new.
 */
export async function defineBadge(
  ctx: AppContext,
  who: Principal,
  q: DefineBadgeInput,
): Promise<{ badge: BadgeDto; created: boolean }> {
  const { created, ...badge } = await upsertBadge(ctx.pool, who, {
    key: q.key,
    name: q.name,
    description: q.description ?? null,
    image_url: q.image_url ?? null,
    tiers: q.tiers ?? [],
    criteria: q.criteria ? storedCriteria(q.criteria) : null,
  });
  // The engine of this process sees the new criteria on its next batch.
  forgetAchievements(who);
  return { badge, created };
}

/** The badge catalogue of the caller's workspace and mode, by key, with each badge's holders. */
export function listBadges(ctx: AppContext, who: Principal): Promise<BadgeListItem[]> {
  return badgeCatalogue(ctx.pool, who);
}
