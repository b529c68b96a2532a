import type { AppContext } from '../../context.ts';
import type { Scope } from '../keys/principal.ts';
import { type LeaderboardDto, listLeaderboardRows } from './boards.ts';

/** `GET /v1/leaderboards` (any key): the built-in `points` board and the configured ones. */
export async function listLeaderboards(ctx: AppContext, who: Scope): Promise<{ data: LeaderboardDto[] }> {
  return { data: await listLeaderboardRows(ctx.pool, who) };
}
