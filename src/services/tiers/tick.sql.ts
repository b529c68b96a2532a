import type { Sql } from '../../db/tx.ts';

// Raw SQL: the tier job (docs/tiers.md#the-tier-job; bench suite `tiers`). Each step locks a
// batch of participants, then reads their standings in a statement of its own (it sees every
// commit before the locks) and writes them with standing.sql.ts. The due steps take SKIP LOCKED
// locks, so workers share them and never wait on an engine batch; the programme walk holds the
// programme's row and waits for each participant, so no one is skipped.

/**
 * Locks the participants `candidates` (a SELECT of participant ids, `limit` of them at most) names,
 * in id order, skipping those another transaction holds; their ids.
 */
async function lockSkipping(sql: Sql, candidates: string, values: unknown[]): Promise<number[]> {
  const { rows } = await sql.query<{ id: string }>(
    `select p.id from participants p where p.id in (${candidates}) order by p.id for no key update of p skip locked`,
    values,
  );
  return rows.map((r) => Number(r.id));
}

/** Locks up to `limit` participants with rolling-window credits leaving by `now`; their ids. */
export const lockLeavingOwners = (sql: Sql, now: Date, limit: number) =>
  lockSkipping(
    sql,
    'select c.participant_id from tier_credits c where c.leaves_at <= $1 order by c.leaves_at limit $2',
    [now, limit],
  );

/** Takes these (locked) participants' credits leaving by `now` out of the window; points left per participant. */
export async function takeOutLeaving(
  sql: Sql,
  participantIds: number[],
  now: Date,
): Promise<Map<number, number>> {
  const { rows } = await sql.query<{ participant_id: string; points: string }>(
    `with gone as (
       delete from tier_credits where participant_id = any($1::bigint[]) and leaves_at <= $2
       returning participant_id, points)
     select participant_id, sum(points) as points from gone group by participant_id`,
    [participantIds, now],
  );
  return new Map(rows.map((r) => [Number(r.participant_id), Number(r.points)]));
}

/** Locks up to `limit` participants whose downgrade review is due at `now`; their ids. */
export const lockDueReviews = (sql: Sql, now: Date, limit: number) =>
  lockSkipping(
    sql,
    'select q.id from participants q where q.tier_review_at <= $1 order by q.tier_review_at limit $2',
    [now, limit],
  );

/**
 * Locks up to `limit` participants above the first level of a `calendar` programme whose standing
 * counts a period other than `period` (the one that contains now): a period ended for them.
 */
export async function lockStalePeriods(
  sql: Sql,
  workspaceId: string,
  mode: string,
  period: string,
  limit: number,
): Promise<number[]> {
  const { rows } = await sql.query<{ id: string }>(
    `select p.id from participants p
      where p.workspace_id = $1 and p.mode = $2 and p.tier_key is not null and p.tier_period is distinct from $3
      order by p.id limit $4
      for no key update of p skip locked`,
    [workspaceId, mode, period, limit],
  );
  return rows.map((r) => Number(r.id));
}

/** Takes the walk of a programme change (its row, locked; another worker walking it: null). */
export async function lockWalk(
  sql: Sql,
  workspaceId: string,
  mode: string,
): Promise<{ version: number; cursor: string; recount: boolean } | null> {
  const { rows } = await sql.query<{ version: number; cursor: string; recount: boolean }>(
    `select version, cursor, recount from tier_programs
      where workspace_id = $1 and mode = $2 and applied_version < version
        for update skip locked`,
    [workspaceId, mode],
  );
  return rows[0] ?? null;
}

/** Locks the next `limit` participants of the walk after `cursor`, in id order; their ids. */
export async function lockWalkBatch(
  sql: Sql,
  workspaceId: string,
  mode: string,
  cursor: number,
  limit: number,
): Promise<number[]> {
  const { rows } = await sql.query<{ id: string }>(
    `select p.id from participants p
      where p.workspace_id = $1 and p.mode = $2 and p.id > $3
      order by p.id limit $4
      for no key update`,
    [workspaceId, mode, cursor, limit],
  );
  return rows.map((r) => Number(r.id));
}

/** Moves the walk on to `cursor`, or, `done`, marks the version applied. */
export async function advanceWalk(
  sql: Sql,
  workspaceId: string,
  mode: string,
  version: number,
  cursor: number,
  done: boolean,
): Promise<void> {
  await sql.query(
    done
      ? `update tier_programs set applied_version = $3, cursor = 0, recount = false
          where workspace_id = $1 and mode = $2 and version = $3`
      : `update tier_programs set cursor = $4 where workspace_id = $1 and mode = $2 and version = $3`,
    done ? [workspaceId, mode, version] : [workspaceId, mode, version, cursor],
  );
}

/** A qualifying credit as a recount reads it. */
export interface QualifyingCredit {
  participant_id: string;
  id: string;
  points: string;
  created_at: Date;
}

/**
 * The qualifying credits of these participants made since `from` and never reversed (a recount
 * under a new window): flow and positive adjustment credits, by participant and id.
 */
export async function qualifyingCreditsSince(
  sql: Sql,
  participantIds: number[],
  from: Date,
): Promise<QualifyingCredit[]> {
  const { rows } = await sql.query<QualifyingCredit>(
    `select e.participant_id, e.id, e.points, e.created_at from ledger_entries e
      where e.participant_id = any($1::bigint[]) and e.created_at >= $2 and e.points > 0
        and e.source in ('flow', 'adjustment') and e.reverses_entry_id is null
        and not exists (select 1 from ledger_entries r where r.reverses_entry_id = e.id)
      order by e.participant_id, e.id`,
    [participantIds, from],
  );
  return rows;
}

/** Drops these participants' rolling-window credits (a recount rebuilds them, an ended programme has none). */
export async function dropWindowCredits(sql: Sql, participantIds: number[]): Promise<void> {
  await sql.query(`delete from tier_credits where participant_id = any($1::bigint[])`, [participantIds]);
}
