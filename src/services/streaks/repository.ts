import type { Sql } from '../../db/tx.ts';
import type { Scope } from '../keys/principal.ts';
import type { Frequency } from './rules.ts';
import type { StateRow } from './state.sql.ts';

/** A streak definition as SQL reads it. */
export interface StreakRow {
  id: string;
  key: string;
  name: string;
  event_types: string[];
  frequency: Frequency;
  freezes_initial: number;
  freezes_max: number;
  earn_every: number | null;
  archived_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `id, key, name, event_types, frequency, freezes_initial, freezes_max, earn_every,
  archived_at, created_at, updated_at`;

/** The stored fields of a definition. */
export interface StreakFields {
  name: string;
  eventTypes: string[];
  freezesInitial: number;
  freezesMax: number;
  earnEvery: number | null;
}

export async function insertStreak(
  sql: Sql,
  who: Scope,
  key: string,
  frequency: Frequency,
  f: StreakFields,
): Promise<StreakRow> {
  const { rows } = await sql.query<StreakRow>(
    `insert into streaks (workspace_id, mode, key, name, event_types, frequency, freezes_initial, freezes_max, earn_every)
     values ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9) returning ${COLUMNS}`,
    [
      who.workspaceId,
      who.mode,
      key,
      f.name,
      JSON.stringify(f.eventTypes),
      frequency,
      f.freezesInitial,
      f.freezesMax,
      f.earnEvery,
    ],
  );
  return rows[0]!;
}

export async function streakRows(sql: Sql, who: Scope, includeArchived: boolean): Promise<StreakRow[]> {
  const { rows } = await sql.query<StreakRow>(
    `select ${COLUMNS} from streaks where workspace_id = $1 and mode = $2 and ($3 or archived_at is null) order by key`,
    [who.workspaceId, who.mode, includeArchived],
  );
  return rows;
}

export async function streakRow(sql: Sql, who: Scope, key: string): Promise<StreakRow | null> {
  const { rows } = await sql.query<StreakRow>(
    `select ${COLUMNS} from streaks where workspace_id = $1 and mode = $2 and key = $3`,
    [who.workspaceId, who.mode, key],
  );
  return rows[0] ?? null;
}

export async function updateStreakRow(
  sql: Sql,
  who: Scope,
  key: string,
  f: StreakFields,
): Promise<StreakRow | null> {
  const { rows } = await sql.query<StreakRow>(
    `update streaks set name = $4, event_types = $5::jsonb, freezes_initial = $6, freezes_max = $7, earn_every = $8,
            updated_at = now()
      where workspace_id = $1 and mode = $2 and key = $3 returning ${COLUMNS}`,
    [
      who.workspaceId,
      who.mode,
      key,
      f.name,
      JSON.stringify(f.eventTypes),
      f.freezesInitial,
      f.freezesMax,
      f.earnEvery,
    ],
  );
  return rows[0] ?? null;
}

export async function archiveStreakRow(sql: Sql, who: Scope, key: string): Promise<StreakRow | null> {
  const { rows } = await sql.query<StreakRow>(
    `update streaks set archived_at = coalesce(archived_at, now()), updated_at = now()
      where workspace_id = $1 and mode = $2 and key = $3 returning ${COLUMNS}`,
    [who.workspaceId, who.mode, key],
  );
  return rows[0] ?? null;
}

/**
 * The running streaks of a scope with each participant's state in them (absent: never extended), for
 * many participants by external id, in one statement: a row
 * per participant found and running streak (a participant without one: a row with `id` null).
 */
export async function streakRowsOfMany(
  sql: Sql,
  who: Scope,
  externalIds: readonly string[],
): Promise<
  (StreakRow &
    Partial<StateRow> & {
      has_state: boolean;
      external_id: string;
      timezone: string | null;
      settings: Record<string, unknown> | null;
    })[]
> {
  const { rows } = await sql.query(
    `select p.external_id, p.timezone, g.settings, s.id, s.key, s.name, s.event_types, s.frequency, s.freezes_initial,
            s.freezes_max, s.earn_every, ps.participant_id is not null as has_state, ps.length, ps.longest,
            ps.freezes, ps.earned, to_char(ps.last_period, 'YYYY-MM-DD') as last_period,
            to_char(ps.checked_period, 'YYYY-MM-DD') as checked_period, ps.history
       from participants p
       left join program_settings g on g.workspace_id = p.workspace_id and g.mode = p.mode
       left join streaks s on s.workspace_id = p.workspace_id and s.mode = p.mode and s.archived_at is null
       left join participant_streaks ps on ps.streak_id = s.id and ps.participant_id = p.id
      where p.workspace_id = $1 and p.mode = $2 and p.external_id = any($3::text[])
      order by p.external_id, s.key`,
    [who.workspaceId, who.mode, [...externalIds]],
  );
  return rows;
}
