import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { TEXT_LIMITS, text } from '../../lib/primitives.ts';
import type { Principal } from '../keys/principal.ts';
import { badgesOf, upsertBadge } from './repository.ts';
import type { BadgeDto } from './shapes.ts';

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
  })
  .meta({ id: 'BadgeInput' });
export type DefineBadgeInput = z.output<typeof defineBadgeInput>;

/**
 * Defines a badge, or redefines it (same key: name, description, image and tiers replaced), so
 * a badge a flow created on first use can be given its real name later. Answers whether it was new.
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
  });
  return { badge, created };
}

/** The badge catalogue of the caller's workspace and mode, by key. */
export async function listBadges(ctx: AppContext, who: Principal): Promise<BadgeDto[]> {
  const badges = await badgesOf(ctx, who);
  return badges.map((b) => ({
    key: b.key,
    name: b.name,
    description: b.description ?? null,
    image_url: b.imageUrl ?? null,
    tiers: b.tiers ?? [],
  }));
}
