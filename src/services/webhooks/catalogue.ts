import { z } from 'zod';
import { timestamp, uuidV7 } from '../../lib/shapes.ts';
import { type CatalogueType, RESULT_DOCS } from '../outbox/result-shapes.ts';

// The event catalogue (docs/webhooks.md#catalogue): every type a subscription can receive, with
// the JSON Schema of its `data` and an example, generated from the zod shapes the emitters are
// typed by. `webhook.test` is not listed: only the test endpoint sends it, and nobody subscribes to it.

/** One entry of `GET /v1/webhook-event-types`. */
export const webhookEventTypeShape = z
  .object({
    type: z
      .string()
      .meta({ description: 'The body’s `type` and `X-Svc-Event-Type`.', examples: ['points.changed'] }),
    description: z.string(),
    schema: z
      .record(z.string(), z.unknown())
      .meta({ description: 'JSON Schema (draft 2020-12) of the delivery body’s `data`.' }),
    example: z.record(z.string(), z.unknown()).meta({ description: 'A `data` of this type.' }),
  })
  .meta({ id: 'WebhookEventType' });

export const webhookEventTypeListShape = z
  .object({ data: z.array(webhookEventTypeShape) })
  .meta({ id: 'WebhookEventTypeList' });
export type WebhookEventTypeList = z.output<typeof webhookEventTypeListShape>;

/** The catalogued types, in the catalogue's order. */
export const CATALOGUE_TYPES = Object.keys(RESULT_DOCS) as CatalogueType[];

/**
 * The JSON Schema of a type's `data`. Objects are open (a result may gain a field without a new
 * API version, as the OpenAPI document's responses are) unless `closed`, which the catalogue
 * test uses so that a field added to a payload without its shape fails there.
 */
export function dataJsonSchema(
  type: CatalogueType,
  opts: { closed?: boolean } = {},
): Record<string, unknown> {
  return z.toJSONSchema(RESULT_DOCS[type].shape, {
    io: 'output',
    override: ({ jsonSchema }) => {
      if (jsonSchema.additionalProperties === false && !opts.closed) delete jsonSchema.additionalProperties;
      // zod's `int()` bounds every integer to the safe range: JavaScript's limit, not the API's.
      if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
      if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
    },
  }) as Record<string, unknown>;
}

/** The body POSTed for a result of `type` (docs/api.md#webhooks): the same keys in the same order. */
export const deliveryBodyShape = (type: CatalogueType) =>
  z
    .object({
      id: uuidV7(
        'The delivery id: the same on every attempt and replay, and in `webhook-id`. Deduplicate on it.',
      ),
      type: z.literal(type),
      tenant: z.string().meta({ description: 'The workspace’s slug.' }),
      created_at: timestamp('When the result was recorded.'),
      data: RESULT_DOCS[type].shape,
    })
    .meta({ description: RESULT_DOCS[type].description });

/** A few words on a type, for lists. */
export const catalogueSummary = (type: CatalogueType) => RESULT_DOCS[type].summary;

/** A whole delivery body of `type`, its `data` the catalogue's example. */
export const deliveryBodyExample = (type: CatalogueType) => ({
  id: '019a7c52-7e00-7b00-8c00-0d0e0f101112',
  type,
  tenant: 'acme-shop',
  created_at: '2026-11-22T10:00:00.123Z',
  data: RESULT_DOCS[type].example,
});

/** The headers of every delivery of `type`, beside `Content-Type: application/json` and the subscription's own. */
export const deliveryHeadersShape = (type: CatalogueType) =>
  z.object({
    'X-Svc-Signature': z.string().meta({
      description:
        '`t=<Unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, one `v1` per secret in force (the new ' +
        'one first during a rotation’s grace). Verifiable with Stripe’s library.',
      examples: ['t=1795341600,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd'],
    }),
    'X-Svc-Delivery-Id': uuidV7('The delivery id (the body’s `id`).'),
    'X-Svc-Event-Type': z.literal(type).meta({ description: 'The body’s `type`.' }),
    'webhook-id': uuidV7('Standard Webhooks: the delivery id, the same on every attempt.'),
    'webhook-timestamp': z
      .string()
      .meta({ description: 'Standard Webhooks: Unix seconds of this attempt.', examples: ['1795341600'] }),
    'webhook-signature': z.string().meta({
      description:
        'Standard Webhooks: space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw ' +
        'body>">`, one per secret in force. The key is the base64-decoded part after `whsec_` of a generated ' +
        'secret, else the secret’s UTF-8 bytes.',
      examples: ['v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4='],
    }),
  });

let cached: WebhookEventTypeList | undefined;

/** `GET /v1/webhook-event-types`: the same for every workspace (it depends only on code), built once. */
export function webhookEventTypes(): WebhookEventTypeList {
  cached ??= {
    data: CATALOGUE_TYPES.map((type) => ({
      type,
      description: RESULT_DOCS[type].description,
      schema: dataJsonSchema(type),
      example: RESULT_DOCS[type].example as Record<string, unknown>,
    })),
  };
  return cached;
}
