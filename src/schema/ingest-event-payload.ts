import type { WriteResult } from '../services/events/event-writer.ts';
import { ingestEvent } from '../services/events/ingest-event.ts';
import { builder } from './builder.ts';
import { withArgNames } from './errors.ts';
import { asEventStatus, EventStatus } from './event-status.ts';
import { IngestEventInput } from './ingest-event-input.ts';

/** What POST /v1/events answers with 202, plus whether it was an idempotent replay. */
export const IngestEventPayload = builder.objectRef<WriteResult>('IngestEventPayload').implement({
  description: 'The accepted event. Processing is asynchronous.',
  fields: (t) => ({
    eventId: t.exposeID('event_id'),
    status: t.field({ type: EventStatus, resolve: (r) => asEventStatus(r.status) }),
    replayed: t.exposeBoolean('replayed', {
      description:
        'True when idempotencyKey matched an earlier event: this is that event, nothing was ingested again.',
    }),
  }),
});

const FIELD_NAMES: Record<string, string> = {
  '(body)': 'input',
  event_type: 'input.eventType',
  type: 'input.type',
  participant: 'input.participant',
  occurred_at: 'input.occurredAt',
  idempotency_key: 'input.idempotencyKey',
  payload: 'input.payload',
};

/** A service field path in GraphQL's spelling; payload keys are the caller's own and stay as sent. */
function argName(field: string, shorthand: boolean): string {
  const [head = '', ...rest] = field.split('.');
  if (head === 'participant' && shorthand) return 'input.externalId';
  if (head === 'participant' && rest[0] === 'external_id') rest[0] = 'externalId';
  return [FIELD_NAMES[head] ?? `input.${head}`, ...rest].join('.');
}

builder.mutationField('ingestEvent', (t) =>
  t.field({
    type: IngestEventPayload,
    description: 'Records an event, like POST /v1/events. Needs the events:write ability.',
    args: { input: t.arg({ type: IngestEventInput, required: true }) },
    resolve: async (_root, { input }, { app, principal }) => {
      const who = await principal('events:write');
      const { participant } = input;
      const shorthand = participant == null && input.externalId != null;
      const body = {
        event_type: input.eventType,
        type: input.type,
        participant: participant
          ? {
              external_id: participant.externalId,
              email: participant.email,
              phone: participant.phone,
              name: participant.name,
            }
          : input.externalId,
        payload: input.payload,
        occurred_at: input.occurredAt,
        idempotency_key: input.idempotencyKey,
      };
      return withArgNames(
        (field) => argName(field, shorthand),
        () => ingestEvent(app.events, { workspaceId: who.workspaceId, mode: who.mode, source: 'api' }, body),
      );
    },
  }),
);
