import type { AppContext } from '../../context.ts';
import type { Scope } from '../keys/principal.ts';
import { BUILT_IN, type LeaderboardDto, presentLeaderboard } from './boards.ts';
import { configuredBoards } from './repository.ts';

/** `GET /v1/leaderboards` (any key): the built-in `points` board and the configured ones. */
export async function listLeaderboards(ctx: AppContext, who: Scope): Promise<{ data: LeaderboardDto[] }> {
  const boards = await configuredBoards(ctx.orm, who);
  return { data: [BUILT_IN, ...boards.map(presentLeaderboard)] };
}
