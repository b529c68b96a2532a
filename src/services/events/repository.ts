// Raw SQL: Postgres' `insert … on conflict do update` for an event type's schema (ingest creates types
// concurrently), and the event log's set-wise statements beside the ingest writer and the engine (bench
// `events.post`, `engine`): a batch's replays by idempotency key, and events whose retries ran out.
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Sql } from '../../db/tx.ts';
import { type KeysetRange, keysetFind } from '../../lib/pagination.ts';
import type { Scope } from '../keys/principal.ts';
import { Participant } from '../participants/entities.ts';
import { Event, EventType, IngestEndpoint } from './entities.ts';
import type { EventStatus } from './shapes.ts';

/**
 * The queries of the event log, event types and ingest endpoints. The doors' reads are cold
 * paths: MikroORM, each on a fork of its own, scoped to a workspace and mode. Ingesting events
 * keeps its own statement (ingest.sql.ts) for the bench scenario `events.post`.
 */

const scoped = (who: Scope) => ({ workspace: who.workspaceId, mode: who.mode });

export interface EventFilter {
  status?: EventStatus;
  event_type?: string;
  /** A participant's external id. */
  participant?: string;
  /** An ISO date or date-time: events received at or after it. */
  since?: string;
}

export async function pageEvents(orm: MikroORM, who: Scope, filter: EventFilter, range: KeysetRange<string>) {
  const em = orm.em.fork();
  // A participant's events through `events_participant_idx` (participant, id): ingest sets
  // `participant_id` on every event that names one, and reading by external id would walk the
  // whole workspace's log for a participant with few events (bench `dashboard`).
  const participant = filter.participant
    ? await em.findOne(Participant, { ...scoped(who), externalId: filter.participant }, { fields: ['id'] })
    : null;
  if (filter.participant && !participant) return [];
  const where = {
    ...scoped(who),
    ...(filter.status ? { status: filter.status } : {}),
    ...(filter.event_type ? { eventType: filter.event_type } : {}),
    ...(participant ? { participant: participant.id } : {}),
    ...(filter.since ? { receivedAt: { $gte: new Date(filter.since) } } : {}),
  };
  return em.find(Event, ...keysetFind(range, where));
}

/** `id` must already be a UUID (the column's type). */
export function eventById(orm: MikroORM, who: Scope, id: string) {
  return orm.em.fork().findOne(Event, { ...scoped(who), id });
}

/**
 * The next chunk of quarantined, not yet replayed events a bulk replay replays unchanged, oldest
 * first after `after` and before `before` (ids are time-ordered): those with a type and a
 * participant, of the type and received in the range asked for.
 */
export function quarantinedToReplay(
  orm: MikroORM,
  who: Scope,
  q: { eventType?: string; since?: Date; until?: Date; after: string | null; before: string },
  limit: number,
) {
  const received = {
    ...(q.since ? { $gte: q.since } : {}),
    ...(q.until ? { $lt: q.until } : {}),
  };
  return orm.em.fork().find(
    Event,
    {
      ...scoped(who),
      status: 'quarantined',
      replayedAs: null,
      eventType: q.eventType ?? { $ne: null },
      externalId: { $ne: null },
      id: { ...(q.after ? { $gt: q.after } : {}), $lt: q.before },
      ...(q.since || q.until ? { receivedAt: received } : {}),
    },
    { orderBy: { id: 'asc' }, limit },
  );
}

/** The committed events of a batch's repeated idempotency keys, by `workspace/mode/key`. */
export async function eventsByIdempotencyKey(
  sql: Sql,
  keys: { workspaceId: string; mode: string; idempotencyKey: string | null }[],
): Promise<Map<string, { id: string; status: string }>> {
  const { rows } = await sql.query<{
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
    [keys.map((e) => e.workspaceId), keys.map((e) => e.mode), keys.map((e) => e.idempotencyKey)],
  );
  return new Map(
    rows.map((r) => [`${r.workspace_id}/${r.mode}/${r.idempotency_key}`, { id: r.id, status: r.status }]),
  );
}

/** Events still `received` become `failed` with the reason; processed ones are untouched. */
export async function markEventsFailed(sql: Sql, eventIds: string[], error: string): Promise<void> {
  await sql.query(
    `update events set status = 'failed', error = $2, processed_at = now()
      where id = any($1::uuid[]) and status = 'received'`,
    [eventIds, error.slice(0, 1000)],
  );
}

export function pageEventTypes(orm: MikroORM, who: Scope, range: KeysetRange<number>) {
  return orm.em.fork().find(EventType, ...keysetFind(range, scoped(who)));
}

/**
 * Sets (or with `null` drops) an event type's schema, creating the type when unseen. One
 * statement: ingest creates types concurrently (`on conflict do nothing`), so a read-then-insert
 * here could collide with it.
 */
export async function upsertEventTypeSchema(
  orm: MikroORM,
  who: Scope,
  key: string,
  schema: Record<string, unknown> | null,
): Promise<EventType> {
  const em = orm.em.fork();
  await em.execute(
    `insert into event_types (workspace_id, mode, key, schema, updated_at) values (?, ?, ?, ?, clock_timestamp())
     on conflict (workspace_id, mode, key) do update set schema = excluded.schema, updated_at = clock_timestamp()`,
    [who.workspaceId, who.mode, key, schema === null ? null : JSON.stringify(schema)],
  );
  return em.findOneOrFail(EventType, { ...scoped(who), key });
}

/** Drops an event type's schema; null when the type is unknown. */
export async function dropEventTypeSchemaOf(
  orm: MikroORM,
  who: Scope,
  key: string,
): Promise<EventType | null> {
  const em = orm.em.fork();
  const rows = await em.execute<{ id: string }[]>(
    `update event_types set schema = null, updated_at = clock_timestamp()
      where workspace_id = ? and mode = ? and key = ? returning id`,
    [who.workspaceId, who.mode, key],
  );
  return rows.length ? em.findOneOrFail(EventType, { ...scoped(who), key }) : null;
}

const liveEndpoint = (who: Scope) => ({ ...scoped(who), deletedAt: null });

export function pageIngestEndpoints(orm: MikroORM, who: Scope, range: KeysetRange<string>) {
  return orm.em.fork().find(IngestEndpoint, ...keysetFind(range, liveEndpoint(who)));
}

/** A live (not deleted) endpoint of the caller; `id` must already be a UUID. */
export function ingestEndpointById(orm: MikroORM, who: Scope, id: string) {
  return orm.em.fork().findOne(IngestEndpoint, { ...liveEndpoint(who), id });
}

/** The live endpoint an ingest key names, whatever its workspace (the key is the credential). */
export function ingestEndpointByKey(orm: MikroORM, key: string) {
  return orm.em.fork().findOne(IngestEndpoint, { key, deletedAt: null });
}

export function softDeleteIngestEndpoint(orm: MikroORM, id: string) {
  return orm.em.fork().nativeUpdate(IngestEndpoint, { id }, { deletedAt: new Date() });
}
