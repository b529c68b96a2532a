import { z } from 'zod';
import { ERROR_TYPES, type ErrorType } from '../errors.ts';
import { MAX_LIMIT } from '../lib/pagination.ts';
import { errorStatus } from './error-status.ts';

// The document's shared pieces: the page and error envelopes and the common headers. Response
// shapes of the domains live in `src/services/<domain>/shapes.ts`.
// `id` in `.meta()` makes a schema a component of the document (a `$ref` wherever it is used).

/** Still imported by the webhooks declarations until they move to their shapes.ts. */
export { mode } from '../lib/shapes.ts';

export const deleted = z.object({ id: z.string(), deleted: z.literal(true) }).meta({ id: 'Deleted' });

// --- Pagination (docs/api.md#pagination) ---

export const pageLinks = z
  .object({
    first: z.null().meta({ description: 'Always null.' }),
    last: z.null().meta({ description: 'Always null.' }),
    prev: z.string().nullable().meta({ format: 'uri', description: 'The previous (newer) page, or null.' }),
    next: z.string().nullable().meta({
      format: 'uri',
      description: 'The next (older) page; null on the last page. Carries the filters.',
    }),
  })
  .meta({ id: 'PageLinks' });

export const pageMeta = z
  .object({
    path: z.string().meta({ format: 'uri', description: 'Base URL of the collection.' }),
    per_page: z.int().min(1).max(MAX_LIMIT).meta({ description: 'Page size used.' }),
    next_cursor: z.string().nullable().meta({ description: 'Opaque; pass back as `cursor`.' }),
    prev_cursor: z.string().nullable().meta({ description: 'Opaque; pass back as `cursor`.' }),
  })
  .meta({ id: 'PageMeta' });

const pages = new Map<string, z.ZodType>();

/**
 * The pagination envelope around `item`, as the component `<name>Page`. Memoised by name: a
 * component id can be registered only once.
 */
export function paginated(item: z.ZodType, name: string): z.ZodType {
  let page = pages.get(name);
  if (!page) {
    page = z
      .object({ data: z.array(item).max(MAX_LIMIT), links: pageLinks, meta: pageMeta })
      .meta({ id: `${name}Page`, description: `A page of ${name} objects, newest first.` });
    pages.set(name, page);
  }
  return page;
}

// --- Errors (docs/api.md#errors) ---

export const fieldError = z
  .object({
    field: z.string().meta({
      description: 'Dot path of the offending field (`(body)` for the body as a whole).',
      examples: ['participant.external_id'],
    }),
    message: z.string(),
  })
  .meta({ id: 'FieldError' });

/** When each error type is returned; a `Record` so a new type in src/errors.ts fails typecheck until described. */
const whenReturned: Record<ErrorType, string> = {
  invalid_request_error:
    'The body is not valid UTF-8 JSON, not a JSON object, or has an unsupported Content-Type; or a cursor was tampered with.',
  authentication_error:
    'No bearer key, an unrecognised prefix, or a key that is invalid or revoked; for ingest, an unknown key or a missing, malformed, stale or wrong `X-Signature`.',
  permission_error: 'The key is valid but lacks the ability the route needs.',
  not_found: 'Unknown route or resource.',
  idempotency_conflict: 'An idempotency key was reused with a different request body.',
  invalid_state: 'The resource is not in a state that allows this action.',
  payload_too_large: 'The body is larger than `MAX_BODY_BYTES` (default 262144).',
  validation_error: 'A field failed validation; `errors` lists each one.',
  insufficient_points: "The participant's balance does not cover the cost.",
  out_of_stock: 'No stock or no codes left.',
  reward_unavailable: 'The reward is inactive or outside its start/end window.',
  external_fulfilment_failed:
    'The external fulfilment endpoint failed; the debit was reversed, stock restored and the redemption cancelled.',
  already_reversed: 'The ledger entry has already been reversed.',
  tier_required: "The reward needs a tier level (`min_tier`) above the participant's.",
  rate_limit_error: "The key's per-minute request limit is used up; retry after `Retry-After` seconds.",
  api_error: 'Something went wrong on our side; the `X-Request-Id` identifies it in the logs.',
};

