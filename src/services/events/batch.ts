import { z } from 'zod';
import { eventBody } from './event-input.ts';
import type { EventWriter } from './event-writer.ts';
import { eventToWrite, type IngestSource } from './ingest-event.ts';
import type { EventBatchAccepted } from './shapes.ts';

/** Events per batch (docs/api.md#batch-ingest). */
export const MAX_BATCH_EVENTS = 1000;

/** A batch's body may be this big whatever `MAX_BODY_BYTES` says (docs/api.md#batch-ingest). */
export const BATCH_MAX_BYTES = 5 * 1024 * 1024;

/** `POST /v1/events/batch`'s body: each item exactly as `POST /v1/events` takes one. */
export const eventBatchBody = z.strictObject({
  events: z
    .array(eventBody)
    .min(1)
    .max(MAX_BATCH_EVENTS)
    .meta({
      description:
        `1 to ${MAX_BATCH_EVENTS} event bodies, each as \`POST /v1/events\` takes one (shorthand, ` +
        'its own `idempotency_key`). One invalid item refuses the whole batch with a 422 naming it ' +
        '(e.g. `events.3.participant`).',
    }),
});
export type EventBatchBody = z.output<typeof eventBatchBody>;

/**
 * Batch ingest (docs/api.md#batch-ingest): every item through the same pipeline as `POST
 * /v1/events` (shorthand, quarantine, schemas, participant upsert, idempotency), the whole batch
 * as ONE ingest statement, so one transaction: accepted whole or not at all. An item repeating a
 * stored idempotency key, or one earlier in the batch, answers the original with `replayed: true`.
 */
export async function ingestBatch(
  writer: EventWriter,
  from: IngestSource,
  body: EventBatchBody,
): Promise<EventBatchAccepted> {
  const results = await writer.writeAll(body.events.map((event) => eventToWrite(from, event)));
  return {
    data: results.map((r, index) => ({
      index,
      event_id: r.event_id,
      status: r.status as EventBatchAccepted['data'][number]['status'],
      replayed: r.replayed,
    })),
  };
}
