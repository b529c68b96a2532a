import type { EntityManager } from '@mikro-orm/postgresql';
import { type KeysetRange, keysetFind } from '../../lib/pagination.ts';
import type { Scope } from '../keys/principal.ts';
import { Participant } from '../participants/entities.ts';
import { Event, EventType, IngestEndpoint } from './entities.ts';

/**
 * The queries of the event log, event types and ingest endpoints read by the doors: cold paths,
 * so MikroORM over the caller's forked `em`, scoped to a workspace and mode. Ingesting events
 * keeps its own SQL (event-writer.ts, process-events.ts), for the bench scenario `events.post`.
 */

const scoped = (who: Scope) => ({ workspace: who.workspaceId, mode: who.mode });

export interface EventFilter {
  status?: string;
  event_type?: string;
  /** A participant's external id. */
  participant?: string;
  /** An ISO date or date-time: events received at or after it. */
  since?: string;
}

export async function pageEvents(
  em: EntityManager,
  who: Scope,
  filter: EventFilter,
  range: KeysetRange<string>,
) {
  // A participant's events through `events_participant_idx` (participant, id): ingest sets
  // `participant_id` on every event that names one, and reading by external id would walk the
  // whole workspace's log for a participant with few events (117 ms at 1M events, bench `dashboard`).
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
export function eventById(em: EntityManager, who: Scope, id: string) {
  return em.findOne(Event, { ...scoped(who), id });
}

export function pageEventTypes(em: EntityManager, who: Scope, range: KeysetRange<number>) {
  return em.find(EventType, ...keysetFind(range, scoped(who)));
}

/**
 * Sets (or with `null` drops) an event type's schema, creating the type when unseen. Raw SQL for
 * Postgres' `insert … on conflict do update` as one statement: ingest creates types concurrently
 * (event-writer.ts, `on conflict do nothing`), so a read-then-insert here could collide with it.
 */
export async function upsertEventTypeSchema(
  em: EntityManager,
  who: Scope,
  key: string,
  schema: Record<string, unknown> | null,
): Promise<EventType> {
  await em.execute(
    `insert into event_types (workspace_id, mode, key, schema, updated_at) values (?, ?, ?, ?, clock_timestamp())
     on conflict (workspace_id, mode, key) do update set schema = excluded.schema, updated_at = clock_timestamp()`,
    [who.workspaceId, who.mode, key, schema === null ? null : JSON.stringify(schema)],
  );
  return em.findOneOrFail(EventType, { ...scoped(who), key });
}

const liveEndpoint = (who: Scope) => ({ ...scoped(who), deletedAt: null });

export function pageIngestEndpoints(em: EntityManager, who: Scope, range: KeysetRange<string>) {
  return em.find(IngestEndpoint, ...keysetFind(range, liveEndpoint(who)));
}

/** A live (not deleted) endpoint of the caller; `id` must already be a UUID. */
export function ingestEndpointById(em: EntityManager, who: Scope, id: string) {
  return em.findOne(IngestEndpoint, { ...liveEndpoint(who), id });
}

/** The live endpoint an ingest key names, whatever its workspace (the key is the credential). */
export function ingestEndpointByKey(em: EntityManager, key: string) {
  return em.findOne(IngestEndpoint, { key, deletedAt: null });
}

export function softDeleteIngestEndpoint(em: EntityManager, id: string) {
  return em.nativeUpdate(IngestEndpoint, { id }, { deletedAt: new Date() });
}
