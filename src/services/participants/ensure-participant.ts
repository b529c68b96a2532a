import type { Sql } from '../../db/tx.ts';
import type { Mode } from '../keys/principal.ts';

// Raw SQL: `insert … on conflict … returning` in one statement, on the pg client of adjust-points' ledger
// transaction (bench suite `leaderboards`: POST …/points).

export interface EnsuredParticipant {
  id: number;
  externalId: string;
}

/**
 * Finds the participant, creating it when unknown (SPEC 1: the first reference creates it).
 * Known participants (the common case) cost one SELECT. The insert never overwrites anything; a
 * concurrent creator makes ours wait for it and then do nothing, and the second SELECT sees its
 * committed row (read committed), so both callers get the same id.
 */
export async function ensureParticipant(
  sql: Sql,
  p: { workspaceId: string; mode: Mode; externalId: string },
): Promise<EnsuredParticipant> {
  const find = async () =>
    (
      await sql.query<{ id: string }>(
        `select id from participants where workspace_id = $1 and mode = $2 and external_id = $3`,
        [p.workspaceId, p.mode, p.externalId],
      )
    ).rows[0];
  const found = await find();
  if (found) return { id: Number(found.id), externalId: p.externalId };
  const inserted = await sql.query<{ id: string }>(
    `insert into participants (workspace_id, mode, external_id) values ($1, $2, $3)
     on conflict (workspace_id, mode, external_id) do nothing
     returning id`,
    [p.workspaceId, p.mode, p.externalId],
  );
  const row = inserted.rows[0] ?? (await find());
  if (!row) throw new Error(`participant ${p.externalId} vanished while being ensured`);
  return { id: Number(row.id), externalId: p.externalId };
}
