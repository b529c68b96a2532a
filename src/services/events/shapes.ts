import { z } from 'zod';
import { mode, timestamp, uuidV7 } from '../../lib/shapes.ts';
import { flowRunShape } from '../flows/shapes.ts';
import { EVENT_STATUSES } from './statuses.ts';

export { EVENT_STATUSES, type EventStatus } from './statuses.ts';

/** The stored event statuses as the API documents them. */
export const eventStatus = z.enum(EVENT_STATUSES).meta({
  id: 'EventStatus',
  description:
    '`received` on acceptance, then `processed`, or `failed` once processing retries run out; ' +
    '`quarantined` events (missing type or participant, or a payload failing the type schema) are never processed.',
});

/** The 202 of both ingest doors. */
export const eventAcceptedShape = z
  .object({
    event_id: uuidV7('The stored event (the original one when the request was a replay).'),
    status: eventStatus,
  })
  .meta({ id: 'EventAccepted' });
export type EventAccepted = z.output<typeof eventAcceptedShape>;

/** One item of a batch's 202, at the item's position in the request. */
export const batchItemAcceptedShape = z
  .object({
    index: z.int().min(0).meta({ description: "The item's position in `events` (from 0)." }),
    event_id: uuidV7('The stored event (the original one when the item was a duplicate).'),
    status: eventStatus,
    replayed: z.boolean().meta({
      description:
        'True when the item repeated an idempotency key already stored, or one earlier in the same batch: ' +
        'nothing new was stored for it and `event_id` is the original.',
    }),
  })
  .meta({ id: 'EventBatchItemAccepted' });

/** The 202 of `POST /v1/events/batch`: one result per item, in request order. */
export const eventBatchAcceptedShape = z
  .object({ data: z.array(batchItemAcceptedShape) })
  .meta({ id: 'EventBatchAccepted' });
export type EventBatchAccepted = z.output<typeof eventBatchAcceptedShape>;

/** The 202 of `POST /v1/events/replay`. */
export const eventsReplayedShape = z
  .object({
    replayed: z
      .int()
      .min(0)
      .meta({
        description:
          'How many quarantined events this call replayed (each as a new event); one replayed by a ' +
          'concurrent call is not counted again.',
      }),
  })
  .meta({ id: 'EventsReplayed' });
export type EventsReplayed = z.output<typeof eventsReplayedShape>;

/** An event of the log (`GET /v1/events`). */
export const eventShape = z
  .object({
    id: uuidV7('Event id (UUIDv7, time-ordered).'),
    event_type: z.string().nullable().meta({ description: 'Null only on a quarantined event.' }),
    participant: z.object({ external_id: z.string().nullable() }),
    payload: z.record(z.string(), z.unknown()),
    occurred_at: timestamp('When it happened (the time of receipt when absent or unparseable).'),
    received_at: timestamp('When the service accepted it.'),
    status: eventStatus,
    quarantine_reason: z
      .string()
      .nullable()
      .meta({ description: 'Why a quarantined event is not processed.' }),
    idempotency_key: z.string().nullable(),
    source: z.string().meta({
      description: '`api` (POST /v1/events) or `ingest:<ingest endpoint id>`.',
      examples: ['api'],
    }),
    is_sandbox: z
      .boolean()
      .meta({ description: 'True when received with a `svc_test_` key or test-mode endpoint.' }),
    replay_of: uuidV7(
      'The quarantined event this one replays (`POST /v1/events/{id}/replay`), or null.',
    ).nullable(),
    replayed_as: uuidV7('The event that replays this quarantined one, once replayed, or null.').nullable(),
  })
  .meta({ id: 'Event' });
export type EventDto = z.output<typeof eventShape>;

/** One event with its processing outcome and the flow runs it started (`GET /v1/events/{id}`). */
export const eventDetailShape = eventShape
  .extend({
    error: z.string().nullable().meta({
      description:
        'Why processing failed (status `failed`), e.g. the flow step that failed on every attempt.',
    }),
    processed_at: timestamp('When processing finished (`processed` or `failed`).').nullable(),
    flow_runs: z.array(flowRunShape).meta({
      description: 'Flow runs this event started, oldest first (see `GET /v1/flow-runs/{id}`).',
    }),
  })
  .meta({ id: 'EventDetail' });
export type EventDetailDto = z.output<typeof eventDetailShape>;

/** An event type seen or defined (`GET /v1/event-types`). */
export const eventTypeShape = z
  .object({
    key: z.string().meta({ examples: ['order.completed'] }),
    schema: z
      .record(z.string(), z.unknown())
      .nullable()
      .meta({ description: 'JSON Schema (draft 2020-12) that payloads are checked against, or null.' }),
    events_count: z.int().min(0),
    first_seen_at: timestamp('When the type was first seen or defined.'),
  })
  .meta({ id: 'EventType' });
export type EventTypeDto = z.output<typeof eventTypeShape>;

/** An ingest endpoint, without its secret (`POST /v1/ingest/{key}` takes its key). */
export const ingestEndpointShape = z
  .object({
    id: uuidV7('Ingest endpoint id.'),
    name: z.string(),
    key: z.string().meta({
      description: 'Goes in the path: `POST /v1/ingest/{key}`. `ing_` + 32 letters and digits.',
      examples: ['ing_3kTq9ZxW1bYc7VnP0aLm5RsD8fGh2JeU'],
    }),
    default_event_type: z
      .string()
      .nullable()
      .meta({ description: 'Used for events that arrive without `event_type`.' }),
    mode,
    created_at: timestamp('Creation time.'),
  })
  .meta({ id: 'IngestEndpoint' });
export type IngestEndpointDto = z.output<typeof ingestEndpointShape>;

/** The endpoint as created: the only time its secret is shown. */
export const ingestEndpointCreatedShape = ingestEndpointShape
  .extend({
    secret: z.string().meta({
      description: 'Signing secret for `X-Signature`. Shown only in this response; it cannot be read again.',
      examples: ['whsec_9f8e7d6c5b4a39281706f5e4d3c2b1a0'],
    }),
  })
  .meta({ id: 'IngestEndpointCreated' });
export type IngestEndpointCreatedDto = z.output<typeof ingestEndpointCreatedShape>;
