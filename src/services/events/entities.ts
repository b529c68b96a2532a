import { defineEntity, p } from '@mikro-orm/core';
import { Participant } from '../participants/entities.ts';
import { Workspace } from '../workspaces/entities.ts';

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
    eventsCount: p.bigint('number').default(0),
    firstSeenAt: p.datetime().defaultRaw('now()'),
    updatedAt: p.datetime().defaultRaw('now()'),
  },
});
export class EventType extends EventTypeSchema.class {}
EventTypeSchema.setClass(EventType);

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
  ],
  properties: {
    /** UUIDv7: time-ordered, so the primary key is also the newest-first cursor. */
    id: p.uuid().primary(),
    workspace: () => p.manyToOne(Workspace).deleteRule('cascade'),
    mode: p.string().length(4),
    eventType: p.string().length(128).nullable(),
    participant: () => p.manyToOne(Participant).nullable().deleteRule('set null'),
    externalId: p.string().length(255).nullable(),
    payload: p.json<Record<string, unknown>>().default('{}'),
    occurredAt: p.datetime(),
    receivedAt: p.datetime().defaultRaw('now()'),
    status: p.string().length(16),
    quarantineReason: p.text().nullable(),
    idempotencyKey: p.string().length(255).nullable(),
    source: p.string().length(64),
    processedAt: p.datetime().nullable(),
    error: p.text().nullable(),
  },
});
export class Event extends EventSchema.class {}
EventSchema.setClass(Event);
