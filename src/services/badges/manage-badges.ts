import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Principal } from '../keys/principal.ts';
import { parseInput } from '../validation.ts';

export const defineBadgeInput = z
  .object({
    key: z.string().trim().min(1).max(128),
    name: z.string().trim().min(1).max(200),
    description: z.string().max(2000).nullable().optional(),
    image_url: z
      .url({ protocol: /^https?$/ })
      .max(2000)
      .nullable()
      .optional(),
    tiers: z.array(z.string().min(1).max(64)).max(50).optional(),
  })
  .meta({ id: 'BadgeInput' });

export interface BadgeDto {
  key: string;
  name: string;
  description: string | null;
  image_url: string | null;
  tiers: string[];
}

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
