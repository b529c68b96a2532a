import type { Sql } from '../../db/tx.ts';
import { type CursorKey, type KeysetRange, keysetSql } from '../../lib/pagination.ts';
import type { DefinitionRow, StateRow } from '../streaks/state.sql.ts';
import type { PendingStatus } from './shapes.ts';

// Raw SQL: the lifecycle's reads and small writes. The engine's and the jobs' batch statements
// live in award.sql.ts, expire.sql.ts and activate.sql.ts.

/** The stored settings of a workspace and mode, or null (the defaults apply). */
export async function programRow(
  sql: Sql,
  workspaceId: string,
  mode: string,
): Promise<Record<string, unknown> | null> {
  const { rows } = await sql.query<{ settings: Record<string, unknown> }>(
    `select settings from program_settings where workspace_id = $1 and mode = $2`,
    [workspaceId, mode],
  );
  return rows[0]?.settings ?? null;
}

/** Merges `patch` into the stored settings (created when absent) and answers the result. */
export async function mergeProgramRow(
  sql: Sql,
  workspaceId: string,
  mode: string,
  patch: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const { rows } = await sql.query<{ settings: Record<string, unknown> }>(
    `insert into program_settings (workspace_id, mode, settings) values ($1, $2, $3::jsonb)
     on conflict (workspace_id, mode)
       do update set settings = program_settings.settings || excluded.settings, updated_at = now()
     returning settings`,
    [workspaceId, mode, JSON.stringify(patch)],
  );
  return rows[0]!.settings;
}

/** The loyalty programme of an engine batch (points/mechanic.ts loadBatchProgramme). */
export interface BatchProgramme {
  /** Stored programme settings keyed `workspace/mode`. */
  settings: Map<string, Record<string, unknown>>;
  /** Running tier programmes keyed `workspace/mode` (docs/tiers.md). */
  tiers: Map<string, { programme: Record<string, unknown>; started_at: string }>;
  counts: { participant_id: string; scope: string; period: string; points: string }[];
  /** Running streak definitions of the batch's scopes (docs/engagement.md#streaks). */
  streaks: DefinitionRow[];
  /** The batch's participants' states in them. */
  streakStates: StateRow[];
  /** Referral programmes keyed `workspace/mode` (docs/referrals.md). */
  referralPrograms: Map<string, Record<string, unknown>>;
  /** The batch's participants' pending referrals as friends, read only when a programme exists. */
  pendingReferrals: PendingReferralRow[];
}

/** A friend's pending referral as the engine reads it (docs/referrals.md#qualification). */
export interface PendingReferralRow {
  id: string;
  friend_id: string;
  advocate_id: string;
  advocate_external_id: string;
  code: string;
  event_id: string;
  created_at: string;
  expires_at: string;
}

/**
 * The engine batch's read, in one statement: the stored settings, tier programmes, running
 * streaks and referral programmes of its workspaces and modes, the earned points of its
 * participants in the given cap periods, their streak states and pending referrals (bench suite
 * `engine`: each mechanic's own read would be one more round trip per batch).
 */
export async function batchProgram(
  sql: Sql,
  scopes: { workspaceId: string; mode: string }[],
  participantIds: number[],
  periods: string[],
): Promise<BatchProgramme> {
  const { rows } = await sql.query<{
    settings: { workspace_id: string; mode: string; settings: Record<string, unknown> }[];
    tiers: { workspace_id: string; mode: string; programme: Record<string, unknown>; started_at: string }[];
    counts: BatchProgramme['counts'];
    streaks: DefinitionRow[];
    streak_states: StateRow[];
    referral_programs: { workspace_id: string; mode: string; settings: Record<string, unknown> }[];
    pending_referrals: PendingReferralRow[];
  }>({
    name: 'engine_batch_programme',
    text: `with scopes as (select * from unnest($1::uuid[], $2::text[]) as s(workspace_id, mode))
     select (select coalesce(json_agg(s), '[]') from (
               select workspace_id, mode, settings from program_settings
                where (workspace_id, mode) in (select * from scopes)) s) as settings,
            (select coalesce(json_agg(t), '[]') from (
               select workspace_id, mode, programme, started_at from tier_programs
                where (workspace_id, mode) in (select * from scopes) and programme is not null) t) as tiers,
            (select coalesce(json_agg(c), '[]') from (
               select participant_id::text, scope, period, points::text from earning_counts
                where participant_id = any($3::bigint[]) and period = any($4::text[])) c) as counts,
            (select coalesce(json_agg(d order by d.id), '[]') from (
               select s.id, s.workspace_id, s.mode, s.key, s.name, s.event_types, s.frequency, s.freezes_initial,
                      s.freezes_max, s.earn_every
                 from streaks s join scopes q on s.workspace_id = q.workspace_id and s.mode = q.mode
                where s.archived_at is null) d) as streaks,
            (select coalesce(json_agg(x), '[]') from (
               select ps.participant_id, ps.streak_id, ps.length, ps.longest, ps.freezes, ps.earned,
                      ps.last_period, ps.checked_period, ps.history
                 from unnest($3::bigint[]) q(id) join participant_streaks ps on ps.participant_id = q.id) x) as streak_states,
            (select coalesce(json_agg(r), '[]') from (
               select workspace_id, mode, settings from referral_programs
                where (workspace_id, mode) in (select * from scopes)) r) as referral_programs,
            (select coalesce(json_agg(x), '[]') from (
               select r.id, r.friend_id::text, r.advocate_id::text, a.external_id as advocate_external_id, r.code,
                      r.event_id, r.created_at, r.expires_at
                 from unnest($3::bigint[]) q(id)
                 join referrals r on r.friend_id = q.id and r.status = 'pending'
                 join participants a on a.id = r.advocate_id
                where exists (select 1 from referral_programs rp
                               where (rp.workspace_id, rp.mode) in (select * from scopes))) x) as pending_referrals`,
    values: [scopes.map((s) => s.workspaceId), scopes.map((s) => s.mode), participantIds, periods],
  });
  const r = rows[0]!;
  return {
    settings: new Map(r.settings.map((x) => [`${x.workspace_id}/${x.mode}`, x.settings])),
    tiers: new Map(r.tiers.map((x) => [`${x.workspace_id}/${x.mode}`, x])),
    counts: r.counts,
    streaks: r.streaks,
    streakStates: r.streak_states,
    referralPrograms: new Map(r.referral_programs.map((x) => [`${x.workspace_id}/${x.mode}`, x.settings])),
    pendingReferrals: r.pending_referrals,
  };
}

