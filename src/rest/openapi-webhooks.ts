import { z } from 'zod';
import { pageInput } from '../lib/pagination.ts';
import { RESULT_TYPES } from '../services/outbox/emit.ts';
import { DELIVERY_STATUSES, listDeliveriesInput } from '../services/webhooks/list-deliveries.ts';
import { createSubscriptionInput, updateSubscriptionInput } from '../services/webhooks/subscription-input.ts';
import type { OperationDoc } from './openapi.ts';
import { deleted, mode, paginated } from './openapi-schemas.ts';

const timestamp = (description: string) =>
  z.string().meta({ format: 'date-time', description, examples: ['2026-11-22T10:00:00.000Z'] });
const uuidV7 = (description: string) =>
  z.string().meta({ format: 'uuid', description, examples: ['019a7c52-6f1e-7b3a-9c41-2d5e8f0a1b2c'] });

const TAG = 'Webhooks';

const SIGNATURE =
  'Every delivery is a POST of `{ id, type, tenant, created_at, data }` (`tenant` is the workspace slug) with ' +
  '`Content-Type: application/json`, `X-Svc-Delivery-Id`, `X-Svc-Event-Type` and `X-Svc-Signature: ' +
  't=<unix seconds>,v1=<64 lowercase hex>` = HMAC-SHA256 of `"<t>.<raw body>"` keyed with the subscription ' +
  'secret. Verify against the raw body, in constant time, and refuse a `t` more than 300 s from now. The ' +
  'body bytes are fixed when the delivery is created and identical on every retry; `t` is fresh per attempt.';

export const webhookSubscription = z
  .object({
    id: uuidV7('Subscription id (UUIDv7).'),
    url: z.string().meta({ format: 'uri' }),
    event_types: z.array(z.enum([...RESULT_TYPES, '*'])),
    headers: z
      .record(z.string(), z.string())
      .meta({ description: 'Custom headers sent with every delivery.' }),
    description: z.string().nullable(),
    status: z.enum(['active', 'paused']),
    mode,
    created_at: timestamp('Creation time.'),
    updated_at: timestamp('Last change.'),
  })
  .meta({ id: 'WebhookSubscription' });

export const webhookSubscriptionCreated = webhookSubscription
  .extend({
    secret: z.string().meta({
      description: 'The signing secret. Shown only in this response; it cannot be read again.',
      examples: ['whsec_9f8e7d6c5b4a39281706f5e4d3c2b1a0'],
    }),
  })
  .meta({ id: 'WebhookSubscriptionCreated' });

export const webhookTestResult = z
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

export const webhookDeliveryStatus = z.enum(DELIVERY_STATUSES).meta({
  id: 'WebhookDeliveryStatus',
  description:
    '`pending` (waiting for its next attempt), `succeeded` (a 2xx came back), `dead` (the last retry failed, ' +
    'or the subscription was paused or deleted), `simulated` (test mode: logged, never POSTed).',
});

