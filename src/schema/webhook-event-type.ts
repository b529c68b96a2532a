import { type WebhookEventTypeList, webhookEventTypes } from '../services/webhooks/catalogue.ts';
import { builder } from './builder.ts';
import { JSONScalar } from './json.ts';
import { mirror } from './shape.ts';

/** One entry of the webhook event catalogue (docs/webhooks.md#catalogue), as GET /v1/webhook-event-types lists it. */
const WebhookEventType = builder
  .objectRef<WebhookEventTypeList['data'][number]>('WebhookEventType')
  .implement({
    description: 'A type a subscription can receive (by name in eventTypes, or `*`).',
    fields: mirror((t) => ({
      type: t.exposeString('type', { description: 'The delivery body’s `type` and X-Svc-Event-Type.' }),
      description: t.exposeString('description'),
      schema: t.expose('schema', {
        type: JSONScalar,
        description: 'JSON Schema (draft 2020-12) of the delivery body’s `data`.',
      }),
      example: t.expose('example', { type: JSONScalar, description: 'A `data` of this type.' }),
    })),
  });

builder.queryField('webhookEventTypes', (t) =>
  t.field({
    type: [WebhookEventType],
    description:
      'The webhook event catalogue, like GET /v1/webhook-event-types: every result type with a description, the ' +
      'JSON Schema of its `data` and an example; the same for every workspace (any API key).',
    authScopes: { apiKey: true },
    resolve: () => webhookEventTypes().data,
  }),
);
