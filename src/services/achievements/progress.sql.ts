// Raw SQL: an achievement's progress, always counted from the events table (the source of truth)
// by the engine's award statement, the progress read and the backfill (bench suite `engagement`).
// Each reads one participant's processed events of one type in a time range: a range of the
// partial index events_window_idx (participant_id, event_type, occurred_at) where status = 'processed'.
import type { Sql } from '../../db/tx.ts';
import type { Criteria } from './criteria.ts';
import { compileWhere, SqlParams } from './where-sql.ts';

/** The criteria's progress over the matching rows aliased `row`, as a numeric (`count` or `sum`). */
export function aggregateSql(c: Criteria, row: string, params: SqlParams): string {
  if (c.aggregate === 'count') return 'count(*)::numeric';
  const at = `${row}.payload #> ${params.add(c.field!.split('.'), 'text[]')}`;
  // Non-numbers count 0 (as the flows' event_sum).
  return `coalesce(sum(case when jsonb_typeof(${at}) = 'number' then (${at})::numeric else 0 end), 0)`;
}

/**
 * The rows aliased `row` that count toward the criteria, for the participant `participant` in the
 * window `(since, end]` (SQL expressions; `since` NULL: all time). The conditions are those of
 * events_window_idx: participant, type, processed, a range of `occurred_at`.
 */
/**
 * Where a window's events lie for one participant: `since` (a placeholder, null for all time) and
 * `end`, an expression or a function that adds its parameter when first asked (an all-time
 * window asks for no end, and a parameter the statement does not use is an error).
 */
export interface WindowBounds {
  participant: string;
  end: string | (() => string);
  since: string;
}

export function matchSql(c: Criteria, row: string, params: SqlParams, at: WindowBounds): string {
  const where = c.where === null ? '' : ` and ${compileWhere(c.where, row, params)}`;
  // All time is every processed event, whatever its occurred_at (`since` is null): events
  // processed out of their occurred_at order (a history imported newest first) still reach the target.
  const upto =
    c.window === 'all_time'
      ? ''
      : ` and ${row}.occurred_at <= ${typeof at.end === 'string' ? at.end : at.end()}`;
  const window = `\n     and ${row}.occurred_at > coalesce(${at.since}, '-infinity'::timestamptz)${upto}`;
  return `${row}.participant_id = ${at.participant} and ${row}.event_type = ${params.add(c.event_type, 'text')}
     and ${row}.status = 'processed'${window}${where}`;
}

/** A scalar subquery: the criteria's progress for one participant in one window. */
export function progressSubquery(c: Criteria, params: SqlParams, at: WindowBounds, row = 'y'): string {
  return `(select ${aggregateSql(c, row, params)} from events ${row} where ${matchSql(c, row, params, at)})`;
}

/** One badge to read progress for: its id, criteria and window start (null: all time). */
export interface ProgressAsk {
  badgeId: number;
  criteria: Criteria;
  since: Date | null;
}

/**
 * The progress of participants of one workspace and mode (by external id) toward each ask, and
 * when each completed it, in one statement: a row per participant found (an unknown id has none).
 */
export async function progressOfMany(
  sql: Sql,
  who: { workspaceId: string; mode: string },
  externalIds: readonly string[],
  asks: ProgressAsk[],
  end: Date,
): Promise<{ externalId: string; values: { progress: number; completedAt: Date | null }[] }[]> {
  const params = new SqlParams();
  const ids = params.add([...externalIds], 'text[]');
  const workspace = params.add(who.workspaceId, 'uuid');
  const mode = params.add(who.mode, 'text');
  let endAt: string | undefined;
  const endOnce = () => (endAt ??= params.add(end, 'timestamptz'));
  const columns = asks.map((a, i) => {
    const since = params.add(a.since, 'timestamptz');
    const progress = progressSubquery(a.criteria, params, { participant: 'q.id', end: endOnce, since });
    const held = `(select h.awarded_at from participant_badges h
        where h.participant_id = q.id and h.badge_id + 0 = ${params.add(a.badgeId, 'bigint')}
          and h.tier = ${params.add(a.criteria.tier ?? '', 'text')})`;
    return `, ${progress} as p${i}, ${held} as c${i}`;
  });
  const { rows } = await sql.query<Record<string, string | Date | null>>(
    `select q.external_id${columns.join('\n')}
       from (select p.id, p.external_id from participants p
              where p.workspace_id = ${workspace} and p.mode = ${mode} and p.external_id = any(${ids})) q`,
    params.values,
  );
  return rows.map((row) => ({
    externalId: row.external_id as string,
    values: asks.map((_, i) => ({
      progress: Number(row[`p${i}`] ?? 0),
      completedAt: (row[`c${i}`] as Date | null) ?? null,
    })),
  }));
}
