import { columnList } from '../../db/sql-json.ts';
import type { Sql } from '../../db/tx.ts';
import { type CursorKey, type KeysetRange, keysetSql } from '../../lib/pagination.ts';
import type { Mode } from '../keys/principal.ts';

// Raw SQL: the ledger sits on the engine's, the redemption's and the adjustments' hot paths
// (bench suites `engine`, `rewards`, `leaderboards`): the conditional balance UPDATE and the
// entry INSERT are one statement, and key lookups go straight to the idempotency index.

/** A ledger entry as SQL reads it (node-pg: bigints as strings, timestamps as Date). */
export interface RawEntry {
  id: string;
  points: string;
  balance_after: string;
  reason: string | null;
  source: string;
  reference: string | null;
  reverses_entry_id: string | null;
  idempotency_key: string | null;
  expires_at: Date | null;
  capped_points: string;
  created_at: Date;
}

/** The columns of a {@link RawEntry}, in one place: a field renamed there fails here. */
const ENTRY: Record<keyof RawEntry, true> = {
  id: true,
  points: true,
  balance_after: true,
  reason: true,
  source: true,
  reference: true,
  reverses_entry_id: true,
  idempotency_key: true,
  expires_at: true,
  capped_points: true,
  created_at: true,
};

/** The column list of a {@link RawEntry}, qualified by `alias` when given (`e.id, e.points, …`). */
export const entryColumns = (alias?: string): string => columnList(ENTRY, alias);

/** An entry with the external id of its participant. */
export type OwnedEntry = RawEntry & { external_id: string };

/** The entry with this idempotency key in the workspace and mode, with its participant's external id. */
export async function entryByKey(
  sql: Sql,
  workspaceId: string,
  mode: Mode,
  key: string,
): Promise<OwnedEntry | null> {
  const { rows } = await sql.query<OwnedEntry>(
    `select ${entryColumns('e')}, p.external_id
       from ledger_entries e join participants p on p.id = e.participant_id
      where e.workspace_id = $1 and e.mode = $2 and e.idempotency_key = $3`,
    [workspaceId, mode, key],
  );
  return rows[0] ?? null;
}

/** Entries with these idempotency keys in one workspace and mode (one `= any` on the unique index). */
export async function entriesByKeys(
  sql: Sql,
  workspaceId: string,
  mode: string,
  keys: string[],
): Promise<(RawEntry & { workspace_id: string; mode: string })[]> {
  const { rows } = await sql.query<RawEntry & { workspace_id: string; mode: string }>(
    `select workspace_id, mode, ${entryColumns()} from ledger_entries
      where workspace_id = $1 and mode = $2 and idempotency_key = any($3::text[])`,
    [workspaceId, mode, keys],
  );
  return rows;
}

/** What {@link moveAndPost} writes: one entry, its balance move and its lifetime move. */
export interface EntryRow {
  workspaceId: string;
  mode: Mode;
  participantId: number;
  points: number;
  lifetime: number;
  reason: string | null;
  source: string;
  reference: string | null;
  reversesEntryId: number | null;
  idempotencyKey: string | null;
  expiresAt: Date | null;
  cappedPoints: number;
}

/**
 * The conditional balance UPDATE and the entry INSERT in one statement (one round trip): no row
 * means the balance did not cover the debit, or the participant is gone.
 */
export async function moveAndPost(sql: Sql, e: EntryRow): Promise<RawEntry | null> {
  const { rows } = await sql.query<RawEntry>(
    `with moved as (
       update participants
          set balance = balance + $4, lifetime_points = greatest(lifetime_points + $10, 0), updated_at = now()
        where id = $3 and balance + $4 >= 0
        returning balance)
     insert into ledger_entries
       (workspace_id, mode, participant_id, points, balance_after, reason, source, reference,
        reverses_entry_id, idempotency_key, expires_at, capped_points)
     select $1, $2, $3, $4, moved.balance, $5, $6, $7, $8, $9, $11, $12 from moved
     returning ${entryColumns()}`,
    [
      e.workspaceId,
      e.mode,
      e.participantId,
      e.points,
      e.reason,
      e.source,
      e.reference,
      e.reversesEntryId,
      e.idempotencyKey,
      e.lifetime,
      e.expiresAt,
      e.cappedPoints,
    ],
  );
  return rows[0] ?? null;
}

/** The participant's balance, null when there is no such participant. */
export async function balanceOf(sql: Sql, participantId: number): Promise<number | null> {
  const { rows } = await sql.query<{ balance: string }>(`select balance from participants where id = $1`, [
    participantId,
  ]);
  return rows[0] ? Number(rows[0].balance) : null;
}

/** The entry `id` of this participant, whether it has been reversed. */
export async function entryToReverse(
  sql: Sql,
  participantId: string | number,
  id: number,
): Promise<{ points: string; source: string; reversed: boolean } | null> {
  const { rows } = await sql.query<{ points: string; source: string; reversed: boolean }>(
    `select e.points, e.source,
            exists (select 1 from ledger_entries r where r.reverses_entry_id = e.id) as reversed
       from ledger_entries e where e.id = $1 and e.participant_id = $2`,
    [id, participantId],
  );
  return rows[0] ?? null;
}

/** The id of the debit a redemption posted (its `reference` is the redemption id). */
export async function redemptionDebit(
  sql: Sql,
  participantId: string | number,
  redemptionId: string | number,
): Promise<number | null> {
  const { rows } = await sql.query<{ id: string }>(
    `select id from ledger_entries where participant_id = $1 and source = 'redemption' and reference = $2`,
    [participantId, String(redemptionId)],
  );
  return rows[0] ? Number(rows[0].id) : null;
}

/** One keyset range of a participant's entries. */
export async function entriesOf(
  sql: Sql,
  participantId: string | number,
  range: KeysetRange<CursorKey>,
): Promise<RawEntry[]> {
  const k = keysetSql(range, 'id', 2);
  const { rows } = await sql.query<RawEntry>(
    `select ${entryColumns()} from ledger_entries
      where participant_id = $1 and ${k.where}
      order by ${k.order} limit ${k.limit}`,
    [participantId, ...k.params],
  );
  return rows;
}

/** The newest `limit` entries of a participant. */
export async function latestEntries(sql: Sql, participantId: number, limit: number): Promise<RawEntry[]> {
  const { rows } = await sql.query<RawEntry>(
    `select ${entryColumns()} from ledger_entries where participant_id = $1 order by id desc limit $2`,
    [participantId, limit],
  );
  return rows;
}