/** Fields some error types add beside `type` and `message`. */
const extraFields: Partial<Record<ErrorType, Record<string, z.ZodType>>> = {
  validation_error: { errors: z.array(fieldError).min(1) },
  insufficient_points: {
    balance: z.int().meta({ description: 'Spendable points.' }),
    cost_points: z.int().meta({ description: 'What the reward costs.' }),
  },
  payload_too_large: { limit_bytes: z.int().meta({ description: 'The body size limit.' }) },
  external_fulfilment_failed: {
    redemption_id: z.int().meta({ description: 'The redemption, now `cancelled` and refunded.' }),
  },
  permission_error: {
    required_ability: z.string().optional().meta({ description: 'The ability the operation needs.' }),
  },
  already_reversed: { entry_id: z.int().meta({ description: 'The entry that was already reversed.' }) },
  tier_required: {
    min_tier: z.string().meta({ description: 'The lowest level (its key) that may redeem it.' }),
  },
  invalid_state: {
    status: z
      .string()
      .optional()
      .meta({ description: 'The current status of the resource, when it has one.' }),
  },
};

const componentName = (type: string) => {
  const pascal = type.replace(/(^|_)([a-z])/g, (_m, _sep, c: string) => c.toUpperCase());
  return pascal.endsWith('Error') ? pascal : `${pascal}Error`;
};

/** One `error` object schema per type, each a component (`ValidationError`, `NotFoundError`, …). */
export const errorObjects = {} as Record<ErrorType, z.ZodObject>;
for (const type of ERROR_TYPES) {
  errorObjects[type] = z
    .object({ type: z.literal(type), message: z.string(), ...extraFields[type] })
    .meta({ id: componentName(type), description: `HTTP ${errorStatus[type]}. ${whenReturned[type]}` });
}

const oneOfTypes = (types: readonly ErrorType[]) => {
  const [first, ...rest] = types.map((t) => errorObjects[t]);
  if (!first) throw new Error('an error response needs at least one error type');
  return rest.length ? z.discriminatedUnion('type', [first, ...rest]) : first;
};

/** `{ error: { type, message, ...extra } }` with every error type (docs/api.md#errors): the reference component. */
export const errorEnvelope = z
  .object({ error: oneOfTypes(ERROR_TYPES) })
  .meta({ id: 'ErrorEnvelope', description: 'Every error response has this shape.' });

/** The envelope narrowed to the types one response can carry. */
export const errorEnvelopeOf = (types: readonly ErrorType[]) => z.object({ error: oneOfTypes(types) });

export const errorDescription = (type: ErrorType) => whenReturned[type];

// --- Headers ---

// Descriptions of headers and parameters go in `header` / `param` so they are not repeated in the schema.
export const requestIdHeader = z.string().meta({
  examples: ['req_0f4c2b9e8d7a6c5b4a3f2e1d0c9b8a7f'],
  header: {
    id: 'X-Request-Id',
    description:
      "Identifies the request in the logs: the caller's `X-Request-Id` when it is 1–128 characters of " +
      '`A-Z a-z 0-9 . _ : -`, otherwise a generated `req_…` id.',
  },
});

const rateLimitNote =
  ' Sent on bearer-key routes while rate limiting is enabled (`RATE_LIMIT_PER_MINUTE` > 0).';
const rateLimitHeader = (id: string, description: string) =>
  z
    .int()
    .min(0)
    .optional()
    .meta({ header: { id, description: `${description}${rateLimitNote}` } });
export const rateLimitHeaders = {
  'RateLimit-Limit': rateLimitHeader('RateLimit-Limit', 'Requests allowed per minute for this key.'),
  'RateLimit-Remaining': rateLimitHeader('RateLimit-Remaining', 'Requests left in the current window.'),
  'RateLimit-Reset': rateLimitHeader('RateLimit-Reset', 'Seconds until the window resets.'),
};

export const retryAfterHeader = z
  .int()
  .min(1)
  .meta({ header: { id: 'Retry-After', description: 'Seconds to wait before retrying.' } });

export const idempotentReplayedHeader = z
  .literal('true')
  .optional()
  .meta({
    header: {
      description: 'Present when the idempotency key matched an earlier request: nothing was written again.',
    },
  });

/** The webhook signature scheme, keyed with the ingest endpoint's secret (docs/api.md#webhooks). */
export const signatureHeader = z
  .string()
  .regex(/^t=\d+,v1=[0-9a-f]{64}$/)
  .meta({
    examples: ['t=1795860000,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd'],
    param: {
      description:
        '`t=<unix seconds>,v1=<hmac>` where `<hmac>` is the lowercase hex HMAC-SHA256, keyed with the ' +
        "endpoint's secret, of the string `<t>.<raw request body>` (the exact bytes received). The " +
        'timestamp must be within 300 seconds of the server clock. Sign the bytes you send, not a re-serialisation.',
    },
  });
