import { RESULT_TYPES } from '../services/outbox/emit.ts';
import {
  getDeliveries,
  getDelivery,
  type ListDeliveriesInput,
  listDeliveries,
  listDeliveriesInput,
} from '../services/webhooks/list-deliveries.ts';
import { replayDelivery } from '../services/webhooks/replay-delivery.ts';
import type { AttemptDto, DeliveryDetailDto, DeliveryDto } from '../services/webhooks/shapes.ts';
import { builder } from './builder.ts';
import { CONNECTION_DESCRIPTION, connectionFrom } from './connection.ts';
import { DateTimeScalar } from './date-time.ts';
import { orNull } from './errors.ts';
import { JSONScalar } from './json.ts';
import { requestLoader } from './loaders.ts';
import { serviceInput } from './names.ts';
import { mirror } from './shape.ts';

type Status = DeliveryDto['status'];

export const WebhookDeliveryStatus = builder.enumType('WebhookDeliveryStatus', {
  values: {
    PENDING: { value: 'pending', description: 'Waiting for its next attempt.' },
    SUCCEEDED: { value: 'succeeded', description: 'The receiver answered 2xx.' },
    DEAD: { value: 'dead', description: 'The last retry failed, or the subscription was paused or deleted.' },
    SIMULATED: { value: 'simulated', description: 'Test mode: logged, never POSTed.' },
  } as const satisfies Record<Uppercase<Status>, { value: Status; description: string }>,
});

export const WebhookAttempt = builder.objectRef<AttemptDto>('WebhookAttempt').implement({
  description: 'One POST of a delivery and what came back.',
  fields: mirror((t) => ({
    number: t.exposeInt('number', {
      description: '1 for the initial attempt; a replay starts again at 1.',
    }),
    attemptedAt: t.expose('attempted_at', { type: DateTimeScalar }),
    statusCode: t.exposeInt('status_code', { nullable: true }),
    responseSnippet: t.exposeString('response_snippet', {
      nullable: true,
      description: 'At most the first 1 KiB of the answer.',
    }),
    durationMs: t.exposeInt('duration_ms'),
    error: t.exposeString('error', { nullable: true }),
  })),
});

type DeliveryNode = DeliveryDto | DeliveryDetailDto;
/** Bodies and attempts of a listed page of deliveries: one load for both fields, per request. */
const details = requestLoader((ids, { app, who }) => getDeliveries(app, who, ids));
const detailOf = (d: DeliveryNode, ctx: Parameters<typeof details>[0]) =>
  'attempts' in d ? d : details(ctx).load(d.id);
const canRead = { ability: 'webhooks:read' } as const;

/** A delivery of one result to one subscription, as GET /v1/webhook-deliveries returns it. */
export const WebhookDelivery = builder.objectRef<DeliveryNode>('WebhookDelivery').implement({
  description: 'One result on its way to one subscription: status, schedule and attempts.',
  // Like the REST list, the delivery's updated_at is not printed.
  fields: mirror(['updated_at'], (t) => ({
    id: t.exposeID('id', { description: 'The body’s `id` and the X-Svc-Delivery-Id header.' }),
    subscriptionId: t.exposeID('subscription_id'),
    resultId: t.exposeID('result_id'),
    type: t.exposeString('type'),
    status: t.field({ type: WebhookDeliveryStatus, resolve: (d) => d.status }),
    attemptCount: t.exposeInt('attempt_count'),
    nextAttemptAt: t.expose('next_attempt_at', { type: DateTimeScalar, nullable: true }),
    lastAttemptAt: t.expose('last_attempt_at', { type: DateTimeScalar, nullable: true }),
    lastStatusCode: t.exposeInt('last_status_code', { nullable: true }),
    lastError: t.exposeString('last_error', { nullable: true }),
    createdAt: t.expose('created_at', { type: DateTimeScalar }),
    payload: t.field({
      type: JSONScalar,
      description: 'The body as sent: `{ id, type, tenant, created_at, data }`.',
      authScopes: canRead,
      resolve: async (d, _args, ctx) => (await detailOf(d, ctx)).payload,
    }),
    attempts: t.field({
      type: [WebhookAttempt],
      description: 'Every attempt, oldest first.',
      authScopes: canRead,
      resolve: async (d, _args, ctx) => (await detailOf(d, ctx)).attempts,
    }),
  })),
});

builder.queryFields((t) => ({
  webhookDelivery: t.field({
    type: WebhookDelivery,
    nullable: true,
    description:
      "One webhook delivery of the key's workspace and mode, with its attempts, or null. Needs webhooks:read.",
    authScopes: canRead,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, { app, who }) => orNull(getDelivery(app, who, String(args.id))),
  }),
  webhookDeliveries: t.connection(
    {
      type: WebhookDelivery,
      description: `The webhook delivery log of the key's workspace and mode (needs webhooks:read). ${CONNECTION_DESCRIPTION}`,
      args: {
        subscriptionId: t.arg.id(),
        status: t.arg({ type: WebhookDeliveryStatus }),
        type: t.arg.string({ description: `One of ${RESULT_TYPES.join(', ')}.` }),
      },
      authScopes: canRead,
      validate: serviceInput(listDeliveriesInput),
      // `validate` replaced the arguments with the service's parsed input (the plugin keeps their GraphQL type).
      resolve: async (_root, args, { app, who }) =>
        connectionFrom(await listDeliveries(app, who, args as unknown as ListDeliveriesInput)),
    },
    { name: 'WebhookDeliveryConnection' },
    { name: 'WebhookDeliveryEdge' },
  ),
}));

builder.mutationFields((t) => ({
  replayWebhookDelivery: t.field({
    type: WebhookDelivery,
    description:
      'Sends a dead or succeeded delivery again (needs webhooks:write): back to pending, due now, the same body. ' +
      'Any other status, or a paused or deleted subscription, is invalid_state.',
    authScopes: { ability: 'webhooks:write' },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, { app, who }) => replayDelivery(app, who, String(id)),
  }),
}));
