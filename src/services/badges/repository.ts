import type { AppContext } from '../../context.ts';
import type { Sql } from '../../db/tx.ts';
import type { Scope } from '../keys/principal.ts';
import { Badge } from './entities.ts';
import type { BadgeDto } from './shapes.ts';

// Raw SQL: `insert … on conflict do update … returning (xmax = 0)` defines a badge and says
// whether it was new in one statement (a flow may create the same key concurrently). Reading the
// catalogue is a cold path through MikroORM; flows award and create badges in the engine's own
// SQL (flows/engine/load.ts, bench suite `engine`).

/** The catalogue of a workspace and mode, by key. */
export function badgesOf(ctx: Pick<AppContext, 'orm'>, who: Scope) {
  return ctx.orm.em
    .fork()
    .find(Badge, { workspace: who.workspaceId, mode: who.mode }, { orderBy: { key: 'asc' } });
}

/** Defines or redefines a badge and says whether it was new (`xmax = 0`: the row was inserted). */
export async function upsertBadge(
  sql: Sql,
  who: Scope,
  b: BadgeDto,
): Promise<BadgeDto & { created: boolean }> {
  const { rows } = await sql.query<BadgeDto & { created: boolean }>(
    `insert into badges as b (workspace_id, mode, key, name, description, image_url, tiers)
     values ($1, $2, $3, $4, $5, $6, $7::jsonb)
     on conflict (workspace_id, mode, key) do update
        set name = excluded.name, description = excluded.description, image_url = excluded.image_url,
            tiers = excluded.tiers
     returning key, name, description, image_url, tiers, (xmax = 0) as created`,
    [who.workspaceId, who.mode, b.key, b.name, b.description, b.image_url, JSON.stringify(b.tiers)],
  );
  return rows[0]!;
}
