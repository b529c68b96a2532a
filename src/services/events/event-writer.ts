import type pg from 'pg';
import type { PgBoss } from 'pg-boss';
import { insertJobs, notifyChannelSql } from 'pg-boss/dist/plans.js';
import type { Logger } from 'pino';
import { DomainError } from '../../errors.ts';
import { PGBOSS_SCHEMA, PROCESS_EVENT_QUEUE } from '../../jobs/queues.ts';
import { Batcher, ItemFailure } from '../../lib/batcher.ts';
import type { Mode } from '../keys/principal.ts';
import type { NormalisedEvent } from './event-input.ts';
import { payloadProblem } from './event-schemas.ts';

export interface EventToWrite extends NormalisedEvent {
  id: string;
  workspaceId: string;
  mode: Mode;
  source: string;
  /** Why the event is quarantined before any schema is consulted (missing type or participant). */
  quarantineReason: string | null;
  /** An API key id that must still be live, checked by the statement itself (deferred key check). */
  keyCheck: string | null;
}

export interface WriteResult {
  event_id: string;
  status: string;
  replayed: boolean;
}

type Queryable = Pick<pg.Pool, 'query'>;

/** What the statement answers per input row, per stale schema, and when a participant was not found. */
interface BatchRow {
  /** Input position; null on a stale-schema row; -1 on the "participant not resolved" row. */
  idx: number | null;
  id: string | null;
  status: string | null;
  replayed: boolean | null;
  /** The request's key (`keyCheck`) was revoked: nothing was written or read for it. */
  denied: boolean | null;
  type_scope: string | null;
  version: string | null;
  schema: object | null;
}

/** A batch is written again when its snapshot was too old (a schema changed, a participant appeared). */
const MAX_ATTEMPTS = 5;
/** Event types whose schema version this process remembers (beyond it, the oldest are forgotten). */
const MAX_SCHEMAS = 10_000;
/**
 * Rows per event type in `event_type_counts`: a statement adds to the slot of its connection's
 * backend, so concurrent statements (and processes) rarely wait on one another's row lock.
 */
const COUNT_SLOTS = 64;
/**
 * At most one wake-up NOTIFY per this many milliseconds (the latency it may add to processing
 * under load; an event after a quiet interval wakes the workers at once). Each wake-up costs the
 * workers a fetch, a shortcut or engine statement and a complete, so under load it sets how many
 * ingest batches they take at a time. In bench `events.post.all` (one process, role all) the
 * process ran 2.8 other statements per ingest statement at 5 ms (its workers took one or two
 * batches' jobs at a time) and 1.1 at 20 ms: 0.89x and 0.93x the bare server at 5 ms, 0.93x to
 * 1.03x (mean 0.99x, six runs) at 20 ms, then 1.02x and 1.01x. The engine's latency at 500
 * events/s did not move (p50 28-29 ms both ways in one sitting). Bigger batches take longer, so
 * one worker's batch overtakes another's more often: per-participant order holds across
 * batches only because a batch applies its participants' earlier waiting events first
 * (engine/load.ts `loadBatch`); without that, 20 ms failed the ordering tests of test/flows.
 */
const WAKE_INTERVAL_MS = 20;

type Outcome = WriteResult | ItemFailure;

const scope = (e: { workspaceId: string; mode: string }) => `${e.workspaceId}/${e.mode}`;
const typeScope = (e: EventToWrite) => `${scope(e)}/${e.eventType}`;

