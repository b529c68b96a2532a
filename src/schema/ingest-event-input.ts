import { z } from 'zod';
import { builder } from './builder.ts';
import { EventParticipantInput } from './event-participant-input.ts';
import { JSONScalar } from './json.ts';

/**
 * The REST event body (SPEC 2.6 with the CONTRACT 6 shorthand) in GraphQL's spelling. GraphQL
 * has no string-or-object input, so the shorthand `participant: "<external id>"` is `externalId`.
 */
export const IngestEventInput = builder.inputType('IngestEventInput', {
  description:
    'An event, as POST /v1/events takes it. A missing eventType or participant external id is not an ' +
    'error: the event is stored as quarantined.',
  fields: (t) => ({
    eventType: t.string({ description: 'Dot-notation key, e.g. order.completed.' }),
    type: t.string({ description: 'Shorthand for eventType.' }),
    participant: t.field({ type: EventParticipantInput }),
    externalId: t.string({ description: 'Shorthand for participant: { externalId }.' }),
    payload: t.field({ type: JSONScalar, description: 'A JSON object; its fields are available to flows.' }),
    occurredAt: t.string({
      description: 'ISO 8601; defaults to now, and an unparseable value falls back to now.',
    }),
    idempotencyKey: t.string({
      description: 'Deduplicates retries: the same key answers with the first event.',
    }),
  }),
  validate: z
    .custom<{ participant?: unknown; externalId?: unknown }>()
    .refine((input) => input.participant == null || input.externalId == null, {
      message: 'conflicts with participant; send one of them',
      path: ['externalId'],
    }),
});
