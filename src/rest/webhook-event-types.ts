import { webhookEventTypeListShape, webhookEventTypes } from '../services/webhooks/catalogue.ts';
import { type Operation, operation } from './operation.ts';

/** The webhook event catalogue (docs/webhooks.md#catalogue); any key may read it. */
export const webhookEventTypesOperations: Operation[] = [
  operation({
    method: 'get',
    path: '/v1/webhook-event-types',
    operationId: 'listWebhookEventTypes',
    tag: 'Webhooks',
    summary: 'The webhook event catalogue',
    description:
      'Every type a subscription can receive (by name in `event_types`, or `*`), with a description, the JSON ' +
      'Schema of its `data` and an example. The same types, with the whole delivery body and its headers, are ' +
      'in this document’s `webhooks`. `webhook.test` is not listed: only the test endpoint sends it ' +
      '(`data: { subscription_id, message }`).',
    auth: 'key',
    success: {
      status: '200',
      description: 'The catalogue: the same for every workspace and mode.',
      schema: webhookEventTypeListShape,
    },
    handle: async () => webhookEventTypes(),
  }),
];
