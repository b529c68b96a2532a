import type { EntityManager } from '@mikro-orm/postgresql';
import type { Scope } from '../keys/principal.ts';
import { Leaderboard } from './entities.ts';
import type { Period } from './periods.ts';

/**
 * Board definitions' CRUD: cold paths, so MikroORM over the caller's forked `em`. Reading scores
 * and ranks keeps its SQL (boards.ts' cached `findLeaderboard`, read-leaderboard.ts,
 * histogram.ts, record-earnings.ts) for the bench suite `leaderboards`.
 */

const scoped = (who: Scope) => ({ workspace: who.workspaceId, mode: who.mode });

/** The configured boards of a workspace and mode, by key. */
export function configuredBoards(em: EntityManager, who: Scope) {
  return em.find(Leaderboard, scoped(who), { orderBy: { key: 'asc' } });
}

/** A new board, written at once (a taken key fails with the unique violation). */
export async function insertBoard(
  em: EntityManager,
  who: Scope,
  data: { key: string; name: string; period: Period },
): Promise<Leaderboard> {
  const board = em.create(Leaderboard, { ...scoped(who), ...data });
  await em.flush();
  return board;
}

/** The shape boards.ts presents. */
export const boardRow = (b: Leaderboard) => ({
  key: b.key,
  name: b.name,
  period: b.period as Period,
  created_at: b.createdAt,
});
