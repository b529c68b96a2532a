import type { Sql } from '../../db/tx.ts';

// Raw SQL: pending grants coming due (the loyalty tick; bench suite `points`). Like the expiry:
// lock the owners SKIP LOCKED, then settle in a statement of its own, so a grant is activated
// once whichever worker (or `POST /v1/pending-points/{id}/activate`) gets there first.

/** Locks up to `limit` participants with grants due at `now`; answers their ids. */
export async function lockDueGrantOwners(sql: Sql, now: Date, limit: number): Promise<number[]> {
  const { rows } = await sql.query<{ id: string }>(
    `select p.id from participants p
      where p.id in (select g.participant_id from pending_grants g
                      where g.status = 'pending' and g.available_at <= $1 order by g.available_at limit $2)
      order by p.id
      for no key update of p skip locked`,
    [now, limit],
  );
  return rows.map((r) => Number(r.id));
}

/** A grant this statement moved out of `pending`. */
export interface SettledGrant {
  id: string;
  workspace_id: string;
  mode: string;
  participant_id: string;
  external_id: string;
  points: string;
}

/**
 * Moves grants out of `pending` (their owners locked) and their points out of the owners'
 * `pending_points`: the due grants of `participantIds`, or exactly `grantIds`. Only rows still
 * pending move, so each is settled once.
 */
export async function settleGrants(
  sql: Sql,
  to: 'activated' | 'cancelled',
  which: { participantIds: number[]; dueAt: Date } | { grantIds: string[] },
): Promise<SettledGrant[]> {
  const byOwner = 'participantIds' in which;
  const { rows } = await sql.query<SettledGrant>(
    `with settled as (
       update pending_grants g set status = $1, settled_at = now()
        where g.status = 'pending'
          and ${byOwner ? 'g.participant_id = any($2::bigint[]) and g.available_at <= $3' : 'g.id = any($2::uuid[])'}
       returning g.id, g.workspace_id, g.mode, g.participant_id, g.points
     ), owners as (
       update participants p set pending_points = p.pending_points - t.points, updated_at = now()
         from (select participant_id, sum(points) as points from settled group by participant_id) t
        where p.id = t.participant_id
       returning p.id, p.external_id
     )
     select s.id, s.workspace_id, s.mode, s.participant_id, o.external_id, s.points
       from settled s join owners o on o.id = s.participant_id
      order by s.participant_id, s.id`,
    byOwner ? [to, which.participantIds, which.dueAt] : [to, which.grantIds],
  );
  return rows;
}

/** Records the credit each activated grant posted. */
export async function setGrantEntries(
  sql: Sql,
  entries: { grantId: string; entryId: number }[],
): Promise<void> {
  if (!entries.length) return;
  await sql.query(
    `update pending_grants g set entry_id = e.entry_id
       from unnest($1::uuid[], $2::bigint[]) as e(id, entry_id) where g.id = e.id`,
    [entries.map((e) => e.grantId), entries.map((e) => e.entryId)],
  );
}
