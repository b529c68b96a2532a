// Raw SQL: bench scenario `events.post`: a batch of requests is ONE statement of data-modifying CTEs, one
// round trip and one commit, prepared once per connection of the generic-plan `ingestPool` (src/runtime.ts).
import type { PgBoss } from 'pg-boss';
import { insertJobs, notifyChannelSql } from 'pg-boss/dist/plans.js';
import type { Sql } from '../../db/tx.ts';
import type { JobPayload } from '../../jobs/payloads.ts';
import { PGBOSS_SCHEMA, PROCESS_EVENT_QUEUE } from '../../jobs/queues.ts';
import type { EventToWrite } from './event-writer.ts';

/** The statement, built once per process: its text needs the queue's table, its wake-up the queue's setting. */
export interface IngestStatement {
  name: string;
  text: string;
  /** The NOTIFY that wakes the queue's workers, or null when the queue does not notify. */
  wakeSql: string | null;
  /**
   * The same statement for a batch of replays (docs/api.md#replay): each new event carries its
   * `replay_of`, and the original gets `replayed_as` in the same transaction. A statement of its
   * own, so the hot path's plan has none of it.
   */
  replays: { name: string; text: string };
}

/** What the statement answers per input row, per stale schema, and when a participant was not found. */
export interface IngestRow {
  /** Input position; null on a stale-schema row; -1 on the "participant not resolved" row. */
  idx: number | null;
  id: string | null;
  status: string | null;
  replayed: boolean | null;
  /** The request's key (`keyCheck`) was revoked: nothing was written or read for it. */
  denied: boolean | null;
  /** `workspace/mode/type` of a stale schema row. */
  type_scope: string | null;
  version: string | null;
  schema: object | null;
}

/** Rows per event type in `event_type_counts`, one per backend (mod): concurrent statements rarely wait on
 * one another's row lock. */
const COUNT_SLOTS = 64;

export const scopeOf = (e: { workspaceId: string; mode: string }) => `${e.workspaceId}/${e.mode}`;
/** The key of an event type in a workspace and mode (the schema cache's and the statement's). */
export const typeScopeOf = (e: EventToWrite) => `${scopeOf(e)}/${e.eventType}`;

/** Reads the queue once and builds the statement; a failed read rejects (the caller asks again). */
export async function prepareIngest(boss: PgBoss): Promise<IngestStatement> {
  const queue = await boss.getQueue(PROCESS_EVENT_QUEUE);
  if (!queue) throw new Error(`pg-boss queue ${PROCESS_EVENT_QUEUE} does not exist`);
  // Its transaction changes nothing durable, so it commits without waiting for a WAL flush.
  const wakeSql =
    queue.notify === true
      ? `select set_config('synchronous_commit', 'off', true), pg_notify(${notifyChannelSql(PGBOSS_SCHEMA)}, '${PROCESS_EVENT_QUEUE}')`
      : null;
  return {
    name: `svc-ingest-${queue.table}`,
    text: ingestStatement(queue.table, false),
    wakeSql,
    replays: { name: `svc-ingest-replay-${queue.table}`, text: ingestStatement(queue.table, true) },
  };
}

/** Runs the statement for one batch (prepared by name on the connection). */
export async function runIngest(
  db: Sql,
  s: { name: string; text: string },
  values: unknown[],
): Promise<IngestRow[]> {
  const { rows } = await db.query<IngestRow>({ name: s.name, text: s.text, values });
  return rows;
}

/** Wakes the queue's workers (see WakeUp). */
export async function notifyWorkers(db: Sql, wakeSql: string): Promise<void> {
  await db.query(wakeSql);
}

/**
 * The batch as the statement's parameters: one JSON array of rows, each row an array in the order
 * of the statement's `input` columns (one native JSON.stringify here and one jsonb parse in
 * Postgres, which then reads each field by position and each payload as the jsonb it already is;
 * a text array per column would cost an escaping pass per element on each side, and rows as objects
 * a key per field to write and parse), and the batch's event types with the schema versions the
 * quarantine reasons assume.
 *
 * What only relates the batch's own rows is worked out here rather than by joins in the statement
 * (see `ingestStatement`): `first` marks the first row of each idempotency key in its workspace
 * and mode (a later row repeating it is not inserted and is answered as a replay), `pslot` numbers
 * the distinct participants of the rows that are not quarantined from 0 without gaps, and `tslot`
 * is the row's event type's position in the type arrays, so the statement reads what it learns per
 * participant or type at an array position.
 */
