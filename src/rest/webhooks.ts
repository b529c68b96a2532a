import { z } from 'zod';
import { pageInput } from '../lib/pagination.ts';
import { uuidId } from '../lib/primitives.ts';
import { createSubscription, createSubscriptionInput } from '../services/webhooks/create-subscription.ts';
import { deleteSubscription } from '../services/webhooks/delete-subscription.ts';
import { getDelivery, listDeliveries, listDeliveriesInput } from '../services/webhooks/list-deliveries.ts';
import { getSubscription, listSubscriptions } from '../services/webhooks/list-subscriptions.ts';
import { recoverDeliveries, recoverDeliveriesInput } from '../services/webhooks/recover-deliveries.ts';
import { replayDelivery } from '../services/webhooks/replay-delivery.ts';
import { rotateSecret, rotateSecretInput } from '../services/webhooks/rotate-secret.ts';
import {
  webhookDeliveryDetailShape,
  webhookDeliveryShape,
  webhookRecoveredShape,
  webhookSecretRotatedShape,
  webhookSubscriptionCreatedShape,
  webhookSubscriptionShape,
  webhookTestResultShape,
} from '../services/webhooks/shapes.ts';
import { testSubscription } from '../services/webhooks/test-subscription.ts';
import { updateSubscription, updateSubscriptionInput } from '../services/webhooks/update-subscription.ts';
import { deleted, paginated } from './openapi-schemas.ts';
import { type Operation, operation } from './operation.ts';

const bySubscription = z.object({ id: uuidId('The subscription id.') });
const byDelivery = z.object({ id: uuidId('The delivery id.') });

const SIGNATURE =
  'Every delivery is a POST of `{ id, type, tenant, created_at, data }` (`tenant` is the workspace slug) with ' +
  '`Content-Type: application/json`, `X-Svc-Delivery-Id`, `X-Svc-Event-Type`, the Standard Webhooks headers ' +
  '`webhook-id` (the delivery id), `webhook-timestamp` and `webhook-signature: v1,<base64>` (HMAC-SHA256 of ' +
  '`"<webhook-id>.<webhook-timestamp>.<raw body>"`: any `standardwebhooks` library verifies it, see ' +
  'docs/webhooks.md#verifying-a-delivery), and `X-Svc-Signature: t=<unix seconds>,v1=<64 lowercase hex>` = ' +
  'HMAC-SHA256 of `"<t>.<raw body>"` keyed with the subscription secret (Stripe’s verifier accepts it). ' +
  'Verify against the raw body, in constant time, and refuse a timestamp more than 300 s from now. During a ' +
  'secret rotation each header carries one signature per secret, the new one first. The body bytes are fixed ' +
  'when the delivery is created and identical on every retry; the timestamps are fresh per attempt.';

const W = 'Webhooks';

