import { pageInput } from '../lib/pagination.ts';
import { getSubscription, listSubscriptions } from '../services/webhooks/list-subscriptions.ts';
import type { SubscriptionDto } from '../services/webhooks/shapes.ts';
import { builder } from './builder.ts';
import { CONNECTION_DESCRIPTION, connectionFrom } from './connection.ts';
import { DateTimeScalar } from './date-time.ts';
import { orNull } from './errors.ts';
import { JSONScalar } from './json.ts';
import { serviceInput } from './names.ts';
import { mirror } from './shape.ts';

type SubscriptionStatus = SubscriptionDto['status'];

export const WebhookSubscriptionStatus = builder.enumType('WebhookSubscriptionStatus', {
  values: {
    ACTIVE: { value: 'active', description: 'Receives new results.' },
    PAUSED: {
      value: 'paused',
      description: 'Receives nothing; its pending deliveries died when it was paused.',
    },
  } as const satisfies Record<
    Uppercase<SubscriptionStatus>,
    { value: SubscriptionStatus; description: string }
  >,
});

/** A webhook subscription (CONTRACT 10), the object GET /v1/webhook-subscriptions/{id} returns; never its secret. */
export const WebhookSubscription = builder.objectRef<SubscriptionDto>('WebhookSubscription').implement({
  description: 'Where results of one workspace and mode are POSTed, signed with its secret.',
  // `mode` is always the key's own mode here.
  fields: mirror(['mode'], (t) => ({
    id: t.exposeID('id', { description: 'UUIDv7.' }),
    url: t.exposeString('url'),
    eventTypes: t.exposeStringList('event_types', {
      description: 'Result types delivered, or `*` for all.',
    }),
    headers: t.expose('headers', {
      type: JSONScalar,
      description: 'Custom headers (an object of strings).',
    }),
    description: t.exposeString('description', { nullable: true }),
    status: t.field({ type: WebhookSubscriptionStatus, resolve: (s) => s.status }),
    createdAt: t.expose('created_at', { type: DateTimeScalar }),
    updatedAt: t.expose('updated_at', { type: DateTimeScalar }),
  })),
});

builder.queryFields((t) => ({
  webhookSubscription: t.field({
    type: WebhookSubscription,
    nullable: true,
    description: "One webhook subscription of the key's workspace and mode, or null. Needs webhooks:read.",
    authScopes: { ability: 'webhooks:read' },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, { app, who }) => orNull(getSubscription(app, who, String(args.id))),
  }),
  webhookSubscriptions: t.connection(
    {
      type: WebhookSubscription,
      description: `Webhook subscriptions of the key's workspace and mode (needs webhooks:read). ${CONNECTION_DESCRIPTION}`,
      authScopes: { ability: 'webhooks:read' },
      validate: serviceInput(pageInput),
      resolve: async (_root, args, { app, who }) => connectionFrom(await listSubscriptions(app, who, args)),
    },
    { name: 'WebhookSubscriptionConnection' },
    { name: 'WebhookSubscriptionEdge' },
  ),
}));
