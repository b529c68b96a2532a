import { z } from 'zod';
import { eventBody, LIMITS } from '../services/events/event-input.ts';
import { builder } from './builder.ts';
import { JSONScalar } from './json.ts';
import { serviceInput, snakeArgs } from './names.ts';

/** The event's `participant`: who the event happened to, with PII that only fills empty fields. */
const EventParticipantInput = builder.inputType('EventParticipantInput', {
  description: 'Who the event happened to. email, phone and name only fill fields that are still empty.',
  fields: (t) => ({
    externalId: t.string({ description: "The caller's identifier; an event without one is quarantined." }),
    email: t.string(),
    phone: t.string(),
    name: t.string(),
  }),
});

/**
 * The REST event body (docs/api.md#event-ingest-rules, shorthand included) in GraphQL's spelling. GraphQL
 * has no string-or-object input, so the shorthand `participant: "<external id>"` is `externalId`.
 * Validated by the service's own `eventBody` schema, it reaches the resolver as that body.
 */
export const IngestEventInput = builder
  .inputType('IngestEventInput', {
    description:
      'An event, as POST /v1/events takes it. A missing eventType or participant external id is not an ' +
      'error: the event is stored as quarantined.',
    fields: (t) => ({
      eventType: t.string({ description: 'Dot-notation key, e.g. order.completed.' }),
      type: t.string({ description: 'Shorthand for eventType.' }),
      participant: t.field({ type: EventParticipantInput }),
      // The body's shorthand `participant` string, checked under the name it was sent as.
      externalId: t.string({
        description: 'Shorthand for participant: { externalId }.',
        validate: z.string().max(LIMITS.externalIdLength),
      }),
      payload: t.field({
        type: JSONScalar,
        description: 'A JSON object; its fields are available to flows.',
      }),
      occurredAt: t.string({
        description: 'ISO 8601; defaults to now, and an unparseable value falls back to now.',
      }),
      idempotencyKey: t.string({
        description: 'Deduplicates retries: the same key answers with the first event.',
      }),
    }),
  })
  .validate(
    z
      .custom<Record<string, unknown>>()
      .refine((input) => input.participant == null || input.externalId == null, {
        message: 'conflicts with participant; send one of them',
        path: ['externalId'],
      })
      .pipe(
        serviceInput(eventBody, ({ externalId, participant, ...rest }) => ({
          ...snakeArgs(rest),
          participant: participant ? snakeArgs(participant as Record<string, unknown>) : externalId,
        })),
      ),
  );