/** Webhook subscriptions and the delivery log (docs/api.md#webhooks); abilities `webhooks:read` / `webhooks:write`. */
export const webhooksOperations: Operation[] = [
  operation({
    method: 'post',
    path: '/v1/webhook-subscriptions',
    operationId: 'createWebhookSubscription',
    tag: W,
    summary: 'Create a webhook subscription',
    description:
      'Results of the key’s mode whose type is listed (or all, with `*`) are delivered to `url`. The URL passes ' +
      'the egress guard first (refused: 422 `validation_error` on `url`; it is never called). A `whsec_…` secret ' +
      `is generated when none is given; it is returned only here.\n\n${SIGNATURE}`,
    auth: 'webhooks:write',
    body: { schema: createSubscriptionInput },
    success: {
      status: '201',
      description: 'Created, with its secret.',
      schema: webhookSubscriptionCreatedShape,
    },
    handle: ({ ctx, who, body }) => createSubscription(ctx, who, body),
  }),
  operation({
    method: 'get',
    path: '/v1/webhook-subscriptions',
    operationId: 'listWebhookSubscriptions',
    tag: W,
    summary: 'List webhook subscriptions',
    auth: 'webhooks:read',
    params: { query: pageInput },
    success: {
      status: '200',
      description: 'A page of subscriptions (without secrets).',
      schema: paginated(webhookSubscriptionShape, 'WebhookSubscription'),
    },
    paged: true,
    handle: ({ ctx, who, query }) => listSubscriptions(ctx, who, query),
  }),
  operation({
    method: 'get',
    path: '/v1/webhook-subscriptions/{id}',
    operationId: 'getWebhookSubscription',
    tag: W,
    summary: 'Show a webhook subscription',
    auth: 'webhooks:read',
    params: { path: bySubscription },
    success: {
      status: '200',
      description: 'The subscription (without its secret).',
      schema: webhookSubscriptionShape,
    },
    errors: ['not_found'],
    handle: ({ ctx, who, params }) => getSubscription(ctx, who, params.id),
  }),
  operation({
    method: 'patch',
    path: '/v1/webhook-subscriptions/{id}',
    operationId: 'updateWebhookSubscription',
    tag: W,
    summary: 'Change, pause or re-enable a webhook subscription',
    description:
      'Any of `url` (egress-checked again), `event_types`, `headers`, `description` and `status` (`active` or ' +
      '`paused`; `disabled` is set by the service only). Pausing makes its pending deliveries `dead` at once (an ' +
      'attempt already in flight may finish; nothing new is sent); `active` resumes a paused subscription or ' +
      're-enables a disabled one (clearing `disabled_reason`, `disabled_at` and its failing streak) and delivers ' +
      'new results again; dead deliveries can then be replayed or recovered. Changes apply to the next attempt ' +
      'of every delivery; the body of an existing delivery never changes.',
    auth: 'webhooks:write',
    params: { path: bySubscription },
    body: { schema: updateSubscriptionInput },
    success: { status: '200', description: 'The subscription.', schema: webhookSubscriptionShape },
    errors: ['not_found'],
    handle: ({ ctx, who, params, body }) => updateSubscription(ctx, who, params.id, body),
  }),
  operation({
    method: 'delete',
    path: '/v1/webhook-subscriptions/{id}',
    operationId: 'deleteWebhookSubscription',
    tag: W,
    summary: 'Delete a webhook subscription',
    description:
      'It receives nothing more and its pending deliveries become `dead` at once. Its deliveries stay in the log.',
    auth: 'webhooks:write',
    params: { path: bySubscription },
    success: { status: '200', description: 'Deleted.', schema: deleted },
    errors: ['not_found'],
    handle: ({ ctx, who, params }) => deleteSubscription(ctx, who, params.id),
  }),
  operation({
    method: 'post',
    path: '/v1/webhook-subscriptions/{id}/test',
    operationId: 'testWebhookSubscription',
    tag: W,
    summary: 'Send a test delivery now',
    description:
      'One real signed POST of type `webhook.test` (`data: { subscription_id, message }`) to the subscription’s ' +
      'URL, through the egress guard, with its custom headers and the same signature headers as a delivery, in ' +
      'either mode and also when paused or disabled (a 410 here does not disable it). Nothing is ' +
      'stored; the outcome is the answer (a failed send is still a 200 with `ok: false`).',
    auth: 'webhooks:write',
    params: { path: bySubscription },
    success: { status: '200', description: 'What the receiver did.', schema: webhookTestResultShape },
    errors: ['not_found'],
    handle: ({ ctx, who, params }) => testSubscription(ctx, who, params.id),
  }),
  operation({
    method: 'post',
    path: '/v1/webhook-subscriptions/{id}/rotate-secret',
    operationId: 'rotateWebhookSecret',
    tag: W,
    summary: 'Rotate a webhook subscription’s signing secret',
    description:
      'Replaces the signing secret with `secret` (or a generated `whsec_…`). The old one keeps signing beside ' +
      'the new one for `grace_seconds` (default a day, at most a week; 0 stops it at once): meanwhile ' +
      '`X-Svc-Signature` is `t=…,v1=<new>,v1=<old>` and `webhook-signature` is `v1,<new> v1,<old>`, so a ' +
      'receiver can switch secrets without losing a delivery. At most 5 old secrets are kept (the oldest is ' +
      'dropped). The new secret is returned only here (docs/webhooks.md#rotation).',
    auth: 'webhooks:write',
    params: { path: bySubscription },
    body: { schema: rotateSecretInput },
    success: {
      status: '200',
      description: 'The new secret, and when the old one stops signing.',
      schema: webhookSecretRotatedShape,
    },
    errors: ['not_found'],
    handle: ({ ctx, who, params, body }) => rotateSecret(ctx, who, params.id, body),
  }),
  operation({
    method: 'post',
    path: '/v1/webhook-subscriptions/{id}/recover',
    operationId: 'recoverWebhookDeliveries',
    tag: W,
    summary: 'Recover a webhook subscription’s dead deliveries',
    description:
      'Every `dead` delivery of the subscription created in [`since`, `until`] (`until` defaults to now) goes ' +
      'back to `pending` with its attempt count reset, oldest first, and is sent again with the same body. ' +
      '`since` reaches back 14 days at most (older: 422 on `since`). A paused or disabled subscription is 409 ' +
      '`invalid_state`: set its status to `active` first, then recover since it went down ' +
      '(docs/webhooks.md#recover).',
    auth: 'webhooks:write',
    params: { path: bySubscription },
    body: { schema: recoverDeliveriesInput },
    success: { status: '202', description: 'Queued for delivery again.', schema: webhookRecoveredShape },
    errors: ['not_found', 'invalid_state'],
    handle: ({ ctx, who, params, body }) => recoverDeliveries(ctx, who, params.id, body),
  }),
  operation({
    method: 'get',
    path: '/v1/webhook-deliveries',
    operationId: 'listWebhookDeliveries',
    tag: W,
    summary: 'List webhook deliveries',
    description: 'The delivery log, newest first. Filters are carried into `links.next` and `links.prev`.',
    auth: 'webhooks:read',
    params: { query: listDeliveriesInput },
    success: {
      status: '200',
      description: 'A page of deliveries.',
      schema: paginated(webhookDeliveryShape, 'WebhookDelivery'),
    },
    paged: true,
    handle: ({ ctx, who, query }) => listDeliveries(ctx, who, query),
  }),
  operation({
    method: 'get',
    path: '/v1/webhook-deliveries/{id}',
    operationId: 'getWebhookDelivery',
    tag: W,
    summary: 'Show a webhook delivery with its attempts',
    auth: 'webhooks:read',
    params: { path: byDelivery },
    success: { status: '200', description: 'The delivery.', schema: webhookDeliveryDetailShape },
    errors: ['not_found'],
    handle: ({ ctx, who, params }) => getDelivery(ctx, who, params.id),
  }),
  operation({
    method: 'post',
    path: '/v1/webhook-deliveries/{id}/replay',
    operationId: 'replayWebhookDelivery',
    tag: W,
    summary: 'Replay a webhook delivery',
    description:
      'A `dead` or `succeeded` delivery goes back to `pending`, due now, with its attempt count reset; the same ' +
      'body is sent again (same `id`). Any other status, or a paused or deleted subscription, is 409 `invalid_state`.',
    auth: 'webhooks:write',
    params: { path: byDelivery },
    success: { status: '200', description: 'The delivery, now pending.', schema: webhookDeliveryDetailShape },
    errors: ['not_found', 'invalid_state'],
    handle: ({ ctx, who, params }) => replayDelivery(ctx, who, params.id),
  }),
];
