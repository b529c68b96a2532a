import { z } from 'zod';
import { mode, timestamp, uuidV7 } from '../../lib/shapes.ts';
import { RESULT_TYPES } from '../outbox/emit.ts';

/**
 * A subscription's status (docs/api.md#webhooks): `disabled` is set by the service only, when it
 * keeps failing or answers 410 (docs/webhooks.md#auto-disable).
 */
export const subscriptionStatus = z.enum(['active', 'paused', 'disabled']);
export const SUBSCRIPTION_STATUSES = subscriptionStatus.options;
export type SubscriptionStatus = z.output<typeof subscriptionStatus>;

/** The statuses a caller may set (PATCH): `active` also re-enables a disabled subscription. */
export const settableSubscriptionStatus = z.enum(['active', 'paused']);

/** Why the service disabled a subscription (docs/webhooks.md#auto-disable). */
export const disabledReason = z.enum(['failing', 'gone']).meta({
  description:
    '`failing`: no attempt succeeded for WEBHOOK_DISABLE_AFTER_SECONDS (default 5 days) since a failure; ' +
    '`gone`: the receiver answered 410 Gone.',
});
export type DisabledReason = z.output<typeof disabledReason>;

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
    disabled_reason: disabledReason
      .nullable()
      .meta({ description: 'Why the service disabled it (`failing` | `gone`); null unless `disabled`.' }),
    disabled_at: timestamp('When the service disabled it; null unless `disabled`.').nullable(),
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

/** The answer to a rotation: the new secret, shown only here (docs/webhooks.md#rotation). */
export const webhookSecretRotatedShape = z
  .object({
    secret: z.string().meta({
      description: 'The new signing secret. Shown only in this response; it cannot be read again.',
      examples: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw7pXtbOyB+/w='],
    }),
    previous_expires_at: timestamp(
      'When the replaced secret stops signing (now, when `grace_seconds` was 0).',
    ),
  })
  .meta({ id: 'WebhookSecretRotated' });
export type SecretRotatedDto = z.output<typeof webhookSecretRotatedShape>;

/** The answer to a recover (docs/webhooks.md#recover). */
export const webhookRecoveredShape = z
  .object({
    recovered: z.int().min(0).meta({ description: 'Dead deliveries put back to `pending`.' }),
  })
  .meta({ id: 'WebhookDeliveriesRecovered' });
export type RecoveredDto = z.output<typeof webhookRecoveredShape>;

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