export const webhookDelivery = z
  .object({
    id: uuidV7('Delivery id: the body’s `id` and the `X-Svc-Delivery-Id` header. Receivers dedupe on it.'),
    subscription_id: uuidV7('The subscription it goes to.'),
    result_id: uuidV7(
      'The result (outbox row) it carries; one result fans out to every matching subscription.',
    ),
    type: z.enum(RESULT_TYPES),
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

export const webhookAttempt = z
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

export const webhookDeliveryDetail = webhookDelivery
  .extend({
    payload: z
      .object({
        id: z.string(),
        type: z.string(),
        tenant: z.string(),
        created_at: z.string(),
        data: z.record(z.string(), z.unknown()),
      })
      .meta({ description: 'The body as sent (its exact bytes are what is signed).' }),
    attempts: z
      .array(webhookAttempt)
      .meta({ description: 'Every attempt, oldest first (replays included).' }),
  })
  .meta({ id: 'WebhookDeliveryDetail' });

const idParam = (what: string) =>
  z.object({
    id: z.uuid().meta({ param: { description: `The ${what} id. An unknown or malformed id is a 404.` } }),
  });

export const webhookOperations: OperationDoc[] = [
  // --- src/rest/webhooks.ts ---
  {
    method: 'post',
    path: '/v1/webhook-subscriptions',
    operationId: 'createWebhookSubscription',
    tag: TAG,
    summary: 'Create a webhook subscription',
    description:
      'Results of the key’s mode whose type is listed (or all, with `*`) are delivered to `url`. The URL passes ' +
      'the egress guard first (refused: 422 `validation_error` on `url`; it is never called). A `whsec_…` secret ' +
      `is generated when none is given; it is returned only here.\n\n${SIGNATURE}`,
    auth: 'webhooks:write',
    body: { schema: createSubscriptionInput },
    success: { status: '201', description: 'Created, with its secret.', schema: webhookSubscriptionCreated },
  },
  {
    method: 'get',
    path: '/v1/webhook-subscriptions',
    operationId: 'listWebhookSubscriptions',
    tag: TAG,
    summary: 'List webhook subscriptions',
    auth: 'webhooks:read',
    params: { query: pageInput },
    success: {
      status: '200',
      description: 'A page of subscriptions (without secrets).',
      schema: paginated(webhookSubscription, 'WebhookSubscription'),
    },
  },
  {
    method: 'get',
    path: '/v1/webhook-subscriptions/{id}',
    operationId: 'getWebhookSubscription',
    tag: TAG,
    summary: 'Show a webhook subscription',
    auth: 'webhooks:read',
    params: { path: idParam('subscription') },
    success: {
      status: '200',
      description: 'The subscription (without its secret).',
      schema: webhookSubscription,
    },
    errors: ['not_found'],
  },
  {
    method: 'patch',
    path: '/v1/webhook-subscriptions/{id}',
    operationId: 'updateWebhookSubscription',
    tag: TAG,
    summary: 'Change or pause a webhook subscription',
    description:
      'Any of `url` (egress-checked again), `event_types`, `headers`, `description` and `status`. Pausing makes ' +
      'its pending deliveries `dead` at once (an attempt already in flight may finish; nothing new is sent); ' +
      'resuming delivers new results again, and dead deliveries can be replayed. Changes apply to the next ' +
      'attempt of every delivery; the body of an existing delivery never changes.',
    auth: 'webhooks:write',
    params: { path: idParam('subscription') },
    body: { schema: updateSubscriptionInput },
    success: { status: '200', description: 'The subscription.', schema: webhookSubscription },
    errors: ['not_found'],
  },
  {
    method: 'delete',
    path: '/v1/webhook-subscriptions/{id}',
    operationId: 'deleteWebhookSubscription',
    tag: TAG,
    summary: 'Delete a webhook subscription',
    description:
      'It receives nothing more and its pending deliveries become `dead` at once. Its deliveries stay in the log.',
    auth: 'webhooks:write',
    params: { path: idParam('subscription') },
    success: { status: '200', description: 'Deleted.', schema: deleted },
    errors: ['not_found'],
  },
  {
    method: 'post',
    path: '/v1/webhook-subscriptions/{id}/test',
    operationId: 'testWebhookSubscription',
    tag: TAG,
    summary: 'Send a test delivery now',
    description:
      'One real signed POST of type `webhook.test` (`data: { subscription_id, message }`) to the subscription’s ' +
      'URL, through the egress guard, with its custom headers, in either mode and also when paused. Nothing is ' +
      'stored; the outcome is the answer (a failed send is still a 200 with `ok: false`).',
    auth: 'webhooks:write',
    params: { path: idParam('subscription') },
    success: { status: '200', description: 'What the receiver did.', schema: webhookTestResult },
    errors: ['not_found'],
  },
  {
    method: 'get',
    path: '/v1/webhook-deliveries',
    operationId: 'listWebhookDeliveries',
    tag: TAG,
    summary: 'List webhook deliveries',
    description: 'The delivery log, newest first. Filters are carried into `links.next` and `links.prev`.',
    auth: 'webhooks:read',
    params: { query: listDeliveriesInput },
    success: {
      status: '200',
      description: 'A page of deliveries.',
      schema: paginated(webhookDelivery, 'WebhookDelivery'),
    },
  },
  {
    method: 'get',
    path: '/v1/webhook-deliveries/{id}',
    operationId: 'getWebhookDelivery',
    tag: TAG,
    summary: 'Show a webhook delivery with its attempts',
    auth: 'webhooks:read',
    params: { path: idParam('delivery') },
    success: { status: '200', description: 'The delivery.', schema: webhookDeliveryDetail },
    errors: ['not_found'],
  },
  {
    method: 'post',
    path: '/v1/webhook-deliveries/{id}/replay',
    operationId: 'replayWebhookDelivery',
    tag: TAG,
    summary: 'Replay a webhook delivery',
    description:
      'A `dead` or `succeeded` delivery goes back to `pending`, due now, with its attempt count reset; the same ' +
      'body is sent again (same `id`). Any other status, or a paused or deleted subscription, is 409 `invalid_state`.',
    auth: 'webhooks:write',
    params: { path: idParam('delivery') },
    success: { status: '200', description: 'The delivery, now pending.', schema: webhookDeliveryDetail },
    errors: ['not_found', 'invalid_state'],
  },
];
