import type { EntityManager } from '@mikro-orm/postgresql';
import type { Sql } from '../../db/tx.ts';
import type { Scope } from '../keys/principal.ts';
import { Badge } from './entities.ts';

/**
 * The badge catalogue's queries. Reading is a cold path (MikroORM over the caller's forked `em`);
 * flows award and create badges in the engine's own SQL (flows/engine/load.ts, bench suite `engine`).
 */

export interface BadgeRow {
  key: string;
  name: string;
  description: string | null;
  image_url: string | null;
  tiers: string[];
}

/** The catalogue of a workspace and mode, by key. */
export function badgesOf(em: EntityManager, who: Scope) {
  return em.find(Badge, { workspace: who.workspaceId, mode: who.mode }, { orderBy: { key: 'asc' } });
}

/**
 * Defines or redefines a badge and says whether it was new. Raw SQL for two Postgres features in
 * one statement: `insert … on conflict do update` (a flow may create the same key concurrently)
 * and `xmax = 0` in `returning`, which tells an inserted row from an updated one.
 */
export async function upsertBadge(
  sql: Sql,
  who: Scope,
  b: BadgeRow,
): Promise<BadgeRow & { created: boolean }> {
  const { rows } = await sql.query<BadgeRow & { created: boolean }>(
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