/** An open lot as SQL reads it. */
export interface LotRow {
  entry_id: string;
  points: string;
  remaining: string;
  expires_at: Date | null;
}

/**
 * A participant's open lots in consumption order (soonest expiry first, never-expiring last), the
 * first `limit` of them when given (the subject-access export's bound).
 */
export async function openLots(sql: Sql, participantId: number | string, limit?: number): Promise<LotRow[]> {
  const { rows } = await sql.query<LotRow>(
    `select entry_id, points, remaining, expires_at from point_lots
      where participant_id = $1 and remaining > 0
      order by expires_at asc nulls last, id${limit === undefined ? '' : ' limit $2'}`,
    limit === undefined ? [participantId] : [participantId, limit],
  );
  return rows;
}

/** The earliest expiry among the lots a debit consumed (what its reversal gives back), or null. */
export async function givenBackExpiry(sql: Sql, debitEntryId: number): Promise<Date | null> {
  const { rows } = await sql.query<{ expires_at: Date | null }>(
    `select min(l.expires_at) as expires_at
       from lot_allocations a join point_lots l on l.id = a.lot_id where a.entry_id = $1`,
    [debitEntryId],
  );
  return rows[0]?.expires_at ?? null;
}

/**
 * `activity` expiry, as an UPDATE over arrays of participant ids (`ids`) and instants (`at`):
 * every open lot of those participants now expires at its instant, and is announced again.
 */
export const moveOpenLotsSql = (ids: string, at: string) => `update point_lots l
     set expires_at = m.expires_at, notified_at = null
    from unnest(${ids}::bigint[], ${at}::timestamptz[]) as m(participant_id, expires_at)
   where l.participant_id = m.participant_id and l.remaining > 0 and l.expires_at is distinct from m.expires_at`;

/** Moves these participants' open lots (the caller holds their row locks). */
export async function moveOpenLots(
  sql: Sql,
  moves: { participantId: number; expiresAt: Date }[],
): Promise<void> {
  if (!moves.length) return;
  await sql.query(moveOpenLotsSql('$1', '$2'), [
    moves.map((m) => m.participantId),
    moves.map((m) => m.expiresAt),
  ]);
}

/** A pending grant as SQL reads it. */
export interface GrantRow {
  id: string;
  external_id: string;
  points: string;
  available_at: Date;
  status: PendingStatus;
  event_id: string | null;
  flow_run_id: string | null;
  entry_id: string | null;
  created_at: Date;
}

const GRANT_COLUMNS = `g.id, p.external_id, g.points, g.available_at, g.status, g.event_id, g.flow_run_id,
  g.entry_id, g.created_at`;

/** One keyset range of a participant's grants, newest first. */
export async function grantsOf(
  sql: Sql,
  participantId: number | string,
  range: KeysetRange<CursorKey>,
): Promise<GrantRow[]> {
  const k = keysetSql(range, 'g.id', 2);
  const { rows } = await sql.query<GrantRow>(
    `select ${GRANT_COLUMNS} from pending_grants g join participants p on p.id = g.participant_id
      where g.participant_id = $1 and ${k.where} order by ${k.order} limit ${k.limit}`,
    [participantId, ...k.params],
  );
  return rows;
}

/** Locks the row of the participant owning grant `id` in the workspace and mode; false when unknown. */
export async function lockGrantOwner(
  sql: Sql,
  workspaceId: string,
  mode: string,
  id: string,
): Promise<boolean> {
  const { rows } = await sql.query(
    `select p.id from participants p join pending_grants g on g.participant_id = p.id
      where g.id = $3 and g.workspace_id = $1 and g.mode = $2
      for no key update of p`,
    [workspaceId, mode, id],
  );
  return rows.length > 0;
}

/** The grant `id`, read after its owner's lock (a statement of its own: it sees what committed before). */
export async function grantById(
  sql: Sql,
  id: string,
): Promise<(GrantRow & { participant_id: string; workspace_id: string; mode: string }) | null> {
  const { rows } = await sql.query<GrantRow & { participant_id: string; workspace_id: string; mode: string }>(
    `select ${GRANT_COLUMNS}, g.participant_id, g.workspace_id, g.mode
       from pending_grants g join participants p on p.id = g.participant_id where g.id = $1`,
    [id],
  );
  return rows[0] ?? null;
}
