import { z } from 'zod';
import { mode, timestamp, uuidV7 } from '../../lib/shapes.ts';
import { RESULT_TYPES } from '../outbox/emit.ts';

/** A subscription's status (docs/api.md#webhooks). */
export const subscriptionStatus = z.enum(['active', 'paused']);
export const SUBSCRIPTION_STATUSES = subscriptionStatus.options;
export type SubscriptionStatus = z.output<typeof subscriptionStatus>;

/** A delivery's status: the one list the filter, the shape, the entity's column and the doors use. */
export const webhookDeliveryStatus = z.enum(['pending', 'succeeded', 'dead', 'simulated']).meta({
  id: 'WebhookDeliveryStatus',
  description:
    '`pending` (waiting for its next attempt), `succeeded` (a 2xx came back), `dead` (the last retry failed, ' +
    'or the subscription was paused or deleted), `simulated` (test mode: logged, never POSTed).',
});
export const DELIVERY_STATUSES = webhookDeliveryStatus.options;
export type DeliveryStatus = z.output<typeof webhookDeliveryStatus>;

/** Result types a subscription can ask for, or `*` for all of them. */
export const subscribedType = z.enum([...RESULT_TYPES, '*']);
export const resultType = z.enum(RESULT_TYPES);

/** A webhook subscription (docs/api.md#webhooks), never with its secret. */
export const webhookSubscriptionShape = z
  .object({
    id: uuidV7('Subscription id (UUIDv7).'),
    url: z.string().meta({ format: 'uri' }),
    event_types: z.array(subscribedType),
    headers: z
      .record(z.string(), z.string())
      .meta({ description: 'Custom headers sent with every delivery.' }),
    description: z.string().nullable(),
    status: subscriptionStatus,
    mode,
    created_at: timestamp('Creation time.'),
    updated_at: timestamp('Last change.'),
  })
  .meta({ id: 'WebhookSubscription' });
export type SubscriptionDto = z.output<typeof webhookSubscriptionShape>;

/** The answer to a create: the only time the secret is shown. */
export const webhookSubscriptionCreatedShape = webhookSubscriptionShape
  .extend({
    secret: z.string().meta({
      description: 'The signing secret. Shown only in this response; it cannot be read again.',
      examples: ['whsec_9f8e7d6c5b4a39281706f5e4d3c2b1a0'],
    }),
  })
  .meta({ id: 'WebhookSubscriptionCreated' });
export type SubscriptionCreatedDto = z.output<typeof webhookSubscriptionCreatedShape>;

/** What a test send to a subscription's receiver came to. */
export const webhookTestResultShape = z
  .object({
    ok: z.boolean().meta({ description: 'The receiver answered 2xx.' }),
    status_code: z.int().nullable().meta({ description: 'Null when no response came back.' }),
    response_snippet: z.string().nullable().meta({ description: 'At most the first 1 KiB of the answer.' }),
    duration_ms: z.int().min(0),
    error: z.string().nullable().meta({
      description: 'Why it failed: a non-2xx/3xx status, a timeout, a refused connection or an egress block.',
    }),
  })
  .meta({ id: 'WebhookTestResult' });
export type TestSendResult = z.output<typeof webhookTestResultShape>;

/** One result on its way to one subscription (docs/api.md#webhooks). */
export const webhookDeliveryShape = z
  .object({
    id: uuidV7('Delivery id: the body’s `id` and the `X-Svc-Delivery-Id` header. Receivers dedupe on it.'),
    subscription_id: uuidV7('The subscription it goes to.'),
    result_id: uuidV7(
      'The result (outbox row) it carries; one result fans out to every matching subscription.',
    ),
    type: resultType,
    status: webhookDeliveryStatus,
    attempt_count: z.int().min(0).meta({ description: 'Attempts since creation or the last replay.' }),
    next_attempt_at: timestamp('When pending: when the next attempt is due.').nullable(),
    last_attempt_at: timestamp('When the last attempt was made.').nullable(),
    last_status_code: z.int().nullable(),
    last_error: z.string().nullable(),
    created_at: timestamp('When the result was committed.'),
    updated_at: timestamp('Last change.'),
  })
  .meta({ id: 'WebhookDelivery' });
export type DeliveryDto = z.output<typeof webhookDeliveryShape>;

export const webhookAttemptShape = z
  .object({
    number: z.int().min(1).meta({ description: '1 for the initial attempt; a replay starts again at 1.' }),
    attempted_at: timestamp('When the POST started.'),
    status_code: z
      .int()
      .nullable()
      .meta({ description: 'Null on a timeout, connection error or egress block.' }),
    response_snippet: z.string().nullable().meta({ description: 'At most the first 1 KiB of the answer.' }),
    duration_ms: z.int().min(0),
    error: z.string().nullable(),
  })
  .meta({ id: 'WebhookAttempt' });
export type AttemptDto = z.output<typeof webhookAttemptShape>;

/**
 * The body every delivery POSTs (its exact bytes are what is signed). Built in SQL by the outbox
 * (emitResultsCtes); test/sql-json-shapes.test.ts parses real ones with this shape, strictly.
 */
export const deliveryPayloadShape = z
  .object({
    id: z.string(),
    type: z.string(),
    tenant: z.string(),
    created_at: z.string(),
    data: z.record(z.string(), z.unknown()),
  })
  .meta({ description: 'The body as sent (its exact bytes are what is signed).' });
export type DeliveryPayload = z.output<typeof deliveryPayloadShape>;

export const webhookDeliveryDetailShape = webhookDeliveryShape
  .extend({
    payload: deliveryPayloadShape,
    attempts: z
      .array(webhookAttemptShape)
      .meta({ description: 'Every attempt, oldest first (replays included).' }),
  })
  .meta({ id: 'WebhookDeliveryDetail' });
export type DeliveryDetailDto = z.output<typeof webhookDeliveryDetailShape>;
