import type { Sql } from '../../db/tx.ts';
import type { Scope } from '../keys/principal.ts';
import { type AchievementBadge, achievementBadgesOf } from './repository.ts';

/**
 * How long the engine trusts the criteria badges it read for a workspace and mode: an event batch
 * then costs no round trip for achievements when none is defined. A badge defined in this process
 * is seen at once ({@link forgetAchievements}); one defined in another process within this long.
 * Missing that window loses nothing that counts: progress is read from the events table, so the
 * next matching event (or a backfill) awards a participant who reached the target meanwhile.
 */
export const CATALOGUE_TTL_MS = 5_000;

const scopeKey = (s: Scope) => `${s.workspaceId}/${s.mode}`;
const cached = new Map<string, { badges: AchievementBadge[]; until: number }>();
const MAX_SCOPES = 10_000;
/** Bumped by every forget: a read that began before it must not cache what it saw. */
let generation = 0;

/** The criteria badges of each scope (read once for every scope not fresh in the cache), by scope key. */
export async function achievementCatalogue(
  sql: Sql,
  scopes: Scope[],
  now = Date.now(),
): Promise<Map<string, AchievementBadge[]>> {
  const out = new Map<string, AchievementBadge[]>();
  const missing: Scope[] = [];
  for (const s of scopes) {
    const hit = cached.get(scopeKey(s));
    if (hit && hit.until > now) out.set(scopeKey(s), hit.badges);
    else missing.push(s);
  }
  if (!missing.length) return out;
  const began = generation;
  const read = await achievementBadgesOf(sql, missing);
  if (cached.size + missing.length > MAX_SCOPES) cached.clear();
  for (const s of missing) {
    const badges = read.filter((b) => b.workspaceId === s.workspaceId && b.mode === s.mode);
    if (began === generation) cached.set(scopeKey(s), { badges, until: now + CATALOGUE_TTL_MS });
    out.set(scopeKey(s), badges);
  }
  return out;
}

/** Drops a scope from the cache: its badges' criteria changed in this process. */
export function forgetAchievements(s: Scope): void {
  generation++;
  cached.delete(scopeKey(s));
}
