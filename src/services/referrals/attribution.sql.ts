import type { Sql } from '../../db/tx.ts';

// Raw SQL: the engine's referral statements (bench suite `engine`): none in a batch without a
// referral code or a qualification, one read and one write in a batch with them.

/** A code the batch's events carry, with its advocate and their referrals counted toward the limit. */
export interface CodeRow {
  workspace_id: string;
  mode: string;
  code: string;
  advocate_id: string;
  advocate_external_id: string;
  email: string | null;
  phone: string | null;
  /** The advocate's referrals (not blocked) made since the limit period's start; 0 without a limit. */
  counted: number;
}

/**
 * The codes asked for (unknown ones are absent) and which of `friendIds` already are a friend in a
 * referral. Under an advocate limit (an ask with `since`) the code rows are locked, so that
 * concurrent batches count an advocate's referrals one after the other (the limit is exact);
 * without one, batches carrying the same code do not wait on each other. Called after the
 * batch's participant locks; code rows are locked in code order, so two batches never wait on
 * each other in a cycle.
 */
export async function lookupCodes(
  sql: Sql,
  asks: { workspaceId: string; mode: string; code: string; since: Date | null }[],
  friendIds: number[],
): Promise<{ codes: CodeRow[]; referred: string[] }> {
  const { rows } = await sql.query<{ codes: CodeRow[]; referred: string[] }>(
    `with ask as (
       select * from unnest($1::uuid[], $2::text[], $3::text[], $4::timestamptz[]) as k(workspace_id, mode, code, since)
     ), locked as materialized (
       select c.workspace_id, c.mode, c.code, c.participant_id, k.since
         from referral_codes c
         join ask k on k.workspace_id = c.workspace_id and k.mode = c.mode and k.code = c.code
        order by c.code
        ${asks.some((a) => a.since !== null) ? 'for update of c' : ''}
     )
     select (select coalesce(json_agg(x), '[]') from (
               select l.workspace_id, l.mode, l.code, l.participant_id::text as advocate_id,
                      p.external_id as advocate_external_id, p.email, p.phone,
                      case when l.since is null then 0 else (
                        select count(*)::int from referrals r
                         where r.advocate_id = l.participant_id and r.created_at >= l.since and r.status <> 'blocked')
                      end as counted
                 from locked l join participants p on p.id = l.participant_id) x) as codes,
            (select coalesce(array_agg(friend_id::text), '{}') from referrals
              where friend_id = any($5::bigint[])) as referred`,
    [
      asks.map((a) => a.workspaceId),
      asks.map((a) => a.mode),
      asks.map((a) => a.code),
      asks.map((a) => a.since),
      friendIds,
    ],
  );
  return { codes: rows[0]!.codes, referred: rows[0]!.referred };
}

/** A referral the batch made. */
export interface NewReferral {
  id: string;
  workspaceId: string;
  mode: string;
  code: string;
  advocateId: number;
  friendId: number;
  /** `qualified` when an event of the same batch qualified it already. */
  status: 'pending' | 'blocked' | 'qualified';
  reason: string | null;
  eventId: string;
  expiresAt: Date | null;
  qualifyingEventId: string | null;
  rewardAvailableAt: Date | null;
}

/** A pending referral (made by an earlier batch) one of the batch's events qualified. */
export interface Qualification {
  id: string;
  eventId: string;
  /** When the hold ends. */
  rewardAvailableAt: Date;
}

/**
 * Writes the batch's new referrals (a friend already referred keeps their first: the unique key)
 * and its qualifications (only a referral still `pending` moves: the friend's lock orders this
 * against the expiry job), in one statement. `now` is the batch's: created_at and qualified_at.
 */
export async function writeReferrals(
  sql: Sql,
  made: NewReferral[],
  qualified: Qualification[],
  now: Date,
): Promise<void> {
  if (!made.length && !qualified.length) return;
  await sql.query(
    `with made as (
       insert into referrals (id, workspace_id, mode, code, advocate_id, friend_id, status, reason, event_id,
                              created_at, expires_at, qualifying_event_id, qualified_at, reward_available_at, due_at)
       select m.id, m.workspace_id, m.mode, m.code, m.advocate_id, m.friend_id, m.status, m.reason, m.event_id,
              $11, m.expires_at, m.qualifying_event_id, case when m.status = 'qualified' then $11::timestamptz end,
              m.available_at,
              case m.status when 'pending' then m.expires_at when 'qualified' then $11::timestamptz end
         from unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::bigint[], $6::bigint[], $7::text[],
                     $8::text[], $9::uuid[], $10::timestamptz[], $15::uuid[], $16::timestamptz[])
           as m(id, workspace_id, mode, code, advocate_id, friend_id, status, reason, event_id, expires_at,
                qualifying_event_id, available_at)
       on conflict (friend_id) do nothing
       returning 1
     ), qualified as (
       update referrals r
          set status = 'qualified', qualified_at = $11, qualifying_event_id = q.event_id,
              reward_available_at = q.available_at, due_at = $11
         from unnest($12::uuid[], $13::uuid[], $14::timestamptz[]) as q(id, event_id, available_at)
        where r.id = q.id and r.status = 'pending'
       returning 1
     )
     select (select count(*) from made) + (select count(*) from qualified) as n`,
    [
      made.map((m) => m.id),
      made.map((m) => m.workspaceId),
      made.map((m) => m.mode),
      made.map((m) => m.code),
      made.map((m) => m.advocateId),
      made.map((m) => m.friendId),
      made.map((m) => m.status),
      made.map((m) => m.reason),
      made.map((m) => m.eventId),
      made.map((m) => m.expiresAt),
      now,
      qualified.map((q) => q.id),
      qualified.map((q) => q.eventId),
      qualified.map((q) => q.rewardAvailableAt),
      made.map((m) => m.qualifyingEventId),
      made.map((m) => m.rewardAvailableAt),
    ],
  );
}
