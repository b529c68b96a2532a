import { uuidv7 } from '../../lib/uuid7.ts';
import type { Mode } from '../keys/principal.ts';
import { type EventBody, normaliseEvent, quarantineReason } from './event-input.ts';
import type { EventToWrite, EventWriter, WriteResult } from './event-writer.ts';

export interface IngestSource {
  workspaceId: string;
  mode: Mode;
  /** `api` or `ingest:<endpoint id>` (docs/api.md#event-ingest-rules). */
  source: string;
  defaultEventType?: string | null;
  /** An API key the write must find live, else it refuses with 401 (`Principal.keyCheckPending`). */
  keyCheck?: string | null;
}

/**
 * One validated event body as the writer takes it: the shorthand applied, a new id, and the
 * quarantine reason of a missing type or participant (schemas are the writer's).
 */
export function eventToWrite(
  from: IngestSource,
  body: EventBody,
  /** The validated `Idempotency-Key` header, which wins over the body's key. */
  headerKey: string | null = null,
): EventToWrite {
  const event = normaliseEvent(body, { defaultEventType: from.defaultEventType, headerKey });
  return {
    ...event,
    id: uuidv7(),
    workspaceId: from.workspaceId,
    mode: from.mode,
    source: from.source,
    keyCheck: from.keyCheck ?? null,
    quarantineReason: quarantineReason(event),
  };
}

/**
 * The one ingest pipeline behind `POST /v1/events`, `POST /v1/ingest/{key}` and the GraphQL
 * `ingestEvent` mutation: normalise the validated body, quarantine what cannot be processed, and
 * hand the event to the batched writer. Resolves after the event (and its job) are committed.
 * `POST /v1/events/batch` takes the same path per item (batch.ts).
 */
export async function ingestEvent(
  writer: EventWriter,
  from: IngestSource,
  body: EventBody,
  /** The validated `Idempotency-Key` header, which wins over the body's key. */
  headerKey: string | null = null,
): Promise<WriteResult> {
  return writer.write(eventToWrite(from, body, headerKey));
}
