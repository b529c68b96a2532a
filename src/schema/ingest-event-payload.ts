import type { WriteResult } from '../services/events/event-writer.ts';
import { ingestEvent } from '../services/events/ingest-event.ts';
import { builder } from './builder.ts';
import { asEventStatus, EventStatus } from './event-status.ts';
import { IngestEventInput } from './ingest-event-input.ts';
import { mirror } from './shape.ts';

/** What POST /v1/events answers with 202, plus whether it was an idempotent replay. */
export const IngestEventPayload = builder.objectRef<WriteResult>('IngestEventPayload').implement({
  description: 'The accepted event. Processing is asynchronous.',
  fields: mirror((t) => ({
    eventId: t.exposeID('event_id'),
    status: t.field({ type: EventStatus, resolve: (r) => asEventStatus(r.status) }),
    replayed: t.exposeBoolean('replayed', {
      description:
        'True when idempotencyKey matched an earlier event: this is that event, nothing was ingested again.',
    }),
  })),
});

builder.mutationField('ingestEvent', (t) =>
  t.field({
    type: IngestEventPayload,
    description: 'Records an event, like POST /v1/events. Needs the events:write ability.',
    authScopes: { ability: 'events:write' },
    args: { input: t.arg({ type: IngestEventInput, required: true }) },
    resolve: (_root, { input }, { app, who }) =>
      ingestEvent(app.events, { workspaceId: who.workspaceId, mode: who.mode, source: 'api' }, input),
  }),
);