/**
 * The ingest hot path (bench scenario `events.post`). Requests arriving together share ONE SQL
 * statement, whatever the batch size: the idempotency check, the participant upsert (created on
 * first sight, PII enrich-only; a participant that gains nothing is read, not locked), the events
 * INSERT, the processing job (pg-boss's own insert) and the event-type counters are
 * data-modifying CTEs of a single implicit transaction, so a batch costs one round trip and one
 * commit. It steps below the ORM on purpose: per-request ORM units of work cost more than the
 * whole INSERT. The 202 is sent only after the statement has committed, and the job commits with
 * its events, so an accepted event is never lost.
 *
 * Two things a batch used to serialise on are kept out of the statement: the event-type counters
 * (one row per type for every batch) are slotted per connection, and the NOTIFY that wakes the
 * engine's workers is sent after the commit, by `wake`. Postgres holds one lock for every
 * notifying transaction from its commit until its end, WAL flush included, so a NOTIFY inside
 * the statement let only one batch commit at a time. A wake-up lost to a crash costs latency
 * only: workers also poll (`notifyPollingIntervalSeconds`).
 *
 * A statement sees one snapshot, so three things are checked optimistically and the batch is
 * written again (nothing of it was inserted) when they fail:
 *  - JSON Schemas are validated here, from versions this process remembers; the statement compares
 *    each batch type's remembered version with the table's and inserts nothing if one differs,
 *    answering the current schema instead. A schema change is thus in force for every event whose
 *    statement starts after the change committed, in every process, without a read per batch.
 *  - A participant created by a concurrent statement after this one's snapshot is locked by the
 *    upsert but invisible to its read-back; no event is inserted and the retry sees it.
 *  - An idempotency key committed by a concurrent statement after this one's snapshot fails the
 *    INSERT with a unique violation (see `isIdempotencyRace`); the retry answers it as a replay.
 */
export class EventWriter {
  private readonly batcher: Batcher<EventToWrite, WriteResult>;
  /** `workspace/mode/type` → its schema and version; an absent type is believed to have none. */
  private readonly schemas = new Map<string, { version: string; schema: object }>();
  private statement?: Promise<{ name: string; text: string; wakeSql: string | null }>;
  /** The wake-up loop while it runs, and whether a batch committed jobs since its last NOTIFY. */
  private waking: Promise<void> | null = null;
  private wakeAgain = false;

  private readonly pool: pg.Pool;
  private readonly boss: PgBoss;
  private readonly log: Logger;

  constructor(pool: pg.Pool, boss: PgBoss, log: Logger) {
    this.pool = pool;
    this.boss = boss;
    this.log = log;
    this.batcher = new Batcher((items) => this.writeIsolatingBadRows(items), {
      maxBatch: 256,
      concurrency: 3,
      // A second statement starts only for a batch worth its fixed cost (README "Ingest hot path").
      overlapAt: 32,
    });
  }

  write(event: EventToWrite): Promise<WriteResult> {
    return this.batcher.submit(event);
  }

  async idle(): Promise<void> {
    await this.batcher.idle();
    while (this.waking) await this.waking;
  }

  /** A data error in one row must not fail its neighbours: retry a failed batch one event at a time. */
  private async writeIsolatingBadRows(items: EventToWrite[]): Promise<Outcome[]> {
    try {
      return await this.writeBatch(items);
    } catch (err) {
      if (items.length === 1) throw err;
      this.log.warn({ err, size: items.length }, 'event batch failed; retrying its events one by one');
      const settled = await Promise.allSettled(items.map((item) => this.writeBatch([item])));
      return settled.map((s) =>
        s.status === 'fulfilled' ? (s.value[0] as WriteResult) : new ItemFailure(s.reason),
      );
    }
  }

  private async writeBatch(items: EventToWrite[]): Promise<Outcome[]> {
    const statement = await this.prepare();
    for (let attempt = 1; ; attempt++) {
      let rows: BatchRow[];
      try {
        ({ rows } = await this.pool.query<BatchRow>({
          name: statement.name,
          text: statement.text,
          values: this.parameters(items),
        }));
      } catch (err) {
        if (!isIdempotencyRace(err) || attempt === MAX_ATTEMPTS) throw err;
        continue;
      }
      const stale = rows.filter((r) => r.idx === null);
      for (const s of stale) this.remember(s.type_scope!, s.version, s.schema);
      const retry = stale.length > 0 || rows.some((r) => r.idx === -1);
      if (!retry) {
        if (statement.wakeSql && rows.some((r) => r.status === 'received' && r.replayed === false))
          this.wake(statement.wakeSql);
        return await this.results(items, rows);
      }
      if (attempt === MAX_ATTEMPTS)
        throw new Error(
          `event batch not written after ${attempt} attempts (schemas, participants or keys kept changing)`,
        );
    }
  }

