// Raw SQL: the windowed `event_count` / `event_sum` of a batch's conditions (bench suite `engagement`), in
// one statement: each asks the participant's processed events of one type in a time range, a range
// of the partial index events_window_idx (participant, type, occurred_at) where status = 'processed'.
import type { Sql } from '../../db/tx.ts';

/** One value to load: a count (path null) or a sum over `(since, upto]` (since null: all time). */
export interface WindowQuery {
  participantId: number;
  type: string;
  /** Payload path segments; null: a count. */
  path: string[] | null;
  since: Date | null;
  upto: Date;
}

/** A Postgres text[] literal of the segments. */
const pathLiteral = (path: string[]) =>
  `{${path.map((s) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`;

/**
 * The values, in the order asked. A count reads the index alone (index-only once vacuum has
 * marked the pages visible); a sum reads the window's rows for their payloads. Non-numbers count 0.
 */
export async function loadWindows(sql: Sql, qs: WindowQuery[]): Promise<number[]> {
  if (!qs.length) return [];
  const { rows } = await sql.query<{ v: string | null }>({
    name: 'windows_load',
    text: `select case when x.path is null then (
              select count(*) from events e
               where e.participant_id = x.p and e.event_type = x.t and e.status = 'processed'
                 and e.occurred_at > coalesce(x.since, '-infinity'::timestamptz) and e.occurred_at <= x.upto)::numeric
            else (
              select coalesce(sum(case when jsonb_typeof(e.payload #> x.path::text[]) = 'number'
                                       then (e.payload #>> x.path::text[])::numeric end), 0)
                from events e
               where e.participant_id = x.p and e.event_type = x.t and e.status = 'processed'
                 and e.occurred_at > coalesce(x.since, '-infinity'::timestamptz) and e.occurred_at <= x.upto)
            end as v
       from unnest($1::bigint[], $2::text[], $3::text[], $4::timestamptz[], $5::timestamptz[]) with ordinality
         as x(p, t, path, since, upto, ord)
      order by x.ord`,
    values: [
      qs.map((q) => q.participantId),
      qs.map((q) => q.type),
      qs.map((q) => (q.path ? pathLiteral(q.path) : null)),
      qs.map((q) => q.since),
      qs.map((q) => q.upto),
    ],
  });
  return rows.map((r) => Number(r.v ?? 0));
}
