import { defineEntity, p } from '@mikro-orm/core';
import { Participant } from '../participants/entities.ts';
import { Workspace } from '../workspaces/entities.ts';
import type { EventStatus } from './shapes.ts';

const EventTypeSchema = defineEntity({
  name: 'EventType',
  tableName: 'event_types',
  uniques: [{ properties: ['workspace', 'mode', 'key'] }],
  indexes: [{ properties: ['workspace', 'mode', 'id'] }],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    workspace: () => p.manyToOne(Workspace).deleteRule('cascade'),
    mode: p.string().length(4),
    key: p.string().length(128),
    schema: p.json<Record<string, unknown>>().nullable(),
    /** The sum of the type's `event_type_counts` slots (EventWriter adds to one slot per connection). */
    eventsCount: p
      .bigint('number')
      .formula(
        (cols) =>
          `(select coalesce(sum(c.count), 0) from event_type_counts c where c.workspace_id = ${cols.workspace} and c.mode = ${cols.mode} and c.key = ${cols.key})`,
      ),
    firstSeenAt: p.datetime().defaultRaw('now()'),
    updatedAt: p.datetime().defaultRaw('now()'),
  },
});
export class EventType extends EventTypeSchema.class {}
EventTypeSchema.setClass(EventType);

/** Events received per type, in slots so that concurrent ingest statements do not share a row. */
const EventTypeCountSchema = defineEntity({
  name: 'EventTypeCount',
  tableName: 'event_type_counts',
  properties: {
    workspace: () => p.manyToOne(Workspace).primary().deleteRule('cascade'),
    mode: p.string().length(4).primary(),
    key: p.string().length(128).primary(),
    slot: p.smallint().primary(),
    count: p.bigint('number'),
  },
});
export class EventTypeCount extends EventTypeCountSchema.class {}
EventTypeCountSchema.setClass(EventTypeCount);

const IngestEndpointSchema = defineEntity({
  name: 'IngestEndpoint',
  tableName: 'ingest_endpoints',
  indexes: [{ properties: ['workspace', 'mode', 'id'] }],
  properties: {
    id: p.uuid().primary(),
    workspace: () => p.manyToOne(Workspace).deleteRule('cascade'),
    mode: p.string().length(4),
    name: p.string().length(200),
    key: p.string().length(64).unique(),
    /** AES-256-GCM under SVC_SECRET: needed in plaintext to verify signatures, so not hashed. */
    secretEnc: p.text(),
    defaultEventType: p.string().length(128).nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    deletedAt: p.datetime().nullable(),
  },
});
export class IngestEndpoint extends IngestEndpointSchema.class {}
IngestEndpointSchema.setClass(IngestEndpoint);

const EventSchema = defineEntity({
  name: 'Event',
  tableName: 'events',
  uniques: [{ name: 'events_idempotency_key_unique', properties: ['workspace', 'mode', 'idempotencyKey'] }],
  indexes: [
    { name: 'events_list_idx', properties: ['workspace', 'mode', 'id'] },
    { name: 'events_participant_idx', properties: ['participant', 'id'] },
    // The engine's look for a participant's earlier events still waiting (docs/guarantees.md#ordering):
    // entered when an event is accepted, left behind when it is processed.
    {
      name: 'events_received_idx',
      expression:
        'create index "events_received_idx" on "events" ("participant_id", "id") where status = \'received\'',
    },
    // Windowed conditions and achievements (docs/engagement.md#time-windows): a participant's
    // processed events of a type by time, read index-only; entered when an event is processed.
    {
      name: 'events_window_idx',
      expression:
        'create index "events_window_idx" on "events" ("participant_id", "event_type", "occurred_at") where status = \'processed\'',
    },
    // Bulk replay (docs/api.md#replay): a workspace's quarantined events not replayed yet, without
    // reading the rest of its log.
    {
      name: 'events_replayable_idx',
      expression:
        'create index "events_replayable_idx" on "events" ("workspace_id", "mode", "id") where status = \'quarantined\' and replayed_as is null',
    },
  ],
  properties: {
    /** UUIDv7: time-ordered, so the primary key is also the newest-first cursor. */
    id: p.uuid().primary(),
    // No foreign keys on the event log (docs/architecture.md#how-a-request-and-an-event-travel): each would make every ingested
    // event lock its participant and workspace rows FOR KEY SHARE, and concurrent batches sharing
    // the workspace row turn that into a new MultiXact per batch. The ingest statement sets
    // `participant_id` from the row it has just upserted or read, and participants and workspaces
    // are never deleted.
    workspace: () => p.manyToOne(Workspace).createForeignKeyConstraint(false),
    mode: p.string().length(4),
    eventType: p.string().length(128).nullable(),
    participant: () => p.manyToOne(Participant).nullable().createForeignKeyConstraint(false),
    externalId: p.string().length(255).nullable(),
    payload: p.json<Record<string, unknown>>().default('{}'),
    occurredAt: p.datetime(),
    receivedAt: p.datetime().defaultRaw('now()'),
    status: p.string().length(16).$type<EventStatus>(),
    quarantineReason: p.text().nullable(),
    idempotencyKey: p.string().length(255).nullable(),
    source: p.string().length(64),
    processedAt: p.datetime().nullable(),
    error: p.text().nullable(),
    /** The `participant.referral_code` the event carried (docs/referrals.md#attribution). */
    referralCode: p.string().length(64).nullable(),
    /** A replay's original: the quarantined event it fixes (docs/api.md#replay). */
    replayOf: p.uuid().nullable(),
    /** A quarantined event's replay, once replayed. */
    replayedAs: p.uuid().nullable(),
  },
});
export class Event extends EventSchema.class {}
EventSchema.setClass(Event);