  /**
   * The batch as one JSON array of rows, each row an array in the order of the statement's
   * `input` columns (one native JSON.stringify here and one jsonb parse in Postgres, which then
   * reads each field by position and each payload as the jsonb it already is; seventeen text
   * arrays would cost an escaping pass per element on each side, and rows as objects a key per
   * field to write and parse), the batch's participants, and the schema versions the reasons
   * assume.
   *
   * What only relates the batch's own rows is worked out here rather than by joins in the
   * statement (which the planner runs as nested loops, quadratic in the batch size): `first` marks
   * the first row of each idempotency key in its workspace and mode (a later row repeating it is
   * not inserted and is answered as a replay), and `pslot` numbers the distinct participants of
   * the rows that are not quarantined, so the statement joins them on one integer.
   */
  private parameters(items: EventToWrite[]): unknown[] {
    const types = new Map<string, EventToWrite>();
    for (const e of items) if (e.eventType) types.set(typeScope(e), e);
    const typeList = [...types.entries()];
    const keys = new Set<string>();
    const participants = new Map<string, number>();
    const groups: { pslot: number; workspace_id: string; mode: Mode; external_id: string }[] = [];
    const rows = items.map((e, idx) => {
      const quarantineReason = e.quarantineReason ?? this.schemaProblem(e);
      let first = true;
      if (e.idempotencyKey !== null) {
        const key = `${scope(e)}/${e.idempotencyKey}`;
        first = !keys.has(key);
        keys.add(key);
      }
      let pslot: number | null = null;
      if (quarantineReason === null && e.externalId !== null) {
        const key = `${scope(e)}/${e.externalId}`;
        pslot = participants.get(key) ?? null;
        if (pslot === null) {
          pslot = groups.length;
          participants.set(key, pslot);
          groups.push({ pslot, workspace_id: e.workspaceId, mode: e.mode, external_id: e.externalId });
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
      ];
    });
    return [
      JSON.stringify(rows),
      typeList.map(([, e]) => e.workspaceId),
      typeList.map(([, e]) => e.mode),
      typeList.map(([, e]) => e.eventType),
      typeList.map(([k]) => this.schemas.get(k)?.version ?? null),
      JSON.stringify(groups),
    ];
  }

  private schemaProblem(e: EventToWrite): string | null {
    if (!e.eventType) return null;
    const key = typeScope(e);
    const known = this.schemas.get(key);
    return known ? payloadProblem(`${key}@${known.version}`, known.schema, e.payload) : null;
  }

  private remember(key: string, version: string | null, schema: object | null): void {
    this.schemas.delete(key);
    if (version === null || schema === null) return;
    if (this.schemas.size >= MAX_SCHEMAS) this.schemas.delete(this.schemas.keys().next().value as string);
    this.schemas.set(key, { version, schema });
  }

  /**
   * Replays answer with the original event. A row neither inserted nor seen as a replay repeats
   * an idempotency key earlier in the same batch: that event is committed by now, so it is read
   * in a statement of its own.
   */
  private async results(items: EventToWrite[], rows: BatchRow[]): Promise<Outcome[]> {
    const results: Outcome[] = new Array(items.length);
    const raced: EventToWrite[] = [];
    for (const r of rows) {
      if (r.idx === null || r.idx < 0) continue;
      if (r.denied)
        results[r.idx] = new ItemFailure(
          new DomainError('authentication_error', 'Invalid API key: unknown or revoked'),
        );
      else if (r.id) results[r.idx] = { event_id: r.id, status: r.status!, replayed: r.replayed! };
      else raced.push(items[r.idx]!);
    }
    if (raced.length) {
      const prior = await findByKeys(this.pool, raced);
      for (const e of raced) {
        const found = prior.get(`${scope(e)}/${e.idempotencyKey}`);
        if (!found) throw new Error(`event ${e.id} was neither inserted nor found by its idempotency key`);
        results[items.indexOf(e)] = { event_id: found.id, status: found.status, replayed: true };
      }
    }
    return results;
  }

  /**
   * Wakes the queue's workers after a batch committed jobs: at once when no wake-up went out in
   * the last WAKE_INTERVAL_MS, else one at the end of that interval for every batch committed in
   * it. Under load that is a NOTIFY per interval instead of one per batch. Its transaction changes
   * nothing durable, so it commits without waiting for a WAL flush.
   */
  private wake(sql: string): void {
    this.wakeAgain = true;
    this.waking ??= (async () => {
      while (this.wakeAgain) {
        this.wakeAgain = false;
        await this.pool.query(sql).catch((err: unknown) => {
          this.log.warn({ err }, 'could not wake the event workers; they will poll');
        });
        await new Promise((resolve) => setTimeout(resolve, WAKE_INTERVAL_MS));
      }
      this.waking = null;
    })();
  }

  /** The statement, built once: pg-boss's job insert needs the queue's table (and NOTIFY its setting). */
  private prepare(): Promise<{ name: string; text: string; wakeSql: string | null }> {
    this.statement ??= this.boss.getQueue(PROCESS_EVENT_QUEUE).then(
      (queue) => {
        if (!queue) throw new Error(`pg-boss queue ${PROCESS_EVENT_QUEUE} does not exist`);
        const wakeSql =
          queue.notify === true
            ? `select set_config('synchronous_commit', 'off', true), pg_notify(${notifyChannelSql(PGBOSS_SCHEMA)}, '${PROCESS_EVENT_QUEUE}')`
            : null;
        return { name: `svc-ingest-${queue.table}`, text: ingestStatement(queue.table), wakeSql };
      },
      (err: unknown) => {
        // A failed read (the database restarting) is not remembered: the next batch asks again.
        this.statement = undefined;
        throw err;
      },
    );
    return this.statement;
  }
}

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
       select json_build_array(json_build_object('data', json_build_object('eventIds', json_agg(id))))
         from inserted where status = 'received' having count(*) > 0
     )::text::json)`,
  );
}

function ingestStatement(table: string): string {
  return `
