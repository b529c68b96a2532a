import type { Sql } from '../../db/tx.ts';
import type { Mode, Scope } from '../keys/principal.ts';
import { type Criteria, criteriaOf } from './criteria.ts';

// Raw SQL: the criteria badges are read by the engine's achievements mechanic (bench suite
// `engine`), through the partial index badges_criteria_idx (workspace_id, mode, event type).

/** A badge with criteria: an achievement. */
export interface AchievementBadge {
  id: number;
  workspaceId: string;
  mode: Mode;
  key: string;
  name: string;
  criteria: Criteria;
}

interface Row {
  id: string;
  workspace_id: string;
  mode: Mode;
  key: string;
  name: string;
  criteria: unknown;
}

const toBadge = (r: Row): AchievementBadge => ({
  id: Number(r.id),
  workspaceId: r.workspace_id,
  mode: r.mode,
  key: r.key,
  name: r.name,
  criteria: criteriaOf(r.criteria)!,
});

/** Every badge with criteria of these workspaces and modes, by key. */
export async function achievementBadgesOf(sql: Sql, scopes: Scope[]): Promise<AchievementBadge[]> {
  if (!scopes.length) return [];
  const { rows } = await sql.query<Row>({
    name: 'achievements_badges_of',
    text: `select b.id, b.workspace_id, b.mode, b.key, b.name, b.criteria
             from badges b
             join unnest($1::uuid[], $2::text[]) as s(w, m) on b.workspace_id = s.w and b.mode = s.m
            where b.criteria is not null
            order by b.workspace_id, b.mode, b.key`,
    values: [scopes.map((s) => s.workspaceId), scopes.map((s) => s.mode)],
  });
  return rows.map(toBadge);
}

/** The badge with this key in the scope (with or without criteria), or null. */
export async function badgeByKey(
  sql: Sql,
  who: Scope,
  key: string,
): Promise<(Omit<AchievementBadge, 'criteria'> & { criteria: Criteria | null }) | null> {
  const { rows } = await sql.query<Row>(
    `select id, workspace_id, mode, key, name, criteria from badges where workspace_id = $1 and mode = $2 and key = $3`,
    [who.workspaceId, who.mode, key],
  );
  const r = rows[0];
  return r ? { ...toBadge({ ...r, criteria: null }), criteria: criteriaOf(r.criteria) } : null;
}

/** The badge with this id in the scope, when it has criteria; null otherwise. */
export async function badgeById(sql: Sql, q: Scope & { badgeId: number }): Promise<AchievementBadge | null> {
  const { rows } = await sql.query<Row>(
    `select id, workspace_id, mode, key, name, criteria from badges
      where id = $1 and workspace_id = $2 and mode = $3 and criteria is not null`,
    [q.badgeId, q.workspaceId, q.mode],
  );
  return rows[0] ? toBadge(rows[0]) : null;
}
