import type { Sql } from '../../db/tx.ts';
import { notFound } from '../../errors.ts';
import type { Scope } from '../keys/principal.ts';
import { boardByKey, type LeaderboardRow } from './repository.ts';
import type { LeaderboardDto } from './shapes.ts';

/** The board every workspace has: all-time lifetime points (docs/api.md#participants-points-and-leaderboards). Never stored. */
export const BUILT_IN_KEY = 'points';

export type { LeaderboardDto } from './shapes.ts';

export const BUILT_IN: LeaderboardDto = {
  key: BUILT_IN_KEY,
  name: 'Points',
  period: 'all_time',
  created_at: null,
};

/** A configured board as every door answers it. */
export const presentLeaderboard = (r: LeaderboardRow): LeaderboardDto => ({
  key: r.key,
  name: r.name,
  period: r.period,
  created_at: new Date(r.created_at).toISOString(),
});

/**
 * Every leaderboard read (bench suite `leaderboards`, top-100 and own-rank p99 < 20 ms) starts
 * here, on the request's own `sql`, beside its score queries. Board definitions never change once created (there is no update or delete), so a found one is
 * kept for a minute: a leaderboard read is then one query, not two. Unknown keys are not cached.
 */
const known = new Map<string, { board: LeaderboardDto; until: number }>();
const KNOWN_TTL_MS = 60_000;
const KNOWN_MAX = 10_000;

/** The board with this key (the built-in `points`, or a configured one), else 404. */
export async function findLeaderboard(sql: Sql, who: Scope, key: string): Promise<LeaderboardDto> {
  if (key === BUILT_IN_KEY) return BUILT_IN;
  const cacheKey = `${who.workspaceId}/${who.mode}/${key}`;
  const hit = known.get(cacheKey);
  if (hit && hit.until > Date.now()) return hit.board;
  const row = await boardByKey(sql, who, key);
  if (!row) throw notFound('leaderboard');
  const board = presentLeaderboard(row);
  if (known.size >= KNOWN_MAX) known.clear();
  known.set(cacheKey, { board, until: Date.now() + KNOWN_TTL_MS });
  return board;
}
