// Raw SQL: the engine's shortcut for events no active flow listens to (bench suite `engine`): one named
// statement, outside any transaction of the engine's, marks them processed and counts them.
import type { Sql } from '../../db/tx.ts';

/**
 * Marks the batch's flow-less events `processed` and counts them (with their latest time, for
 * inactivity flows). An event goes to the engine when an active flow listens to its type, or a
 * streak or an achievement counts it (docs/engagement.md); answers, in id order, the ids
 * left for the engine (see processFlowless). Linear in the batch: a window marks the events that
 * follow one of their participant's engine events, and the update reaches each row through its
 * key. Written as an anti-join and an update joined on `id = any($1)`, Postgres compared every pair
 * of the batch's events (most of the statement's time at 500 events).
 */
export async function finishFlowless(sql: Sql, ids: string[]): Promise<string[]> {
  const { rows } = await sql.query<{ id: string }>({
    name: 'engine_process_flowless',
    text: `with ev as materialized (
       select s.id, s.engine,
              coalesce(bool_or(s.engine) over (partition by s.participant_id order by s.id
                rows between unbounded preceding and 1 preceding), false) as after_engine
         from (select e.id, e.participant_id,
                      e.event_type is null or e.participant_id is null or exists (
                        select 1 from flows f
                         where f.workspace_id = e.workspace_id and f.mode = e.mode and f.event_type = e.event_type
                           and f.active and f.deleted_at is null) or exists (
                        select 1 from streaks s
                         where s.workspace_id = e.workspace_id and s.mode = e.mode and s.archived_at is null
                           and s.event_types ? e.event_type) or exists (
                        select 1 from badges b
                         where b.workspace_id = e.workspace_id and b.mode = e.mode and b.criteria is not null
                           and b.criteria->>'event_type' = e.event_type)
                      or e.referral_code is not null or (exists (
                        select 1 from referral_programs rp
                         where rp.workspace_id = e.workspace_id and rp.mode = e.mode
                           and rp.settings->>'qualifying_event_type' = e.event_type) and exists (
                        select 1 from referrals r where r.friend_id = e.participant_id and r.status = 'pending')) as engine
                 from events e
                where e.id = any($1::uuid[]) and e.status = 'received') s
     ), done as (
       update events e set status = 'processed', processed_at = clock_timestamp()
         from ev
        where e.id = ev.id and not ev.engine and not ev.after_engine and e.status = 'received'
        returning e.participant_id, e.event_type, e.occurred_at
     ), counted as (
       insert into participant_event_counts as c (participant_id, event_type, count, last_at)
       select participant_id, event_type, count(*), max(occurred_at) from done
        group by participant_id, event_type order by participant_id, event_type
       on conflict (participant_id, event_type) do update
          set count = c.count + excluded.count, last_at = greatest(c.last_at, excluded.last_at)
     )
     select id from ev where engine or after_engine order by id`,
    values: [ids],
  });
  return rows.map((r) => r.id);
}
