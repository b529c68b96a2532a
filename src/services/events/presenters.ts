import { isoTime } from '../../lib/iso-time.ts';
import type { Mode } from '../keys/principal.ts';
import type { Event, EventType, IngestEndpoint } from './entities.ts';
import type { EventDto, EventTypeDto, IngestEndpointDto } from './shapes.ts';

export type { EventDto, EventTypeDto, IngestEndpointDto } from './shapes.ts';

export const presentEvent = (e: Event): EventDto => ({
  id: e.id,
  event_type: e.eventType ?? null,
  participant: { external_id: e.externalId ?? null },
  payload: e.payload,
  occurred_at: isoTime(e.occurredAt),
  received_at: isoTime(e.receivedAt),
  status: e.status,
  quarantine_reason: e.quarantineReason ?? null,
  idempotency_key: e.idempotencyKey ?? null,
  source: e.source,
  is_sandbox: e.mode === 'test',
  replay_of: e.replayOf ?? null,
  replayed_as: e.replayedAs ?? null,
});

export const presentEventType = (t: EventType): EventTypeDto => ({
  key: t.key,
  schema: t.schema ?? null,
  events_count: Number(t.eventsCount),
  first_seen_at: isoTime(t.firstSeenAt),
});

export const presentIngestEndpoint = (e: IngestEndpoint): IngestEndpointDto => ({
  id: e.id,
  name: e.name,
  key: e.key,
  default_event_type: e.defaultEventType ?? null,
  mode: e.mode as Mode,
  created_at: isoTime(e.createdAt),
});
