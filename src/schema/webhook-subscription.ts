import { type PageInput, pageInput } from '../lib/pagination.ts';
import { createSubscription, createSubscriptionInput } from '../services/webhooks/create-subscription.ts';
import { deleteSubscription } from '../services/webhooks/delete-subscription.ts';
import { getSubscription, listSubscriptions } from '../services/webhooks/list-subscriptions.ts';
import type { SubscriptionCreatedDto, SubscriptionDto, TestSendResult } from '../services/webhooks/shapes.ts';
import { testSubscription } from '../services/webhooks/test-subscription.ts';
import { updateSubscription, updateSubscriptionInput } from '../services/webhooks/update-subscription.ts';
import { builder } from './builder.ts';
import { CONNECTION_DESCRIPTION, connectionFrom } from './connection.ts';
import { DateTimeScalar } from './date-time.ts';
import { orNull } from './errors.ts';
import { JSONScalar } from './json.ts';
import { patchArgs, serviceInput } from './names.ts';
import { DeletePayload } from './payloads.ts';
import { mirror } from './shape.ts';

type SubscriptionStatus = SubscriptionDto['status'];

export const WebhookSubscriptionStatus = builder.enumType('WebhookSubscriptionStatus', {
  values: {
    ACTIVE: { value: 'active', description: 'Receives new results.' },
    PAUSED: {
      value: 'paused',
      description: 'Receives nothing; its pending deliveries died when it was paused.',
    },
    DISABLED: {
      value: 'disabled',
      description:
        'Set by the service only, when it kept failing or answered 410 Gone (see disabledReason); receives ' +
        'nothing until updated to ACTIVE. Refused as an input.',
    },
  } as const satisfies Record<
    Uppercase<SubscriptionStatus>,
    { value: SubscriptionStatus; description: string }
  >,
});

type DisabledReason = NonNullable<SubscriptionDto['disabled_reason']>;

export const WebhookDisabledReason = builder.enumType('WebhookDisabledReason', {
  description: 'Why the service disabled a subscription (docs/webhooks.md#auto-disable).',
  values: {
    FAILING: {
      value: 'failing',
      description: 'No attempt succeeded for WEBHOOK_DISABLE_AFTER_SECONDS (default 5 days) since a failure.',
    },
    GONE: { value: 'gone', description: 'The receiver answered 410 Gone.' },
  } as const satisfies Record<Uppercase<DisabledReason>, { value: DisabledReason; description: string }>,
});

/** A webhook subscription, the object GET /v1/webhook-subscriptions/{id} returns; never its secret. */
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
    disabledReason: t.field({
      type: WebhookDisabledReason,
      nullable: true,
      description: 'Why the service disabled it; null unless DISABLED.',
      resolve: (s) => s.disabled_reason,
    }),
    disabledAt: t.expose('disabled_at', {
      type: DateTimeScalar,
      nullable: true,
      description: 'When the service disabled it; null unless DISABLED.',
    }),
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
      // `validate` replaced the arguments with the service's parsed input (the plugin keeps their GraphQL type).
      resolve: async (_root, args, { app, who }) =>
        connectionFrom(await listSubscriptions(app, who, args as unknown as PageInput)),
    },
    { name: 'WebhookSubscriptionConnection' },
    { name: 'WebhookSubscriptionEdge' },
  ),
}));

const canWrite = { ability: 'webhooks:write' } as const;

const CreateWebhookSubscriptionPayload = builder
  .objectRef<SubscriptionCreatedDto>('CreateWebhookSubscriptionPayload')
  .implement({
    fields: (t) => ({
      webhookSubscription: t.field({ type: WebhookSubscription, resolve: (s) => s }),
      secret: t.exposeString('secret', {
        description: 'The signing secret. Shown only here; it cannot be read again.',
      }),
    }),
  });

const WebhookTestResult = builder.objectRef<TestSendResult>('WebhookTestResult').implement({
  description: 'What the receiver did with a test delivery.',
  fields: mirror((t) => ({
    ok: t.exposeBoolean('ok', { description: 'The receiver answered 2xx.' }),
    statusCode: t.exposeInt('status_code', {
      nullable: true,
      description: 'Null when no response came back.',
    }),
    responseSnippet: t.exposeString('response_snippet', {
      nullable: true,
      description: 'At most the first 1 KiB of the answer.',
    }),
    durationMs: t.exposeInt('duration_ms'),
    error: t.exposeString('error', { nullable: true }),
  })),
});

const CreateWebhookSubscriptionInput = builder
  .inputType('CreateWebhookSubscriptionInput', {
    fields: (t) => ({
      url: t.string({ required: true, description: 'Checked by the egress guard (never called here).' }),
      eventTypes: t.stringList({ required: true, description: 'Result types to deliver, or `*` for all.' }),
      secret: t.string({ description: 'Signing secret; a `whsec_…` one is generated when omitted.' }),
      headers: t.field({ type: JSONScalar, description: 'Custom headers (an object of strings).' }),
      description: t.string(),
    }),
  })
  .validate(serviceInput(createSubscriptionInput));

const UpdateWebhookSubscriptionInput = builder
  .inputType('UpdateWebhookSubscriptionInput', {
    description:
      'The fields to replace. Pausing makes its pending deliveries dead at once; ACTIVE resumes a paused ' +
      'subscription or re-enables a disabled one (clearing disabledReason and disabledAt) and delivers new ' +
      'results again. DISABLED is refused: only the service disables.',
    fields: (t) => ({
      url: t.string({ description: 'Checked by the egress guard again.' }),
      eventTypes: t.stringList(),
      headers: t.field({ type: JSONScalar }),
      description: t.string(),
      status: t.field({ type: WebhookSubscriptionStatus }),
    }),
  })
  .validate(serviceInput(updateSubscriptionInput, patchArgs));

builder.mutationFields((t) => ({
  createWebhookSubscription: t.field({
    type: CreateWebhookSubscriptionPayload,
    description:
      'Subscribes a URL to results of the key’s mode (needs webhooks:write). A URL the egress guard refuses is a ' +
      'validation_error on `url`. The signing secret is returned only here.',
    authScopes: canWrite,
    args: { input: t.arg({ type: CreateWebhookSubscriptionInput, required: true }) },
    resolve: (_root, { input }, { app, who }) => createSubscription(app, who, input),
  }),
  updateWebhookSubscription: t.field({
    type: WebhookSubscription,
    description: 'Changes, pauses or re-enables a webhook subscription (needs webhooks:write).',
    authScopes: canWrite,
    args: {
      id: t.arg.id({ required: true }),
      input: t.arg({ type: UpdateWebhookSubscriptionInput, required: true }),
    },
    resolve: (_root, { id, input }, { app, who }) => updateSubscription(app, who, String(id), input),
  }),
  deleteWebhookSubscription: t.field({
    type: DeletePayload,
    description:
      'Deletes a webhook subscription (needs webhooks:write): its pending deliveries become dead; the log stays.',
    authScopes: canWrite,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, { app, who }) => deleteSubscription(app, who, String(id)),
  }),
  testWebhookSubscription: t.field({
    type: WebhookTestResult,
    description:
      'Sends one real signed `webhook.test` POST to the subscription’s URL now (needs webhooks:write). Nothing is ' +
      'stored; a failed send is still an answer with `ok: false`.',
    authScopes: canWrite,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, { app, who }) => testSubscription(app, who, String(id)),
  }),
}));