export function ingestValues(
  items: EventToWrite[],
  quarantineReasons: (string | null)[],
  assumedVersion: (typeScope: string) => string | null,
): unknown[] {
  const types = new Map<string, { tslot: number; e: EventToWrite }>();
  const keys = new Set<string>();
  const participants = new Map<string, number>();
  const rows = items.map((e, idx) => {
    const quarantineReason = quarantineReasons[idx] ?? null;
    let first = true;
    if (e.idempotencyKey !== null) {
      const key = `${scopeOf(e)}/${e.idempotencyKey}`;
      first = !keys.has(key);
      keys.add(key);
    }
    let pslot: number | null = null;
    if (quarantineReason === null && e.externalId !== null) {
      const key = `${scopeOf(e)}/${e.externalId}`;
      pslot = participants.get(key) ?? null;
      if (pslot === null) {
        pslot = participants.size;
        participants.set(key, pslot);
      }
    }
    let tslot: number | null = null;
    if (e.eventType) {
      const key = typeScopeOf(e);
      tslot = types.get(key)?.tslot ?? null;
      if (tslot === null) {
        tslot = types.size;
        types.set(key, { tslot, e });
      }
    }
    // In the order of the statement's `input` columns.
    return [
      idx,
      e.id,
      e.workspaceId,
      e.mode,
      e.eventType,
      e.externalId,
      e.email,
      e.phone,
      e.name,
      e.payload,
      e.occurredAt.toISOString(),
      quarantineReason,
      e.idempotencyKey,
      e.source,
      e.keyCheck,
      first,
      pslot,
      e.timezone,
      e.referralCode,
      e.replayOf ?? null,
      tslot,
    ];
  });
  // In `tslot` order (a Map iterates in insertion order).
  const typeList = [...types.entries()];
  return [
    JSON.stringify(rows),
    typeList.map(([, t]) => t.e.workspaceId),
    typeList.map(([, t]) => t.e.mode),
    typeList.map(([, t]) => t.e.eventType),
    typeList.map(([k]) => assumedVersion(k)),
  ];
}

/**
 * The events INSERT has no ON CONFLICT clause (a speculative insertion costs an extra index
 * probe and WAL record per event): a key committed by a concurrent statement after this one's
 * snapshot fails the whole statement instead, and the retry answers it as a replay.
 */
export function isIdempotencyRace(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string };
  return e.code === '23505' && e.constraint === 'events_idempotency_key_unique';
}

/** The job's payload key: a rename in the queue's schema (src/jobs/payloads.ts) fails the typecheck here. */
const EVENT_IDS: keyof JobPayload<typeof PROCESS_EVENT_QUEUE> = 'eventIds';

/**
 * pg-boss's own INSERT for jobs (queue defaults, retention, heartbeat), fed from the events this
 * statement inserted instead of a JSON parameter: one job per batch, `{ eventIds }`, none when
 * every event was a replay or quarantined. Built from pg-boss's plan so its columns stay its own;
 * the replace is checked, so a pg-boss upgrade that changes the plan fails at the first write (and
 * in the tests), not silently.
 */
function jobInsert(table: string): string {
  const plan = insertJobs(PGBOSS_SCHEMA, { table, name: PROCESS_EVENT_QUEUE, returnId: true, notify: false });
  const param = 'json_to_recordset($1::text::json)';
  if (!plan.includes(param))
    throw new Error('unexpected pg-boss insertJobs plan: cannot embed the job insert');
  return plan.replace(
    param,
    `json_to_recordset((
       select json_build_array(json_build_object('data', json_build_object('${EVENT_IDS}', json_agg(id))))
         from inserted where status = 'received' having count(*) > 0
     )::text::json)`,
  );
}

/**
 * A replay's original gets its `replayed_as` with the new event's insert. Each replay carries the
 * derived idempotency key `replay:<original id>`, so a second replay of one original (concurrent or
 * retried) is answered as an idempotent replay and never inserted: the link is set once.
 */
const REPLAY_LINKS = `,
linked as (
  update events o set replayed_as = r.id
    from rows r
   where r.fresh and not exists (select 1 from unresolved) and r.replay_of is not null
     and o.id = r.replay_of and o.workspace_id = r.workspace_id and o.mode = r.mode and o.replayed_as is null
)`;

