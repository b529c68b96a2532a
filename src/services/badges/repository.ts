import type { Sql } from '../../db/tx.ts';
import type { Criteria } from '../achievements/criteria.ts';
import type { Scope } from '../keys/principal.ts';
import type { BadgeDto, BadgeListItem } from './shapes.ts';

// Raw SQL: `insert … on conflict do update … returning (xmax = 0)` defines a badge and says
// whether it was new in one statement (a flow may create the same key concurrently); the catalogue
// with each badge's holders is one statement too (holders through participant_badges_badge_idx,
// participants through their (workspace_id, mode, id) index). Flows award and create badges in the
// engine's own SQL (flows/engine/load.ts, bench suite `engine`).

/** A badge row as the catalogue reads it. */
interface CatalogueRow {
  key: string;
  name: string;
  description: string | null;
  image_url: string | null;
  tiers: string[] | null;
  criteria: Criteria | null;
  holders_count: string;
  holders_percent: string;
}

/**
 * The catalogue of a workspace and mode, by key, with each badge's distinct holders (any tier) and
 * their share of the scope's participants (0 with none), rounded to 2 decimals.
 */
export async function badgeCatalogue(sql: Sql, who: Scope): Promise<BadgeListItem[]> {
  const { rows } = await sql.query<CatalogueRow>(
    `with everyone as (
       select count(*) as n from participants where workspace_id = $1 and mode = $2
     )
     select b.key, b.name, b.description, b.image_url, b.tiers, b.criteria, h.n as holders_count,
            case when e.n = 0 then 0 else round(h.n * 100.0 / e.n, 2) end as holders_percent
       from badges b
       cross join everyone e
       cross join lateral (select count(distinct pb.participant_id) as n from participant_badges pb
                            where pb.badge_id = b.id) h
      where b.workspace_id = $1 and b.mode = $2
      order by b.key`,
    [who.workspaceId, who.mode],
  );
  return rows.map((r) => ({
    key: r.key,
    name: r.name,
    description: r.description,
    image_url: r.image_url,
    tiers: r.tiers ?? [],
    criteria: r.criteria,
    holders_count: Number(r.holders_count),
    holders_percent: Number(r.holders_percent),
  }));
}

/** Defines or redefines a badge and says whether it was new (`xmax = 0`: the row was inserted). */
export async function upsertBadge(
  sql: Sql,
  who: Scope,
  b: BadgeDto,
): Promise<BadgeDto & { created: boolean }> {
  const { rows } = await sql.query<BadgeDto & { created: boolean }>(
    `insert into badges as b (workspace_id, mode, key, name, description, image_url, tiers, criteria)
     values ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb)
     on conflict (workspace_id, mode, key) do update
        set name = excluded.name, description = excluded.description, image_url = excluded.image_url,
            tiers = excluded.tiers, criteria = excluded.criteria
     returning key, name, description, image_url, tiers, criteria, (xmax = 0) as created`,
    [
      who.workspaceId,
      who.mode,
      b.key,
      b.name,
      b.description,
      b.image_url,
      JSON.stringify(b.tiers),
      b.criteria === null ? null : JSON.stringify(b.criteria),
    ],
  );
  return rows[0]!;
}
