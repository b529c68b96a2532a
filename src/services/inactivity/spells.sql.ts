// Raw SQL: the inactivity job's statements (docs/engagement.md#inactivity): which flows it runs,
// which participants are due (a GROUP BY over participant_event_counts the ORM cannot express), and
// one read, after the participant locks, of everything a batch evaluates.
import type { Sql } from '../../db/tx.ts';
import type { FlowAction } from '../flows/flow-schemas.ts';
import type { Mode } from '../keys/principal.ts';
import { activeMultipliersSql } from '../rewards/multiplier.ts';

/** An active inactivity flow as the job reads it. */
export interface InactivityFlowRow {
  id: string;
  workspace_id: string;
  mode: Mode;
  name: string;
  trigger: Record<string, unknown>;
  conditions: unknown;
  actions: FlowAction[];
  max_runs_per_participant: number | null;
}

/** Every active inactivity flow of every workspace, oldest first. */
export async function inactivityFlows(sql: Sql): Promise<InactivityFlowRow[]> {
  const { rows } = await sql.query<InactivityFlowRow>(
    `select id, workspace_id, mode, name, trigger, conditions, actions, max_runs_per_participant
       from flows
      where trigger is not null and active and deleted_at is null
      order by id`,
  );
  return rows;
}

/** Which participants a due lookup is about. */
export interface SpellQuery {
  flowId: string;
  workspaceId: string;
  mode: string;
  /** The event types that count as activity; null: every type. */
  types: string[] | null;
  /** Due when their last such event is at or before this instant (now − after). */
  cutoff: Date;
}

/**
 * Up to `limit` participants of the flow's workspace and mode, after `after` in id order, whose
 * idle spell is due and not yet run: a participant with no such event has no spell. One
 * statement that streams: the workspace's participants in id order (the participants index), for
 * each the latest of its count rows (their primary key), and for a due one a probe of the runs'
 * spell key (flow_runs_spell_unique), stopping at the limit. A page costs what it walks: about
 * the participants up to its last due one, never the whole table once per page (probe, 100,000
 * participants × 3 types: a full walk with nobody due 0.3–0.7 s, a page of 500 all due 7–11 ms).
 */
export async function dueParticipants(
  sql: Sql,
  q: SpellQuery,
  after: number,
  limit: number,
): Promise<number[]> {
  const { rows } = await sql.query<{ id: string }>(
    `select p.id
       from participants p
       cross join lateral (
         select max(c.last_at) as spell_at
           from participant_event_counts c
          where c.participant_id = p.id and ($2::text[] is null or c.event_type = any($2::text[]))
         having max(c.last_at) <= $3
            and not exists (select 1 from flow_runs r
                             where r.flow_id = $4 and r.participant_id = p.id and r.spell_at = max(c.last_at))) s
      where p.workspace_id = $1 and p.mode = $5 and p.id > $6
      order by p.id
      limit $7`,
    [q.workspaceId, q.types, q.cutoff, q.flowId, q.mode, after, limit],
  );
  return rows.map((r) => Number(r.id));
}

/** What a batch of spells reads after its participant locks. */
export interface SpellRows {
  /** The locked participants whose spell is still due, with its start exactly as stored. */
  due: { participant_id: number; spell_at: string; spell_us: string }[];
  counts: { participant_id: number; event_type: string; count: number }[];
  multipliers: { participant_id: number; factor: number | string }[];
  holdings: { participant_id: number; badge_id: number; tier: string }[];
  /** Runs of the flow that ran (steps taken): what `max_runs_per_participant` counts. */
  run_counts: { participant_id: number; n: number }[];
}

/**
 * Everything a batch of spells reads under its locks, in one round trip: which participants
 * (`$1`) are still due (re-checked now that no event of theirs can be processed meanwhile: a new
 * one moved their spell), their event counts, multipliers active at `$5`, their holdings of the
 * badges `$6` and their runs of the flow. `spell_at` comes back as JSON text, exact to the
 * microsecond, so the run is written with the very spell the lookup compared.
 */
export async function loadSpellRows(
  sql: Sql,
  q: SpellQuery & { participantIds: number[]; now: Date; badgeIds: number[] },
): Promise<SpellRows> {
  const { rows } = await sql.query<SpellRows>(
    `with q as (select unnest($1::bigint[]) as id),
          s as materialized (
            select c.participant_id, max(c.last_at) as spell_at
              from q join participant_event_counts c on c.participant_id = q.id
             where ($2::text[] is null or c.event_type = any($2::text[]))
             group by c.participant_id)
     select
       (select coalesce(json_agg(d order by d.participant_id), '[]') from (
          select s.participant_id, s.spell_at,
                 (extract(epoch from s.spell_at) * 1000000)::bigint::text as spell_us
            from s
           where s.spell_at <= $3
             and not exists (select 1 from flow_runs r
                              where r.flow_id = $4 and r.participant_id = s.participant_id and r.spell_at = s.spell_at)
          ) d) as due,
       (select coalesce(json_agg(c), '[]') from (
          select c.participant_id, c.event_type, c.count
            from q join participant_event_counts c on c.participant_id = q.id) c) as counts,
       (select coalesce(json_agg(m), '[]') from (
          ${activeMultipliersSql('$1::bigint[]', '$5::timestamptz')}) m) as multipliers,
       (select coalesce(json_agg(h), '[]') from (
          select pb.participant_id, pb.badge_id, pb.tier
            from q join participant_badges pb on pb.participant_id = q.id
           where pb.badge_id = any($6::bigint[])) h) as holdings,
       (select coalesce(json_agg(c), '[]') from (
          select r.participant_id, count(*)::int as n
            from q join flow_runs r on r.participant_id = q.id and r.flow_id = $4
           where jsonb_array_length(r.steps) > 0
           group by r.participant_id) c) as run_counts`,
    [q.participantIds, q.types, q.cutoff, q.flowId, q.now, q.badgeIds],
  );
  return rows[0]!;
}