/**
 * The idempotency check, the participant upsert (created on first sight, PII enrich-only; a
 * participant that gains nothing is read, not locked), the events INSERT, the processing job and
 * the event-type counters, as data-modifying CTEs of one implicit transaction. Stale schemas and
 * unresolved participants insert nothing and are answered in extra rows (see EventWriter).
 *
 * No CTE is joined to another CTE: the generic plan estimates their rows blindly (100 for the
 * input, often 1 after a filter) and ran such joins as nested loops, quadratic in the batch (200 of
 * 215 ms at 1,000 events). Each row is read once in order (`rows`, which probes the events'
 * idempotency index); what is learnt per participant or per event type is aggregated once and
 * read back at the row's `pslot` or `tslot` in an array (an O(1) subscript: fixed-width elements,
 * no nulls); the upsert's rows find their slot by a GROUP BY on the participant's key; the answer
 * is computed from `rows` rather than joined back to `inserted`. Every step is a scan, an index
 * probe per row, a sort or a hash aggregate, whatever the estimates (bench suite `integrators`).
 */
function ingestStatement(table: string, replays: boolean): string {
  return `
with input as (
  select (r->>0)::int as idx, (r->>1)::uuid as id, (r->>2)::uuid as workspace_id, r->>3 as mode, r->>4 as event_type,
         r->>5 as external_id, r->>6 as email, r->>7 as phone, r->>8 as name, r->9 as payload,
         (r->>10)::timestamptz as occurred_at, r->>11 as quarantine_reason, r->>12 as idempotency_key, r->>13 as source,
         (r->>14)::uuid as key_check, (r->>15)::boolean as first, (r->>16)::int as pslot, r->>17 as timezone,
         r->>18 as referral_code${replays ? ', (r->>19)::uuid as replay_of' : ''}, (r->>20)::int as tslot
    from jsonb_array_elements($1::jsonb) r
),
denied as (
  select distinct i.key_check from input i
   where i.key_check is not null
     and not exists (select 1 from api_keys k where k.id = i.key_check and k.revoked_at is null)
),
types as (
  select i.ord, i.workspace_id, i.mode, i.key, i.assumed, t.id is null as unseen,
         case when t.schema is not null then (extract(epoch from t.updated_at) * 1000000)::bigint::text end as version,
         t.schema
    from unnest($2::uuid[], $3::text[], $4::text[], $5::text[]) with ordinality as i(workspace_id, mode, key, assumed, ord)
    left join event_types t on t.workspace_id = i.workspace_id and t.mode = i.mode and t.key = i.key
),
stale as (select * from types where version is distinct from assumed),
-- Whether each type is new, at tslot + 1.
unseen as (select array_agg(unseen order by ord) as at from types),
-- Each row with the stored event its key names (none for a revoked key's row, which reads nothing),
-- whether it is to be inserted (the first of its key, not stored, its key live, no schema stale) and
-- the status it is inserted with (the answer gives the same).
-- The reads here and in \`slots\` are LATERAL with a LIMIT (the key is unique), so each stays one
-- index probe per row, never a hash join over the whole table however stale its statistics.
rows as (
  select i.*, p.id as prior_id, p.status as prior_status,
         i.first and p.id is null and not i.denied and not exists (select 1 from stale) as fresh,
         case when i.quarantine_reason is null then 'received' else 'quarantined' end as new_status
    from (select c.*, coalesce(c.key_check in (select key_check from denied), false) as denied from input c) i
    left join lateral (
      select e.id, e.status from events e
       where not i.denied and e.workspace_id = i.workspace_id and e.mode = i.mode and e.idempotency_key = i.idempotency_key
       limit 1
    ) p on true
),
-- Each participant slot: the PII its rows to insert bring (the first e-mail, phone and name, the
-- last timezone), whether it has any (\`used\`), and the participant as read.
slots as (
  select s.*, p.id as pid,
         (s.email is not null and p.email is null) or (s.phone is not null and p.phone is null)
           or (s.name is not null and p.name is null)
           or (s.timezone is not null and p.timezone is distinct from s.timezone) as enriches
    from (select pslot, workspace_id, mode, external_id, bool_or(fresh) as used,
                 (array_agg(timezone order by idx desc) filter (where fresh and timezone is not null))[1] as timezone,
                 (array_agg(email order by idx) filter (where fresh and email is not null))[1] as email,
                 (array_agg(phone order by idx) filter (where fresh and phone is not null))[1] as phone,
                 (array_agg(name order by idx) filter (where fresh and name is not null))[1] as name
            from rows where pslot is not null
           group by pslot, workspace_id, mode, external_id) s
    left join lateral (
      select p.id, p.email, p.phone, p.name, p.timezone from participants p
       where s.used and p.workspace_id = s.workspace_id and p.mode = s.mode and p.external_id = s.external_id
       limit 1
    ) p on true
),
upserted as (
  insert into participants as p (workspace_id, mode, external_id, email, phone, name, timezone)
  select workspace_id, mode, external_id, email, phone, name, timezone from slots
   where used and (pid is null or enriches)
   order by workspace_id, mode, external_id
  on conflict (workspace_id, mode, external_id) do update
     set email = coalesce(p.email, excluded.email),
         phone = coalesce(p.phone, excluded.phone),
         name = coalesce(p.name, excluded.name),
         timezone = coalesce(excluded.timezone, p.timezone),
         updated_at = now()
   where (p.email is null and excluded.email is not null)
      or (excluded.timezone is not null and p.timezone is distinct from excluded.timezone)
      or (p.phone is null and excluded.phone is not null)
      or (p.name is null and excluded.name is not null)
  returning p.id, p.workspace_id, p.mode, p.external_id
),
-- Each slot's participant: the row the upsert wrote for its key, else the one read; none when a
-- concurrent statement created it after this one's snapshot (locked by the upsert, not returned).
known as (
  select max(pslot) as pslot, bool_or(used) as used,
         coalesce(max(id) filter (where written), max(id) filter (where not written)) as id
    from (select pslot, used, workspace_id, mode, external_id, pid as id, false as written from slots
          union all
          select null, false, workspace_id, mode, external_id, id, true from upserted) k
   group by workspace_id, mode, external_id
),
unresolved as (select 1 from known where used and id is null),
-- Participant ids at pslot + 1 (every slot has a row in \`known\`; 0 stands for an unused slot's none).
participant as (select array_agg(coalesce(id, 0) order by pslot) as at from known),
inserted as (
  insert into events (id, workspace_id, mode, event_type, participant_id, external_id, payload, occurred_at,
                      status, quarantine_reason, idempotency_key, source, referral_code${replays ? ', replay_of' : ''})
  select r.id, r.workspace_id, r.mode, r.event_type, (select at from participant)[r.pslot + 1], r.external_id,
         r.payload, r.occurred_at, r.new_status,
         r.quarantine_reason, r.idempotency_key, r.source, r.referral_code${replays ? ', r.replay_of' : ''}
    from rows r
   where r.fresh and not exists (select 1 from unresolved)
   order by r.idx
  returning id, workspace_id, mode, event_type, status
),
job as (${jobInsert(table)}),
first_seen as (
  insert into event_types (workspace_id, mode, key)
  select distinct r.workspace_id, r.mode, r.event_type from rows r
   where r.fresh and not exists (select 1 from unresolved) and (select at from unseen)[r.tslot + 1]
   order by 1, 2, 3
  on conflict (workspace_id, mode, key) do nothing
),
counted as (
  insert into event_type_counts as c (workspace_id, mode, key, slot, count)
  select workspace_id, mode, event_type, pg_backend_pid() % ${COUNT_SLOTS}, count(*) from inserted
   where event_type is not null
   group by workspace_id, mode, event_type
   order by workspace_id, mode, event_type
  on conflict (workspace_id, mode, key, slot) do update set count = c.count + excluded.count
)${replays ? REPLAY_LINKS : ''}
select r.idx,
       case when r.prior_id is not null then r.prior_id when r.fresh and not exists (select 1 from unresolved) then r.id end as id,
       case when r.prior_id is not null then r.prior_status
            when r.fresh and not exists (select 1 from unresolved) then r.new_status end as status,
       r.prior_id is not null as replayed, r.denied, null::text as type_scope, null::text as version, null::jsonb as schema
  from rows r
union all
select null, null, null, null, null, s.workspace_id || '/' || s.mode || '/' || s.key, s.version, s.schema from stale s
union all
select -1, null, null, null, null, null, null, null where exists (select 1 from unresolved)`;
}