with input as (
  select (r->>0)::int as idx, (r->>1)::uuid as id, (r->>2)::uuid as workspace_id, r->>3 as mode, r->>4 as event_type,
         r->>5 as external_id, r->>6 as email, r->>7 as phone, r->>8 as name, r->9 as payload,
         (r->>10)::timestamptz as occurred_at, r->>11 as quarantine_reason, r->>12 as idempotency_key, r->>13 as source,
         (r->>14)::uuid as key_check, (r->>15)::boolean as first, (r->>16)::int as pslot
    from jsonb_array_elements($1::jsonb) r
),
groups as (
  select * from json_to_recordset($6::json) as g(pslot int, workspace_id uuid, mode text, external_id text)
),
denied as (
  select distinct i.key_check from input i
   where i.key_check is not null
     and not exists (select 1 from api_keys k where k.id = i.key_check and k.revoked_at is null)
),
types as (
  select i.workspace_id, i.mode, i.key, i.assumed, t.id is null as unseen,
         case when t.schema is not null then (extract(epoch from t.updated_at) * 1000000)::bigint::text end as version,
         t.schema
    from unnest($2::uuid[], $3::text[], $4::text[], $5::text[]) as i(workspace_id, mode, key, assumed)
    left join event_types t on t.workspace_id = i.workspace_id and t.mode = i.mode and t.key = i.key
),
stale as (select * from types where version is distinct from assumed),
prior as (
  select i.idx, e.id, e.status
    from input i
    join events e on e.workspace_id = i.workspace_id and e.mode = i.mode and e.idempotency_key = i.idempotency_key
   where not exists (select 1 from denied d where d.key_check = i.key_check)
),
fresh as (
  select i.idx, i.pslot, i.email, i.phone, i.name from input i
   where i.first and not exists (select 1 from stale)
     and not exists (select 1 from prior p where p.idx = i.idx)
     and not exists (select 1 from denied d where d.key_check = i.key_check)
),
wanted as (
  select g.pslot, g.workspace_id, g.mode, g.external_id, w.email, w.phone, w.name
    from (select pslot,
                 (array_agg(email order by idx) filter (where email is not null))[1] as email,
                 (array_agg(phone order by idx) filter (where phone is not null))[1] as phone,
                 (array_agg(name order by idx) filter (where name is not null))[1] as name
            from fresh where pslot is not null group by pslot) w
    join groups g on g.pslot = w.pslot
),
existing as (
  select w.pslot, p.id,
         (w.email is not null and p.email is null) or (w.phone is not null and p.phone is null)
           or (w.name is not null and p.name is null) as enriches
    from wanted w
    join participants p on p.workspace_id = w.workspace_id and p.mode = w.mode and p.external_id = w.external_id
),
upserted as (
  insert into participants as p (workspace_id, mode, external_id, email, phone, name)
  select workspace_id, mode, external_id, email, phone, name from wanted w
   where not exists (select 1 from existing e where e.pslot = w.pslot and not e.enriches)
   order by workspace_id, mode, external_id
  on conflict (workspace_id, mode, external_id) do update
     set email = coalesce(p.email, excluded.email),
         phone = coalesce(p.phone, excluded.phone),
         name = coalesce(p.name, excluded.name),
         updated_at = now()
   where (p.email is null and excluded.email is not null)
      or (p.phone is null and excluded.phone is not null)
      or (p.name is null and excluded.name is not null)
  returning p.id, p.workspace_id, p.mode, p.external_id
),
known as (
  select w.pslot, u.id
    from upserted u
    join wanted w on w.workspace_id = u.workspace_id and w.mode = u.mode and w.external_id = u.external_id
  union all
  select e.pslot, e.id from existing e where not exists (select 1 from upserted u where u.id = e.id)
),
unresolved as (
  select 1 from wanted w where not exists (select 1 from known k where k.pslot = w.pslot)
),
inserted as (
  insert into events (id, workspace_id, mode, event_type, participant_id, external_id, payload, occurred_at,
                      status, quarantine_reason, idempotency_key, source)
  select i.id, i.workspace_id, i.mode, i.event_type, k.id, i.external_id, i.payload, i.occurred_at,
         case when i.quarantine_reason is null then 'received' else 'quarantined' end,
         i.quarantine_reason, i.idempotency_key, i.source
    from fresh f
    join input i on i.idx = f.idx
    left join known k on k.pslot = f.pslot
   where not exists (select 1 from unresolved)
   order by f.idx
  returning id, workspace_id, mode, event_type, status
),
job as (${jobInsert(table)}),
first_seen as (
  insert into event_types (workspace_id, mode, key)
  select distinct n.workspace_id, n.mode, n.event_type
    from inserted n
    join types t on t.workspace_id = n.workspace_id and t.mode = n.mode and t.key = n.event_type
   where t.unseen
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
)
select i.idx, coalesce(n.id, p.id) as id, coalesce(n.status, p.status) as status, p.id is not null as replayed,
       exists (select 1 from denied d where d.key_check = i.key_check) as denied, null::text as type_scope, null::text as version, null::jsonb as schema
  from input i
  left join prior p on p.idx = i.idx
  left join inserted n on n.id = i.id
