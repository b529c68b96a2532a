// Raw SQL: streak states written by the engine and the streak job, and read by the job (bench suite
// `engagement`): one statement per batch writes the states, their changes and their results (the
// engine reads states with its batch's programme read, points/repository.ts batchProgram).
import type { Sql } from '../../db/tx.ts';
import { uuidv7 } from '../../lib/uuid7.ts';
import type { Mode } from '../keys/principal.ts';
import { emitResultsCtes } from '../outbox/emit.sql.ts';
import type { StreakResultData } from '../outbox/result-shapes.ts';
import type { StreakRow } from './repository.ts';
import type { StreakChange, StreakChangeKind, StreakState } from './rules.ts';

/** A running definition as the engine and the job read it. */
export type DefinitionRow = Omit<StreakRow, 'archived_at' | 'created_at' | 'updated_at'> & {
  workspace_id: string;
  mode: Mode;
};

/** A participant's state row (json: dates as `YYYY-MM-DD`). */
export interface StateRow {
  participant_id: string | number;
  streak_id: string | number;
  length: number;
  longest: number;
  freezes: number;
  earned: number;
  last_period: string;
  checked_period: string;
  history: StreakState['history'];
}

export const stateOf = (r: StateRow): StreakState => ({
  length: r.length,
  longest: r.longest,
  freezes: r.freezes,
  earned: r.earned,
  lastPeriod: r.last_period,
  checkedPeriod: r.checked_period,
  history: r.history,
});

/** A state to store, with what changed to get there. */
export interface StateWrite {
  workspaceId: string;
  mode: Mode;
  participantId: number;
  externalId: string;
  streakId: number;
  key: string;
  state: StreakState;
  dueAt: Date | null;
  /** The changes, in order, each with the period it concerns and the state right after it. */
  changes: StreakChange[];
}

const emit = emitResultsCtes('r', 'streak');

/** The webhook result types of the changes (a freeze is live-only). */
const RESULT: Partial<Record<StreakChangeKind, 'streak.extended' | 'streak.broken'>> = {
  extended: 'streak.extended',
  broken: 'streak.broken',
};

export const streakResult = (w: StateWrite, s: StreakState): StreakResultData => ({
  participant: { external_id: w.externalId },
  streak: { key: w.key, length: s.length, longest: s.longest, freezes: s.freezes },
});

/**
 * Stores the states, appends their changes (announced on `svc_live`) and emits `streak.extended`
 * and `streak.broken`, in one statement; none when nothing changed.
 */
export async function writeStreakStates(sql: Sql, writes: StateWrite[]): Promise<void> {
  if (!writes.length) return;
  const changes = writes.flatMap((w) => w.changes.map((c) => ({ w, c })));
  const results = changes.filter(({ c }) => RESULT[c.kind]);
  await sql.query({
    name: 'streaks_write_states',
    text: `with up as (
       insert into participant_streaks as ps (participant_id, streak_id, workspace_id, mode, length, longest, freezes,
                                              earned, last_period, checked_period, history, due_at, updated_at)
       select p, s, w, m, len, lon, fr, ea, lp, cp, h::jsonb, due, now()
         from unnest($1::bigint[], $2::bigint[], $3::uuid[], $4::text[], $5::int[], $6::int[], $7::int[], $8::int[],
                     $9::date[], $10::date[], $11::text[], $12::timestamptz[])
           as x(p, s, w, m, len, lon, fr, ea, lp, cp, h, due)
        order by p, s
       on conflict (participant_id, streak_id) do update
          set length = excluded.length, longest = excluded.longest, freezes = excluded.freezes,
              earned = excluded.earned, last_period = excluded.last_period,
              checked_period = excluded.checked_period, history = excluded.history, due_at = excluded.due_at,
              updated_at = now()
       returning 1
     ), ch as (
       insert into streak_changes (workspace_id, mode, participant_id, streak_id, change, length, longest, freezes,
                                   period_start)
       select w, m, p, s, c, len, lon, fr, ps
         from unnest($13::uuid[], $14::text[], $15::bigint[], $16::bigint[], $17::text[], $18::int[], $19::int[],
                     $20::int[], $21::date[]) with ordinality as x(w, m, p, s, c, len, lon, fr, ps, ord)
        order by ord
       returning 1
     ), r as (
       select * from unnest($22::uuid[], $23::uuid[], $24::text[], $25::text[], $26::text[]) with ordinality
         as r(id, workspace_id, mode, type, data, ord)
     ), ${emit.ctes}
     select (select count(*) from up) + (select count(*) from ch) as n, ${emit.notify} as notified`,
    values: [
      writes.map((w) => w.participantId),
      writes.map((w) => w.streakId),
      writes.map((w) => w.workspaceId),
      writes.map((w) => w.mode),
      writes.map((w) => w.state.length),
      writes.map((w) => w.state.longest),
      writes.map((w) => w.state.freezes),
      writes.map((w) => w.state.earned),
      writes.map((w) => w.state.lastPeriod),
      writes.map((w) => w.state.checkedPeriod),
      writes.map((w) => JSON.stringify(w.state.history)),
      writes.map((w) => w.dueAt),
      changes.map(({ w }) => w.workspaceId),
      changes.map(({ w }) => w.mode),
      changes.map(({ w }) => w.participantId),
      changes.map(({ w }) => w.streakId),
      changes.map(({ c }) => c.kind),
      changes.map(({ c }) => c.state.length),
      changes.map(({ c }) => c.state.longest),
      changes.map(({ c }) => c.state.freezes),
      changes.map(({ c }) => c.period),
      results.map(() => uuidv7()),
      results.map(({ w }) => w.workspaceId),
      results.map(({ w }) => w.mode),
      results.map(({ c }) => RESULT[c.kind]!),
      results.map(({ w, c }) => JSON.stringify(streakResult(w, c.state))),
    ],
  });
}

/** A due streak as the streak job reads it, with its definition, owner and programme settings. */
export type DueRow = StateRow &
  DefinitionRow & {
    external_id: string;
    timezone: string | null;
    settings: Record<string, unknown> | null;
    archived: boolean;
  };

/**
 * The due streaks of up to `limit` participants, whose rows are locked in id order like the
 * engine's (SKIP LOCKED: a participant another transaction holds is taken next time).
 */
export async function lockDueStreaks(sql: Sql, now: Date, limit: number): Promise<DueRow[]> {
  const { rows } = await sql.query<DueRow>(
    `with due as (
       select distinct participant_id from participant_streaks where due_at <= $1 order by participant_id limit $2
     ), locked as (
       select p.id, p.external_id, p.timezone from participants p
        where p.id in (select participant_id from due) order by p.id for update skip locked
     )
     select ps.participant_id, ps.streak_id, ps.length, ps.longest, ps.freezes, ps.earned,
            to_char(ps.last_period, 'YYYY-MM-DD') as last_period,
            to_char(ps.checked_period, 'YYYY-MM-DD') as checked_period, ps.history,
            s.id, s.workspace_id, s.mode, s.key, s.name, s.event_types, s.frequency, s.freezes_initial,
            s.freezes_max, s.earn_every, s.archived_at is not null as archived,
            l.external_id, l.timezone, g.settings
       from locked l
       join participant_streaks ps on ps.participant_id = l.id and ps.due_at <= $1
       join streaks s on s.id = ps.streak_id
       left join program_settings g on g.workspace_id = s.workspace_id and g.mode = s.mode
      order by ps.participant_id, ps.streak_id`,
    [now, limit],
  );
  return rows;
}
