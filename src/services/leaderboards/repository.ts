import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Sql } from '../../db/tx.ts';
import type { Scope } from '../keys/principal.ts';
import { Leaderboard } from './entities.ts';
import type { Period } from './periods.ts';

// Raw SQL: every leaderboard read (bench suite `leaderboards`, p99 < 20 ms) looks its board up on the
// request's raw pool, beside its score queries (scores.sql.ts, histogram.sql.ts).

/**
 * Board definitions: created and listed through MikroORM (cold paths), looked up by key in raw
 * SQL for the reads. Scores and ranks are in scores.sql.ts, histogram.sql.ts and
 * record-earnings.sql.ts.
 */

const scoped = (who: Scope) => ({ workspace: who.workspaceId, mode: who.mode });

/** A board as boards.ts presents it. */
export interface LeaderboardRow {
  key: string;
  name: string;
  period: Period;
  created_at: Date;
}

/** The configured boards of a workspace and mode, by key. */
export async function configuredBoards(orm: MikroORM, who: Scope): Promise<LeaderboardRow[]> {
  const boards = await orm.em.fork().find(Leaderboard, scoped(who), { orderBy: { key: 'asc' } });
  return boards.map(boardRow);
}

/** A new board, written at once in the caller's unit of work (a taken key fails with the unique violation). */
export async function insertBoard(
  em: EntityManager,
  who: Scope,
  data: { key: string; name: string; period: Period },
): Promise<LeaderboardRow> {
  const board = em.create(Leaderboard, { ...scoped(who), ...data });
  await em.flush();
  return boardRow(board);
}

/** The configured board with this key, or nothing. */
export async function boardByKey(sql: Sql, who: Scope, key: string): Promise<LeaderboardRow | undefined> {
  const { rows } = await sql.query<LeaderboardRow>(
    `select key, name, period, created_at from leaderboards where workspace_id = $1 and mode = $2 and key = $3`,
    [who.workspaceId, who.mode, key],
  );
  return rows[0];
}

const boardRow = (b: Leaderboard): LeaderboardRow => ({
  key: b.key,
  name: b.name,
  period: b.period as Period,
  created_at: b.createdAt,
});
