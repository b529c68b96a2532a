import type { Sql } from '../../db/tx.ts';
import { entryColumns, type RawEntry } from './repository.ts';

// Raw SQL: the engine's credits in one round trip whatever their number (bench suite `engine`):
// `unnest` rows, a running sum per participant for each `balance_after`, a named statement.

/** One credit as the statement takes it (one element of each array parameter). */
export interface Credit {
  workspaceId: string;
  mode: string;
  participantId: number;
  points: number;
  reason: string | null;
  source: string;
  reference: string | null;
  idempotencyKey: string;
  lifetime: number;
  expiresAt: Date | null;
  cappedPoints: number;
}

/** An entry the statement posted, with its scope (to match it to its credit by key). */
export type PostedCredit = RawEntry & { workspace_id: string; mode: string };

/**
 * The balances move (participants in id order; the caller holds their locks) and each entry's
 * `balance_after` continues its participant's balance before this statement, in the given order.
 */
const POST_CREDITS_SQL = `with d as (
  select * from unnest($1::uuid[], $2::text[], $3::bigint[], $4::bigint[], $5::text[], $6::text[],
                       $7::text[], $8::text[], $9::bigint[], $10::timestamptz[], $11::bigint[]) with ordinality
    as d(workspace_id, mode, participant_id, points, reason, source, reference, idempotency_key, lifetime,
         expires_at, capped_points, ord)
), t as (
  select participant_id, sum(points) as points, sum(lifetime) as lifetime
    from d group by participant_id order by participant_id
), moved as (
  update participants p
     set balance = p.balance + t.points, lifetime_points = greatest(p.lifetime_points + t.lifetime, 0),
         updated_at = now()
    from t
   where p.id = t.participant_id and p.id = any($3::bigint[])
   returning p.id, p.balance, t.points
)
insert into ledger_entries
  (workspace_id, mode, participant_id, points, balance_after, reason, source, reference, idempotency_key,
   expires_at, capped_points)
select d.workspace_id, d.mode, d.participant_id, d.points,
       m.balance - m.points + sum(d.points) over (partition by d.participant_id order by d.ord),
       d.reason, d.source, d.reference, d.idempotency_key, d.expires_at, d.capped_points
  from d join moved m on m.id = d.participant_id
 order by d.ord
returning workspace_id, mode, ${entryColumns()}`;

/** Posts the credits; one entry per credit whose participant exists. */
export async function insertCredits(sql: Sql, credits: readonly Credit[]): Promise<PostedCredit[]> {
  const { rows } = await sql.query<PostedCredit>({
    // Named (prepared once per connection where the connection can).
    name: 'post_credits',
    text: POST_CREDITS_SQL,
    values: [
      credits.map((c) => c.workspaceId),
      credits.map((c) => c.mode),
      credits.map((c) => c.participantId),
      credits.map((c) => c.points),
      credits.map((c) => c.reason),
      credits.map((c) => c.source),
      credits.map((c) => c.reference),
      credits.map((c) => c.idempotencyKey),
      credits.map((c) => c.lifetime),
      credits.map((c) => c.expiresAt),
      credits.map((c) => c.cappedPoints),
    ],
  });
  return rows;
}
