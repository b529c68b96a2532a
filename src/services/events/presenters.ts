import type { Event, EventType, IngestEndpoint } from './entities.ts';

export interface EventDto {
  id: string;
  event_type: string | null;
  participant: { external_id: string | null };
  payload: Record<string, unknown>;
  occurred_at: string;
  received_at: string;
  status: string;
  quarantine_reason: string | null;
  idempotency_key: string | null;
  source: string;
  is_sandbox: boolean;
}

export const presentEvent = (e: Event): EventDto => ({
  id: e.id,
  event_type: e.eventType ?? null,
  participant: { external_id: e.externalId ?? null },
  payload: e.payload,
  occurred_at: e.occurredAt.toISOString(),
  received_at: e.receivedAt.toISOString(),
  status: e.status,
  quarantine_reason: e.quarantineReason ?? null,
  idempotency_key: e.idempotencyKey ?? null,
  source: e.source,
  is_sandbox: e.mode === 'test',
});

export interface EventTypeDto {
  key: string;
  schema: Record<string, unknown> | null;
  events_count: number;
  first_seen_at: string;
}

export const presentEventType = (t: EventType): EventTypeDto => ({
  key: t.key,
  schema: t.schema ?? null,
  events_count: Number(t.eventsCount),
  first_seen_at: t.firstSeenAt.toISOString(),
});

export interface IngestEndpointDto {
  id: string;
  name: string;
  key: string;
  default_event_type: string | null;
  mode: string;
  created_at: string;
}

export const presentIngestEndpoint = (e: IngestEndpoint): IngestEndpointDto => ({
  id: e.id,
  name: e.name,
  key: e.key,
  default_event_type: e.defaultEventType ?? null,
  mode: e.mode,
  created_at: e.createdAt.toISOString(),
});
