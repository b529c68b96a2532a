import type { Sql } from '../../db/tx.ts';
import { type ReferralRow, referralColumns } from './present.ts';

// Raw SQL: the referral job (the loyalty tick; docs/referrals.md#the-referral-job). Like the other
// jobs of the tick: lock the participants concerned SKIP LOCKED, in id order, then look again under
// the locks, so each referral moves once whichever worker gets there.

/** Due referrals' participants to lock: a pending one's friend, a qualified one's advocate. */
export async function dueReferralOwners(
  sql: Sql,
  now: Date,
  limit: number,
): Promise<{ friends: number[]; advocates: number[] }> {
  const { rows } = await sql.query<{ status: string; owner: string }>(
    `select status, case when status = 'pending' then friend_id else advocate_id end as owner
       from referrals where due_at <= $1 order by due_at limit $2`,
    [now, limit],
  );
  const of = (status: string) => [
    ...new Set(rows.filter((r) => r.status === status).map((r) => Number(r.owner))),
  ];
  return { friends: of('pending'), advocates: of('qualified') };
}

/** Locks these participants in id order, skipping those another transaction holds. */
export async function lockOwners(sql: Sql, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  const { rows } = await sql.query<{ id: string }>(
    `select id from participants where id = any($1::bigint[]) order by id for no key update skip locked`,
    [ids],
  );
  return rows.map((r) => Number(r.id));
}

/** Expires the pending referrals of these (locked) friends whose window ended by `now`. */
export async function expireReferrals(sql: Sql, friendIds: number[], now: Date): Promise<number> {
  if (!friendIds.length) return 0;
  const { rowCount } = await sql.query(
    `update referrals set status = 'expired', due_at = null
      where friend_id = any($1::bigint[]) and status = 'pending' and expires_at <= $2`,
    [friendIds, now],
  );
  return rowCount ?? 0;
}

/** A qualified referral of a locked advocate whose next step is due. */
export interface DueReward extends ReferralRow {
  workspace_id: string;
  mode: string;
  advocate_id: string;
  qualifying_event_id: string | null;
  grant_ids: string[] | null;
  settings: Record<string, unknown> | null;
  /** The statuses of its grants, in `grant_ids` order. */
  grant_statuses: string[];
}

/** The due qualified referrals of these (locked) advocates, with their programme and grants. */
export async function dueRewards(sql: Sql, advocateIds: number[], now: Date): Promise<DueReward[]> {
  if (!advocateIds.length) return [];
  const { rows } = await sql.query<DueReward>(
    `select ${referralColumns()}, r.workspace_id, r.mode, r.advocate_id::text, r.qualifying_event_id, r.grant_ids,
            rp.settings,
            coalesce((select array_agg(g.status order by g.id) from pending_grants g where g.id = any(r.grant_ids)), '{}') as grant_statuses
       from referrals r
       join participants a on a.id = r.advocate_id
       join participants f on f.id = r.friend_id
       left join referral_programs rp on rp.workspace_id = r.workspace_id and rp.mode = r.mode
      where r.advocate_id = any($1::bigint[]) and r.status = 'qualified' and r.due_at <= $2
      order by r.advocate_id, r.id`,
    [advocateIds, now],
  );
  return rows;
}

/** Records each referral's advocate grant (none: no points), and when it is due next (the hold's end). */
export async function setReferralGrants(
  sql: Sql,
  grants: { id: string; grantId: string | null }[],
): Promise<void> {
  if (!grants.length) return;
  await sql.query(
    `update referrals r
        set grant_ids = case when g.grant_id is null then '{}'::uuid[] else array[g.grant_id] end,
            due_at = r.reward_available_at
       from unnest($1::uuid[], $2::uuid[]) as g(id, grant_id)
      where r.id = g.id`,
    [grants.map((g) => g.id), grants.map((g) => g.grantId)],
  );
}

/** Ends these referrals' lifecycles: `rewarded` or `clawed_back`, at `now`; answers them as they are then. */
export async function settleReferrals(
  sql: Sql,
  ids: string[],
  to: 'rewarded' | 'clawed_back',
  now: Date,
): Promise<ReferralRow[]> {
  if (!ids.length) return [];
  const { rows } = await sql.query<ReferralRow>(
    `with settled as (
       update referrals set status = $2::text, due_at = null,
              rewarded_at = case when $2::text = 'rewarded' then $3::timestamptz end,
              clawed_back_at = case when $2::text = 'clawed_back' then $3::timestamptz end
        where id = any($1::uuid[])
       returning *
     )
     select ${referralColumns()} from settled r
       join participants a on a.id = r.advocate_id join participants f on f.id = r.friend_id
      order by r.id`,
    [ids, to, now],
  );
  return rows;
}
