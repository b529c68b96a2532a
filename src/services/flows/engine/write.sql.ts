// Raw SQL: the engine's write of a batch's plan (bench suite `engine`): badges, runs, counts, statuses,
// leaderboard histogram deltas and results in ONE named statement of data-modifying CTEs.
import type { Sql } from '../../../db/tx.ts';
import { uuidv7 } from '../../../lib/uuid7.ts';
import { type deltaColumns, deltaInsertSql } from '../../leaderboards/histogram.ts';
import { emitResultsCtes, type ResultToEmit } from '../../outbox/emit.ts';
import type { BatchPlan } from './evaluate.ts';

// The results' outbox rows and webhook deliveries, as CTEs of the plan's statement (emit.ts).
const EMIT = emitResultsCtes('r');

/** What the statement writes besides the plan's badges and runs. */
export interface PlanWrite {
  /** Events to move out of `received`, with the status and error each gets. */
  statuses: { id: string; status: 'processed' | 'failed'; error: string | null }[];
  deltas: ReturnType<typeof deltaColumns>;
  results: ResultToEmit[];
}

/**
 * Badges, runs, counts, statuses, histogram deltas and results in one statement (one round
 * trip; its CTEs all run, each under its own unique key: an event's run under (event, flow), an
 * idle spell's under (flow, participant, spell), docs/engagement.md#inactivity). `event_count`
 * counts processed events only, from the rows this statement moved out of `received`: an event
 * another statement finished meanwhile (the flow-less path takes no participant lock, see
 * process-events.ts) is not counted twice. clock_timestamp(): the moment the effects are written
 * (bench `engine` measures latency to it). `e.id = any(…)` beside the join: the primary key is
 * used even when statistics are stale.
 */
export async function writePlanStatement(
  sql: Sql,
  plan: Pick<BatchPlan, 'badges' | 'runs'>,
  w: PlanWrite,
): Promise<void> {
  const b = plan.badges;
  const r = plan.runs;
  const s = w.statuses;
  const results = w.results;
  await sql.query({
    name: 'engine_write_plan',
    text: `with badges as (
       insert into participant_badges (workspace_id, mode, participant_id, badge_id, tier, flow_run_id, idempotency_key)
       select * from unnest($1::uuid[], $2::text[], $3::bigint[], $4::bigint[], $5::text[], $6::uuid[], $7::text[])
       on conflict do nothing
     ), planned as materialized (
       select * from unnest($8::uuid[], $9::uuid[], $10::text[], $11::uuid[], $12::uuid[], $13::bigint[], $14::text[],
                            $15::text[], $16::bool[], $32::timestamptz[])
              as x(id, w, m, f, e, p, s, st, fin, spell)
     ), runs as (
       insert into flow_runs (id, workspace_id, mode, flow_id, event_id, participant_id, status, steps, finished_at)
       select id, w, m, f, e, p, s, st::jsonb, case when fin then now() end from planned where spell is null
       on conflict (event_id, flow_id) do update
          set status = excluded.status, steps = excluded.steps, finished_at = excluded.finished_at
     ), spells as (
       insert into flow_runs (id, workspace_id, mode, flow_id, participant_id, spell_at, status, steps, finished_at)
       select id, w, m, f, p, spell, s, st::jsonb, case when fin then now() end from planned where spell is not null
       on conflict (flow_id, participant_id, spell_at) where spell_at is not null do nothing
     ), done as (
       update events e set status = x.status, error = x.error, processed_at = clock_timestamp()
         from unnest($17::uuid[], $18::text[], $19::text[]) x(id, status, error)
        where e.id = x.id and e.id = any($17::uuid[]) and e.status = 'received'
        returning e.participant_id, e.event_type, e.status, e.occurred_at
     ), counted as (
       insert into participant_event_counts as c (participant_id, event_type, count, last_at)
       select participant_id, event_type, count(*), max(occurred_at) from done where status = 'processed'
        group by participant_id, event_type order by participant_id, event_type
       on conflict (participant_id, event_type) do update
          set count = c.count + excluded.count, last_at = greatest(c.last_at, excluded.last_at)
     ), deltas as (
       ${deltaInsertSql(20)}
     ), r as (
       select * from unnest($27::uuid[], $28::uuid[], $29::text[], $30::text[], $31::text[]) with ordinality
         as r(id, workspace_id, mode, type, data, ord)
     ), ${EMIT.ctes}
     select ${EMIT.notify} as notified`,
    values: [
      b.map((x) => x.workspaceId),
      b.map((x) => x.mode),
      b.map((x) => x.participantId),
      b.map((x) => x.badgeId),
      b.map((x) => x.tier),
      b.map((x) => x.runId),
      b.map((x) => x.key),
      r.map((x) => x.id),
      r.map((x) => x.workspaceId),
      r.map((x) => x.mode),
      r.map((x) => x.flowId),
      r.map((x) => x.eventId),
      r.map((x) => x.participantId),
      r.map((x) => x.status),
      r.map((x) => JSON.stringify(x.steps)),
      r.map((x) => x.finished),
      s.map((x) => x.id),
      s.map((x) => x.status),
      s.map((x) => x.error),
      ...w.deltas,
      results.map(() => uuidv7()),
      results.map((x) => x.workspaceId),
      results.map((x) => x.mode),
      results.map((x) => x.type),
      results.map((x) => JSON.stringify(x.data)),
      r.map((x) => x.spellAt),
    ],
  });
}
