import type { Sql } from '../../db/tx.ts';
import { type CursorKey, type KeysetRange, keysetSql } from '../../lib/pagination.ts';
import type { Scope } from '../keys/principal.ts';
import { type ReferralRow, referralColumns } from './present.ts';
import type { ReferralStatus } from './shapes.ts';

// Raw SQL: the programme, codes and referral reads and the cancel's writes (docs/referrals.md).
// The engine's attribution and qualification and the referral job live in their own *.sql.ts.

// --- the programme ---

export interface ProgramRow {
  settings: Record<string, unknown>;
  updated_at: Date;
}

/** The stored programme of the workspace and mode, or null before the first PUT. */
export async function referralProgramRow(sql: Sql, who: Scope): Promise<ProgramRow | null> {
  const { rows } = await sql.query<ProgramRow>(
    `select settings, updated_at from referral_programs where workspace_id = $1 and mode = $2`,
    [who.workspaceId, who.mode],
  );
  return rows[0] ?? null;
}

/** Replaces the programme whole (created on the first PUT). */
export async function storeReferralProgram(
  sql: Sql,
  who: Scope,
  settings: Record<string, unknown>,
): Promise<ProgramRow> {
  const { rows } = await sql.query<ProgramRow>(
    `insert into referral_programs (workspace_id, mode, settings) values ($1, $2, $3::jsonb)
     on conflict (workspace_id, mode) do update set settings = excluded.settings, updated_at = now()
     returning settings, updated_at`,
    [who.workspaceId, who.mode, JSON.stringify(settings)],
  );
  return rows[0]!;
}

// --- codes ---

/** Participants by external id in the workspace and mode, each with their code or null. */
export async function participantCodes(
  sql: Sql,
  who: Scope,
  externalIds: readonly string[],
): Promise<{ id: string; external_id: string; code: string | null }[]> {
  const { rows } = await sql.query<{ id: string; external_id: string; code: string | null }>(
    `select p.id, p.external_id, c.code from participants p left join referral_codes c on c.participant_id = p.id
      where p.workspace_id = $1 and p.mode = $2 and p.external_id = any($3::text[])`,
    [who.workspaceId, who.mode, externalIds],
  );
  return rows;
}

/**
 * Gives each participant its drawn code, in one statement. A participant with a code already (a
 * concurrent first read wrote it: this insert waits for that one) keeps it, and a code another
 * participant of the workspace and mode holds is not given: both conflicts do nothing, and the
 * caller reads back who has a code and draws again for the rest.
 */
export async function insertCodes(
  sql: Sql,
  who: Scope,
  codes: readonly { participantId: number | string; code: string }[],
): Promise<void> {
  if (!codes.length) return;
  await sql.query(
    `insert into referral_codes (participant_id, workspace_id, mode, code)
     select c.participant_id, $1, $2, c.code from unnest($3::bigint[], $4::text[]) as c(participant_id, code)
     on conflict do nothing`,
    [who.workspaceId, who.mode, codes.map((c) => c.participantId), codes.map((c) => c.code)],
  );
}

/** The existing codes of these participants (none is made). */
export async function codeRows(
  sql: Sql,
  participantIds: readonly (number | string)[],
): Promise<{ participant_id: string; code: string }[]> {
  if (!participantIds.length) return [];
  const { rows } = await sql.query<{ participant_id: string; code: string }>(
    `select participant_id, code from referral_codes where participant_id = any($1::bigint[])`,
    [participantIds],
  );
  return rows;
}

// --- referrals ---

const REFERRAL_COLUMNS = referralColumns();
const REFERRAL_FROM = `referrals r join participants a on a.id = r.advocate_id join participants f on f.id = r.friend_id`;

export interface ReferralFilter {
  /** The advocate's internal id. */
  advocateId?: number;
  /** A participant's internal id, as the advocate or the friend (the subject-access export). */
  partyId?: number;
  status?: ReferralStatus;
}

/**
 * One keyset range of the workspace's referrals, newest first (the id is a UUIDv7). By advocate it
 * reads that advocate's referrals (their index) and sorts them by id; by party, those of either
 * side.
 */
export async function referralRows(
  sql: Sql,
  who: Scope,
  filter: ReferralFilter,
  range: KeysetRange<CursorKey>,
): Promise<ReferralRow[]> {
  const params: unknown[] = [who.workspaceId, who.mode];
  const where = ['r.workspace_id = $1', 'r.mode = $2'];
  if (filter.advocateId !== undefined) {
    params.push(filter.advocateId);
    where.push(`r.advocate_id = $${params.length}`);
  }
  if (filter.partyId !== undefined) {
    params.push(filter.partyId);
    // Either side's index (referrals_advocate_idx, referrals_friend_unique), or-ed in a bitmap.
    where.push(`(r.advocate_id = $${params.length} or r.friend_id = $${params.length})`);
  }
  if (filter.status) {
    params.push(filter.status);
    where.push(`r.status = $${params.length}`);
  }
  const k = keysetSql(range, 'r.id', params.length + 1);
  const { rows } = await sql.query<ReferralRow>(
    `select ${REFERRAL_COLUMNS} from ${REFERRAL_FROM}
      where ${where.join(' and ')} and ${k.where} order by ${k.order} limit ${k.limit}`,
    [...params, ...k.params],
  );
  return rows;
}

/** The referral `id` (a UUID) of the workspace and mode, or null. */
export async function referralById(sql: Sql, who: Scope, id: string): Promise<ReferralRow | null> {
  const { rows } = await sql.query<ReferralRow>(
    `select ${REFERRAL_COLUMNS} from ${REFERRAL_FROM} where r.id = $3 and r.workspace_id = $1 and r.mode = $2`,
    [who.workspaceId, who.mode, id],
  );
  return rows[0] ?? null;
}

/**
 * Locks the row of the advocate of referral `id` (a UUID) in the workspace and mode, the lock the
 * referral job takes before it writes or activates the advocate's grants; false when unknown.
 */
export async function lockAdvocate(sql: Sql, who: Scope, id: string): Promise<boolean> {
  const { rows } = await sql.query(
    `select p.id from participants p join referrals r on r.advocate_id = p.id
      where r.id = $3 and r.workspace_id = $1 and r.mode = $2
      for no key update of p`,
    [who.workspaceId, who.mode, id],
  );
  return rows.length > 0;
}

/** What a cancel decides on, read after the advocate's lock (a statement of its own: it sees what committed before). */
export interface CancelState {
  status: ReferralStatus;
  grant_ids: string[] | null;
  /** `reward_available_at` has passed (the database's clock), or one of its grants was activated. */
  hold_ended: boolean;
}

export async function cancelState(sql: Sql, id: string): Promise<CancelState | null> {
  const { rows } = await sql.query<CancelState>(
    `select r.status, r.grant_ids,
            coalesce(r.reward_available_at <= now(), false)
              or exists (select 1 from pending_grants g where g.id = any(r.grant_ids) and g.status = 'activated')
              as hold_ended
       from referrals r where r.id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

/** A qualified referral becomes `clawed_back`; the job no longer looks at it. */
export async function markClawedBack(sql: Sql, id: string): Promise<void> {
  await sql.query(
    `update referrals set status = 'clawed_back', clawed_back_at = now(), due_at = null
      where id = $1 and status = 'qualified'`,
    [id],
  );
}
