import type { Sql } from '../../db/tx.ts';
import { type CursorKey, type KeysetRange, keysetSql } from '../../lib/pagination.ts';
import { type StandingRow, standingColumns } from './standing.sql.ts';

// Raw SQL: the tier programme's row, a participant's standing under their lock, the history. The
// batch statements live in standing.sql.ts, walk.sql.ts, tick.sql.ts and preview.sql.ts.

/** A tier programme row with the time zone of the workspace's programme settings. */
export interface TierProgramRowSql {
  programme: Record<string, unknown> | null;
  previous: Record<string, unknown> | null;
  version: number;
  applied_version: number;
  cursor: string;
  recount: boolean;
  started_at: Date;
  timezone: string;
}

const PROGRAM_COLUMNS = `t.programme, t.previous, t.version, t.applied_version, t.cursor, t.recount, t.started_at,
  coalesce(s.settings->>'timezone', 'UTC') as timezone`;

/** The workspace and mode's tier programme row (ended or running), or null; `lock` for update. */
export async function tierProgramRow(
  sql: Sql,
  workspaceId: string,
  mode: string,
  opts: { lock?: boolean } = {},
): Promise<TierProgramRowSql | null> {
  const { rows } = await sql.query<TierProgramRowSql>(
    `select ${PROGRAM_COLUMNS}
       from tier_programs t
       left join program_settings s on s.workspace_id = t.workspace_id and s.mode = t.mode
      where t.workspace_id = $1 and t.mode = $2${opts.lock ? ' for update of t' : ''}`,
    [workspaceId, mode],
  );
  return rows[0] ?? null;
}

/**
 * Stores a new programme (or null: ended) as the next version, for the walk to apply from the first
 * participant on; `recount`: the walk recounts qualifying points from the ledger.
 */
export async function storeProgramme(
  sql: Sql,
  workspaceId: string,
  mode: string,
  programme: Record<string, unknown> | null,
  recount: boolean,
): Promise<void> {
  await sql.query(
    `insert into tier_programs (workspace_id, mode, programme, recount)
     values ($1, $2, $3::jsonb, $4)
     on conflict (workspace_id, mode) do update
        set previous = tier_programs.programme, programme = excluded.programme,
            version = tier_programs.version + 1, cursor = 0,
            recount = excluded.recount or (tier_programs.recount and tier_programs.applied_version < tier_programs.version),
            started_at = case when tier_programs.programme is null then now() else tier_programs.started_at end,
            updated_at = now()`,
    [workspaceId, mode, programme === null ? null : JSON.stringify(programme), recount],
  );
}

/** Running programmes with their versions, for the tier job. */
export async function programmesToRun(
  sql: Sql,
): Promise<(TierProgramRowSql & { workspace_id: string; mode: string })[]> {
  const { rows } = await sql.query<TierProgramRowSql & { workspace_id: string; mode: string }>(
    `select t.workspace_id, t.mode, ${PROGRAM_COLUMNS}
       from tier_programs t
       left join program_settings s on s.workspace_id = t.workspace_id and s.mode = t.mode
      where t.programme is not null or t.applied_version < t.version`,
  );
  return rows;
}

/** A participant's standing row with what a move's result names. */
export type LockedStanding = StandingRow & {
  id: string;
  external_id: string;
  workspace_id: string;
  mode: string;
};

/** Locks the participant (workspace, mode, external id) and reads their standing; null when unknown. */
export async function lockStanding(
  sql: Sql,
  workspaceId: string,
  mode: string,
  externalId: string,
): Promise<LockedStanding | null> {
  const { rows } = await sql.query<LockedStanding>(
    `select p.id, p.external_id, p.workspace_id, p.mode, ${standingColumns('p')}
       from participants p where p.workspace_id = $1 and p.mode = $2 and p.external_id = $3
        for no key update`,
    [workspaceId, mode, externalId],
  );
  return rows[0] ?? null;
}

/** A participant's balance and level key (the catalogue's `can_afford` and `tier_eligible`), or null. */
export async function tierStandingByExternalId(
  sql: Sql,
  who: { workspaceId: string; mode: string },
  externalId: string,
): Promise<{ balance: string; tier_key: string | null } | null> {
  const { rows } = await sql.query<{ balance: string; tier_key: string | null }>(
    `select balance, tier_key from participants where workspace_id = $1 and mode = $2 and external_id = $3`,
    [who.workspaceId, who.mode, externalId],
  );
  return rows[0] ?? null;
}

/** The standings of participants whose rows the caller holds locked (`lock`: takes the locks, in id order). */
export async function standingsByIds(
  sql: Sql,
  participantIds: number[],
  opts: { lock?: boolean } = {},
): Promise<LockedStanding[]> {
  const { rows } = await sql.query<LockedStanding>(
    `select p.id, p.external_id, p.workspace_id, p.mode, ${standingColumns('p')}
       from participants p where p.id = any($1::bigint[]) order by p.id${opts.lock ? ' for no key update' : ''}`,
    [participantIds],
  );
  return rows;
}

/** The credit a reversal names: its time and whether it earned (a flow or adjustment credit). */
export async function creditOf(sql: Sql, entryId: number): Promise<{ created_at: Date } | null> {
  const { rows } = await sql.query<{ created_at: Date }>(
    `select created_at from ledger_entries where id = $1 and points > 0 and source in ('flow', 'adjustment')`,
    [entryId],
  );
  return rows[0] ?? null;
}

/** A move as SQL reads it. */
export interface MoveRow {
  id: string;
  from_key: string | null;
  from_name: string | null;
  to_key: string | null;
  to_name: string | null;
  reason: string;
  note: string | null;
  qualifying_points: string;
  at: Date;
}

/** One keyset range of a participant's moves, newest first. */
export async function movesOf(
  sql: Sql,
  participantId: number | string,
  range: KeysetRange<CursorKey>,
): Promise<MoveRow[]> {
  const k = keysetSql(range, 'h.id', 2);
  const { rows } = await sql.query<MoveRow>(
    `select h.id, h.from_key, h.from_name, h.to_key, h.to_name, h.reason, h.note, h.qualifying_points, h.at
       from tier_history h where h.participant_id = $1 and ${k.where} order by ${k.order} limit ${k.limit}`,
    [participantId, ...k.params],
  );
  return rows;
}
