import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { TEXT_LIMITS, text } from '../../lib/primitives.ts';
import type { Principal } from '../keys/principal.ts';
import { parseInput } from '../validation.ts';
import type { BadgeDto } from './shapes.ts';

/** Column lengths of `badges.key` and `participant_badges.tier`. */
export const BADGE_KEY_LENGTH = 128;
export const TIER_LENGTH = 64;

export const defineBadgeInput = z
  .object({
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

export type { BadgeDto } from './shapes.ts';

interface BadgeRow {
  key: string;
  name: string;
  description: string | null;
  image_url: string | null;
  tiers: string[];
}

const present = (r: BadgeRow): BadgeDto => ({
  key: r.key,
  name: r.name,
  description: r.description,
  image_url: r.image_url,
  tiers: r.tiers ?? [],
});

/**
 * Defines a badge, or redefines it (same key: name, description, image and tiers replaced), so
 * a badge a flow created on first use can be given its real name later. Answers whether it was new.
 */
export async function defineBadge(
  ctx: AppContext,
  who: Principal,
  input: unknown,
): Promise<{ badge: BadgeDto; created: boolean }> {
  const q = parseInput(defineBadgeInput, input);
  const { rows } = await ctx.pool.query<BadgeRow & { created: boolean }>(
    `insert into badges as b (workspace_id, mode, key, name, description, image_url, tiers)
     values ($1, $2, $3, $4, $5, $6, $7::jsonb)
     on conflict (workspace_id, mode, key) do update
        set name = excluded.name, description = excluded.description, image_url = excluded.image_url,
            tiers = excluded.tiers
     returning key, name, description, image_url, tiers, (xmax = 0) as created`,
    [
      who.workspaceId,
      who.mode,
      q.key,
      q.name,
      q.description ?? null,
      q.image_url ?? null,
      JSON.stringify(q.tiers ?? []),
    ],
  );
  return { badge: present(rows[0]!), created: rows[0]!.created };
}

/** The badge catalogue of the caller's workspace and mode, by key. */
export async function listBadges(ctx: AppContext, who: Principal): Promise<BadgeDto[]> {
  const { rows } = await ctx.pool.query<BadgeRow>(
    `select key, name, description, image_url, tiers from badges where workspace_id = $1 and mode = $2 order by key`,
    [who.workspaceId, who.mode],
  );
  return rows.map(present);
}