union all
select null, null, null, null, null, s.workspace_id || '/' || s.mode || '/' || s.key, s.version, s.schema from stale s
union all
select -1, null, null, null, null, null, null, null where exists (select 1 from unresolved)`;
}

/**
 * The events INSERT has no ON CONFLICT clause (a speculative insertion costs an extra index
 * probe and WAL record per event): a key committed by a concurrent statement after this one's
 * snapshot fails the whole statement instead, and the retry answers it as a replay.
 */
function isIdempotencyRace(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string };
  return e.code === '23505' && e.constraint === 'events_idempotency_key_unique';
}

async function findByKeys(
  db: Queryable,
  events: EventToWrite[],
): Promise<Map<string, { id: string; status: string }>> {
  const { rows } = await db.query<{
    workspace_id: string;
    mode: string;
    idempotency_key: string;
    id: string;
    status: string;
  }>(
    `select e.workspace_id, e.mode, e.idempotency_key, e.id, e.status
       from events e
       join unnest($1::uuid[], $2::text[], $3::text[]) as i(workspace_id, mode, key)
         on e.workspace_id = i.workspace_id and e.mode = i.mode and e.idempotency_key = i.key`,
    [events.map((e) => e.workspaceId), events.map((e) => e.mode), events.map((e) => e.idempotencyKey)],
  );
  return new Map(
    rows.map((r) => [`${r.workspace_id}/${r.mode}/${r.idempotency_key}`, { id: r.id, status: r.status }]),
  );
}
