import type pg from 'pg';
import type { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { Mode } from '../../context.ts';
import { PROCESS_EVENT_QUEUE } from '../../jobs/queues.ts';
import { clientDb } from '../../jobs/tx.ts';
import { Batcher, ItemFailure } from '../../lib/batcher.ts';
import type { NormalisedEvent } from './event-input.ts';
import { payloadProblem } from './event-schemas.ts';

export interface EventToWrite extends NormalisedEvent {
  id: string;
  workspaceId: string;
  mode: Mode;
  source: string;
  quarantineReason: string | null;
}

export interface WriteResult {
  event_id: string;
  status: string;
  replayed: boolean;
}

const scope = (e: { workspaceId: string; mode: string }) => `${e.workspaceId}/${e.mode}`;

/**
 * The ingest hot path (bench scenario `events.post`). Requests arriving together share one
 * transaction: an idempotency pre-check, one schema read, one participant upsert, one events
 * INSERT, one job INSERT and one event-type counter upsert, whatever the batch size. It steps
 * below the ORM on purpose: per-request ORM units of work cost more than the whole INSERT.
 * The 202 is sent only after COMMIT, and the processing job commits with the event, so an
 * accepted event is never lost.
 */
export class EventWriter {
  private readonly batcher: Batcher<EventToWrite, WriteResult>;

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
    });
  }

  write(event: EventToWrite): Promise<WriteResult> {
    return this.batcher.submit(event);
  }

  idle(): Promise<void> {
    return this.batcher.idle();
  }

  /** A data error in one row must not fail its neighbours: retry a failed batch one event at a time. */
  private async writeIsolatingBadRows(items: EventToWrite[]): Promise<(WriteResult | ItemFailure)[]> {
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

  private async writeBatch(items: EventToWrite[]): Promise<WriteResult[]> {
    const client = await this.pool.connect();
    try {
      await client.query('begin');
      const results = await this.writeInTransaction(client, items);
      await client.query('commit');
      return results;
    } catch (err) {
      await client.query('rollback').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  private async writeInTransaction(client: pg.PoolClient, items: EventToWrite[]): Promise<WriteResult[]> {
    const results: (WriteResult | undefined)[] = new Array(items.length);

    // 1. Replays: a key seen before answers with the original event and writes nothing.
    const keyed = items.filter((e) => e.idempotencyKey);
    const existing = keyed.length
      ? await findByKeys(client, keyed)
      : new Map<string, { id: string; status: string }>();
    const fresh: number[] = [];
    items.forEach((e, i) => {
      const prior = e.idempotencyKey ? existing.get(`${scope(e)}/${e.idempotencyKey}`) : undefined;
      if (prior) results[i] = { event_id: prior.id, status: prior.status, replayed: true };
      else fresh.push(i);
    });
    if (fresh.length === 0) return results as WriteResult[];

    // 2. JSON Schemas of the event types in this batch; failing payloads are quarantined.
    await this.applySchemas(
      client,
      fresh.map((i) => items[i]!),
    );

    // 3. Participants: created on first sight, PII enrich-only.
    const participantIds = await upsertParticipants(
      client,
      fresh.map((i) => items[i]!).filter((e) => !e.quarantineReason),
    );

    // 4. Events. A concurrent duplicate key (another transaction, or twice in this batch) inserts nothing.
    const rows = fresh.map((i) => items[i]!);
    const inserted = await insertEvents(client, rows, participantIds);
    const raced = rows.filter((e) => !inserted.has(e.id));
    const racedPrior = raced.length ? await findByKeys(client, raced) : new Map();
    for (const i of fresh) {
      const e = items[i]!;
      if (inserted.has(e.id)) {
        results[i] = {
          event_id: e.id,
          status: e.quarantineReason ? 'quarantined' : 'received',
          replayed: false,
        };
      } else {
        const prior = racedPrior.get(`${scope(e)}/${e.idempotencyKey}`);
        if (!prior) throw new Error(`event ${e.id} was neither inserted nor found by its idempotency key`);
        results[i] = { event_id: prior.id, status: prior.status, replayed: true };
      }
    }

    // 5. One processing job for the batch's events, in this transaction: the job exists exactly
    // when the events do. One job row per batch rather than per event roughly halves the rows
    // ingest writes (bench `events.post`), and the engine processes events in batches anyway.
    const toProcess = rows.filter((e) => inserted.has(e.id) && !e.quarantineReason);
    if (toProcess.length) {
      await this.boss.insert(PROCESS_EVENT_QUEUE, [{ data: { eventIds: toProcess.map((e) => e.id) } }], {
        db: clientDb(client),
      });
    }

    // 6. Event-type counters last, so the hot counter rows stay locked for as short as possible.
    await countEventTypes(
      client,
      rows.filter((e) => inserted.has(e.id) && e.eventType),
    );
    return results as WriteResult[];
  }

  private async applySchemas(client: pg.PoolClient, events: EventToWrite[]): Promise<void> {
    const typed = events.filter((e) => e.eventType && !e.quarantineReason);
    if (!typed.length) return;
    const { rows } = await client.query<{
      workspace_id: string;
      mode: string;
      key: string;
      schema: object;
      version: Date;
    }>(
      `select t.workspace_id, t.mode, t.key, t.schema, t.updated_at as version
         from event_types t
         join unnest($1::uuid[], $2::text[], $3::text[]) as i(workspace_id, mode, key)
           on t.workspace_id = i.workspace_id and t.mode = i.mode and t.key = i.key
        where t.schema is not null`,
      [typed.map((e) => e.workspaceId), typed.map((e) => e.mode), typed.map((e) => e.eventType)],
    );
    if (!rows.length) return;
    const schemas = new Map(rows.map((r) => [`${r.workspace_id}/${r.mode}/${r.key}`, r]));
    for (const e of typed) {
      const id = `${scope(e)}/${e.eventType}`;
      const s = schemas.get(id);
      if (s) e.quarantineReason = payloadProblem(`${id}@${s.version.getTime()}`, s.schema, e.payload);
    }
  }
}

async function findByKeys(
  client: pg.PoolClient,
  events: EventToWrite[],
): Promise<Map<string, { id: string; status: string }>> {
  const { rows } = await client.query<{
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

/**
 * One upsert for the batch. Rows for the same participant are merged first (the first non-empty
 * value of each field wins, in arrival order) because one statement cannot touch a row twice,
 * and sorted so concurrent batches lock participants in the same order (no deadlocks). A row is
 * only rewritten when it gains a field; untouched ones are read back in a second statement.
 */
async function upsertParticipants(
  client: pg.PoolClient,
  events: EventToWrite[],
): Promise<Map<string, number>> {
  const merged = new Map<
    string,
    {
      workspaceId: string;
      mode: string;
      externalId: string;
      email: string | null;
      phone: string | null;
      name: string | null;
    }
  >();
  for (const e of events) {
    const k = `${scope(e)}/${e.externalId}`;
    const m = merged.get(k);
    if (!m)
      merged.set(k, {
        workspaceId: e.workspaceId,
        mode: e.mode,
        externalId: e.externalId!,
        email: e.email,
        phone: e.phone,
        name: e.name,
      });
    else {
      m.email ??= e.email;
      m.phone ??= e.phone;
      m.name ??= e.name;
    }
  }
  const ids = new Map<string, number>();
  if (!merged.size) return ids;
  const list = [...merged.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
  const cols = [
    list.map((p) => p.workspaceId),
    list.map((p) => p.mode),
    list.map((p) => p.externalId),
    list.map((p) => p.email),
    list.map((p) => p.phone),
    list.map((p) => p.name),
  ];
  const { rows } = await client.query<{
    id: string;
    workspace_id: string;
    mode: string;
    external_id: string;
  }>(
    `insert into participants as p (workspace_id, mode, external_id, email, phone, name)
     select * from unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
     on conflict (workspace_id, mode, external_id) do update
        set email = coalesce(p.email, excluded.email),
            phone = coalesce(p.phone, excluded.phone),
            name = coalesce(p.name, excluded.name),
            updated_at = now()
      where (p.email is null and excluded.email is not null)
         or (p.phone is null and excluded.phone is not null)
         or (p.name is null and excluded.name is not null)
     returning id, workspace_id, mode, external_id`,
    cols,
  );
  for (const r of rows) ids.set(`${r.workspace_id}/${r.mode}/${r.external_id}`, Number(r.id));
  const missing = list.filter((p) => !ids.has(`${scope(p)}/${p.externalId}`));
  if (missing.length) {
    const found = await client.query<{ id: string; workspace_id: string; mode: string; external_id: string }>(
      `select p.id, p.workspace_id, p.mode, p.external_id
         from participants p
         join unnest($1::uuid[], $2::text[], $3::text[]) as i(workspace_id, mode, external_id)
           on p.workspace_id = i.workspace_id and p.mode = i.mode and p.external_id = i.external_id`,
      [missing.map((p) => p.workspaceId), missing.map((p) => p.mode), missing.map((p) => p.externalId)],
    );
    for (const r of found.rows) ids.set(`${r.workspace_id}/${r.mode}/${r.external_id}`, Number(r.id));
  }
  return ids;
}

async function insertEvents(
  client: pg.PoolClient,
  rows: EventToWrite[],
  participantIds: Map<string, number>,
): Promise<Set<string>> {
  const { rows: inserted } = await client.query<{ id: string }>(
    `insert into events (id, workspace_id, mode, event_type, participant_id, external_id, payload, occurred_at,
                         status, quarantine_reason, idempotency_key, source)
     select * from unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::bigint[], $6::text[], $7::jsonb[],
                          $8::timestamptz[], $9::text[], $10::text[], $11::text[], $12::text[])
     on conflict (workspace_id, mode, idempotency_key) do nothing
     returning id`,
    [
      rows.map((e) => e.id),
      rows.map((e) => e.workspaceId),
      rows.map((e) => e.mode),
      rows.map((e) => e.eventType),
      rows.map((e) =>
        e.quarantineReason ? null : (participantIds.get(`${scope(e)}/${e.externalId}`) ?? null),
      ),
      rows.map((e) => e.externalId),
      rows.map((e) => JSON.stringify(e.payload)),
      rows.map((e) => e.occurredAt.toISOString()),
      rows.map((e) => (e.quarantineReason ? 'quarantined' : 'received')),
      rows.map((e) => e.quarantineReason),
      rows.map((e) => e.idempotencyKey),
      rows.map((e) => e.source),
    ],
  );
  return new Set(inserted.map((r) => r.id));
}

async function countEventTypes(client: pg.PoolClient, rows: EventToWrite[]): Promise<void> {
  const counts = new Map<string, { workspaceId: string; mode: string; key: string; n: number }>();
  for (const e of rows) {
    const k = `${scope(e)}/${e.eventType}`;
    const c = counts.get(k);
    if (c) c.n++;
    else counts.set(k, { workspaceId: e.workspaceId, mode: e.mode, key: e.eventType!, n: 1 });
  }
  if (!counts.size) return;
  const list = [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
  await client.query(
    `insert into event_types as t (workspace_id, mode, key, events_count)
     select * from unnest($1::uuid[], $2::text[], $3::text[], $4::bigint[])
     on conflict (workspace_id, mode, key) do update set events_count = t.events_count + excluded.events_count`,
    [list.map((c) => c.workspaceId), list.map((c) => c.mode), list.map((c) => c.key), list.map((c) => c.n)],
  );
}
