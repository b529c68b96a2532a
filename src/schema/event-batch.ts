import { z } from 'zod';
import { ingestBatch, MAX_BATCH_EVENTS } from '../services/events/batch.ts';
import type { EventBatchAccepted } from '../services/events/shapes.ts';
import { builder } from './builder.ts';
import { asEventStatus, EventStatus } from './event-status.ts';
import { IngestEventInput } from './ingest-event-input.ts';
import { mirror } from './shape.ts';

type BatchItem = EventBatchAccepted['data'][number];

const IngestEventBatchResult = builder.objectRef<BatchItem>('IngestEventBatchResult').implement({
  description: "One item's result, at the item's position in the request.",
  fields: mirror((t) => ({
    index: t.exposeInt('index', { description: "The item's position in `events` (from 0)." }),
    eventId: t.exposeID('event_id', {
      description: 'The stored event (the original one when the item was a duplicate).',
    }),
    status: t.field({ type: EventStatus, resolve: (r) => asEventStatus(r.status) }),
    replayed: t.exposeBoolean('replayed', {
      description:
        'True when the item repeated an idempotency key already stored, or one earlier in the same batch: ' +
        'nothing new was stored for it and eventId is the original.',
    }),
  })),
});

/** What POST /v1/events/batch answers with 202: `data` is `results` here. */
const IngestEventBatchPayload = builder.objectRef<EventBatchAccepted>('IngestEventBatchPayload').implement({
  description: 'The accepted batch: one result per item, in request order. Processing is asynchronous.',
  fields: mirror(['data'], (t) => ({
    results: t.field({ type: [IngestEventBatchResult], resolve: (b) => b.data }),
  })),
});

builder.mutationField('ingestEventBatch', (t) =>
  t.field({
    type: IngestEventBatchPayload,
    description:
      `Records 1 to ${MAX_BATCH_EVENTS} events in one transaction, like POST /v1/events/batch: all of them, or ` +
      'none when one item is invalid (a validation_error naming it, e.g. `events.3.participant`). Each item ' +
      'goes through the same pipeline as ingestEvent (quarantine, its own idempotencyKey). The request body ' +
      'is bounded by MAX_BODY_BYTES here (REST takes a batch up to 5 MiB). Needs events:write.',
    authScopes: { ability: 'events:write' },
    args: {
      events: t.arg({
        type: [IngestEventInput],
        required: true,
        // Each item is checked (and made the service's event body) by IngestEventInput itself.
        validate: z
          .array(z.unknown())
          .min(1, 'must hold at least 1 event')
          .max(MAX_BATCH_EVENTS, `must hold at most ${MAX_BATCH_EVENTS} events`),
      }),
    },
    resolve: (_root, { events }, { app, who }) =>
      ingestBatch(app.events, { workspaceId: who.workspaceId, mode: who.mode, source: 'api' }, { events }),
  }),
);
