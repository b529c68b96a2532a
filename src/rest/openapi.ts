import express, { Router } from 'express';
import swaggerUiPath from 'swagger-ui-dist/absolute-path.js';
import { z } from 'zod';
import {
  createDocument,
  type oas31,
  type ZodObjectInput,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponsesObject,
} from 'zod-openapi';
import type { AppContext } from '../context.ts';
import { MAX_JSON_DEPTH } from '../lib/json-guard.ts';
import { pageInput } from '../lib/pagination.ts';
import { eventBody, idempotencyKeyHeader, LIMITS } from '../services/events/event-input.ts';
import { putSchemaInput } from '../services/events/event-types.ts';
import { createIngestEndpointInput } from '../services/events/ingest-endpoints.ts';
import { listEventsInput } from '../services/events/list-events.ts';
import type { Ability } from '../services/keys/abilities.ts';
import { type ErrorType, errorStatus } from './error-status.ts';
import { flowsOperations } from './openapi-flows.ts';
import { messagesOperations } from './openapi-messages.ts';
import { participantsOperations } from './openapi-participants.ts';
import { rewardsOperations } from './openapi-rewards.ts';
import {
  deleted,
  errorDescription,
  errorEnvelope,
  errorEnvelopeOf,
  event,
  eventAccepted,
  eventDetail,
  eventType,
  idempotentReplayedHeader,
  ingestEndpoint,
  ingestEndpointCreated,
  paginated,
  rateLimitHeaders,
  requestIdHeader,
  retryAfterHeader,
  signatureHeader,
} from './openapi-schemas.ts';
import { webhookOperations } from './openapi-webhooks.ts';

/**
 * `none`: no credentials; `signature`: ingest endpoint key + `X-Signature`; `key`: any valid
 * bearer API key; an ability: a bearer key holding it (SPEC 5.2, CONTRACT 4).
 */
export type OperationAuth = 'none' | 'signature' | 'key' | Ability;

/** One documented route; `buildDocument` adds auth, the standard errors and the common headers. */
export interface OperationDoc {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI path template, e.g. `/v1/events/{id}`. */
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  auth: OperationAuth;
  /** The services' zod schemas, as validated by the route. */
  params?: { path?: ZodObjectInput; query?: ZodObjectInput; header?: ZodObjectInput };
  /** `alternatives`: other accepted content types besides JSON (e.g. `text/csv` code imports). */
  body?: { schema: z.ZodType; description?: string; alternatives?: Record<string, z.ZodType> };
  success: {
    status: '200' | '201' | '202';
    description: string;
    schema?: z.ZodType;
    /** Defaults to `application/json`. */
    contentType?: string;
    headers?: Record<string, z.ZodType>;
  };
  /** Error types beyond those implied by auth, body and params (e.g. `not_found`). */
  errors?: ErrorType[];
  /** Responses that fit no pattern (e.g. /readyz's 503). */
  extraResponses?: ZodOpenApiResponsesObject;
}

const idParam = (what: string) =>
  z.object({
    id: z.uuid().meta({ param: { description: `The ${what} id. An unknown or malformed id is a 404.` } }),
  });

const ingestKeyParam = z.object({
  key: z
    .string()
    .regex(/^ing_[A-Za-z0-9]{32}$/)
    .meta({
      param: {
        description: 'The ingest endpoint key (`ing_` + 32 letters and digits). An unknown key is a 401.',
      },
    }),
});

/** The `Idempotency-Key` header exactly as the ingest service validates it, but optional. */
const idempotencyHeader = z.object({
  'Idempotency-Key': idempotencyKeyHeader.shape['Idempotency-Key'].optional().meta({
    param: {
      description:
        'Deduplicates retries; wins over the body `idempotency_key`. Scoped to workspace + mode. ' +
        'A duplicate answers 202 with the original `event_id` and `Idempotent-Replayed: true`.',
    },
  }),
});

const EVENT_BODY_DESCRIPTION =
  'SPEC 2.6. Shorthand accepted: `type` for `event_type`, and `participant` as a string external id. ' +
  'Unknown fields are a 422. An event without `event_type` (and no endpoint default) or ' +
  "`participant.external_id`, or whose payload fails its event type's JSON Schema, is stored as " +
  '`quarantined` with a reason, never processed, and still answers 202. Limits: `event_type` ≤ ' +
  `${LIMITS.eventTypeLength} characters of \`A-Z a-z 0-9 . _ : -\`, \`external_id\` ≤ ${LIMITS.externalIdLength}, ` +
  `JSON nested at most ${MAX_JSON_DEPTH} levels, no NUL characters or lone surrogates.`;

const SIGNING_EXAMPLE = [
  'Signing in a shell:',
  '',
  '```sh',
  't=$(date +%s)',
  'sig=$(printf \'%s.%s\' "$t" "$body" | openssl dgst -sha256 -hmac "$secret" -hex | sed \'s/^.* //\')',
  'curl -X POST "$BASE/v1/ingest/$key" -H "X-Signature: t=$t,v1=$sig" \\',
  '  -H "Content-Type: application/json" --data-raw "$body"',
  '```',
].join('\n');

/**
 * Every route the HTTP app serves. Every new route must be added here too, in the same change:
 * test/openapi.test.ts fails when a route registered under /v1 is missing from the document.
 */
export const OPERATIONS: OperationDoc[] = [
  // --- src/rest/events.ts ---
  {
    method: 'post',
    path: '/v1/events',
    operationId: 'createEvent',
    tag: 'Events',
    summary: 'Send an event',
    description:
      'Records one event and answers 202 once it is durably stored (the event and its processing job ' +
      'commit together); flows, points and badges follow asynchronously. A normal event answers ' +
      '`status: received`.',
    auth: 'events:write',
    params: { header: idempotencyHeader },
    body: { schema: eventBody, description: EVENT_BODY_DESCRIPTION },
    success: {
      status: '202',
      description: 'Accepted (also when quarantined, and for a replayed idempotency key).',
      schema: eventAccepted,
      headers: { 'Idempotent-Replayed': idempotentReplayedHeader },
    },
  },
  {
    method: 'post',
    path: '/v1/ingest/{key}',
    operationId: 'ingestEvent',
    tag: 'Events',
    summary: 'Send an event to an ingest endpoint',
    description:
      'The same body and pipeline as `POST /v1/events`, authenticated by the endpoint key in the path ' +
      'and an HMAC signature of the raw body instead of a bearer key. The event is stored in the ' +
      "endpoint's mode with `source: ingest:<endpoint id>`; the endpoint's `default_event_type` fills a " +
      `missing \`event_type\`.\n\n${SIGNING_EXAMPLE}`,
    auth: 'signature',
    params: {
      path: ingestKeyParam,
      header: idempotencyHeader.extend({ 'X-Signature': signatureHeader }),
    },
    body: { schema: eventBody, description: EVENT_BODY_DESCRIPTION },
    success: {
      status: '202',
      description: 'Accepted (also when quarantined, and for a replayed idempotency key).',
      schema: eventAccepted,
      headers: { 'Idempotent-Replayed': idempotentReplayedHeader },
    },
  },
  {
    method: 'get',
    path: '/v1/events',
    operationId: 'listEvents',
    tag: 'Events',
    summary: 'List events',
    description: 'The event log, newest first. Filters are carried into `links.next` and `links.prev`.',
    auth: 'events:read',
    params: { query: listEventsInput },
    success: { status: '200', description: 'A page of events.', schema: paginated(event, 'Event') },
  },
  {
    method: 'get',
    path: '/v1/events/{id}',
    operationId: 'getEvent',
    tag: 'Events',
    summary: 'Show an event',
    description: 'One event of the key’s workspace and mode, with the flow runs it started.',
    auth: 'events:read',
    params: { path: idParam('event') },
    success: { status: '200', description: 'The event.', schema: eventDetail },
    errors: ['not_found'],
  },

  // --- src/rest/event-types.ts ---
  {
    method: 'get',
    path: '/v1/event-types',
    operationId: 'listEventTypes',
    tag: 'Event types',
    summary: 'List event types',
    description: 'Event types seen or defined in this workspace and mode, newest first.',
    auth: 'flows:read',
    params: { query: pageInput },
    success: {
      status: '200',
      description: 'A page of event types.',
      schema: paginated(eventType, 'EventType'),
    },
  },
  {
    method: 'put',
    path: '/v1/event-types/{key}/schema',
    operationId: 'putEventTypeSchema',
    tag: 'Event types',
    summary: 'Set or drop an event type’s payload schema',
    description:
      'Sets the JSON Schema (draft 2020-12) that payloads of this type must satisfy, or drops it with ' +
      '`null`; creates the type if it has not been seen. Events received afterwards that fail it are ' +
      'quarantined with a reason naming the failing path. A schema that is not valid JSON Schema is a ' +
      '422 on field `schema`.',
    auth: 'flows:write',
    params: { path: putSchemaInput.pick({ key: true }) },
    body: { schema: putSchemaInput.omit({ key: true }) },
    success: { status: '200', description: 'The event type.', schema: eventType },
  },
  {
    method: 'post',
    path: '/v1/ingest-endpoints',
    operationId: 'createIngestEndpoint',
    tag: 'Ingest endpoints',
    summary: 'Create an ingest endpoint',
    description:
      'An endpoint in the creating key’s mode, for senders that cannot hold an API key. The signing ' +
      '`secret` is returned only in this response.',
    auth: 'flows:write',
    body: { schema: createIngestEndpointInput },
    success: { status: '201', description: 'Created, with its secret.', schema: ingestEndpointCreated },
  },
  {
    method: 'get',
    path: '/v1/ingest-endpoints',
    operationId: 'listIngestEndpoints',
    tag: 'Ingest endpoints',
    summary: 'List ingest endpoints',
    auth: 'flows:read',
    params: { query: pageInput },
    success: {
      status: '200',
      description: 'A page of ingest endpoints (without secrets).',
      schema: paginated(ingestEndpoint, 'IngestEndpoint'),
    },
  },
  {
    method: 'get',
    path: '/v1/ingest-endpoints/{id}',
    operationId: 'getIngestEndpoint',
    tag: 'Ingest endpoints',
    summary: 'Show an ingest endpoint',
    auth: 'flows:read',
    params: { path: idParam('ingest endpoint') },
    success: { status: '200', description: 'The endpoint (without its secret).', schema: ingestEndpoint },
    errors: ['not_found'],
  },
  {
    method: 'delete',
    path: '/v1/ingest-endpoints/{id}',
    operationId: 'deleteIngestEndpoint',
    tag: 'Ingest endpoints',
    summary: 'Delete an ingest endpoint',
    description: 'Its key stops working at once; the events it brought in are kept.',
    auth: 'flows:write',
    params: { path: idParam('ingest endpoint') },
    success: { status: '200', description: 'Deleted.', schema: deleted },
    errors: ['not_found'],
  },

  // --- src/rest/openapi.ts ---
  {
    method: 'get',
    path: '/v1/openapi.json',
    operationId: 'getOpenApiDocument',
    tag: 'Meta',
    summary: 'This document',
    description:
      'OpenAPI 3.1, generated from the zod schemas the routes validate with. Browsable at `/docs`.',
    auth: 'none',
    success: {
      status: '200',
      description: 'The OpenAPI document.',
      schema: z.record(z.string(), z.unknown()),
    },
  },

  // --- src/app.ts ---
  {
    method: 'get',
    path: '/healthz',
    operationId: 'healthz',
    tag: 'Operations',
    summary: 'Liveness',
    description: 'The process is up; touches nothing else.',
    auth: 'none',
    success: { status: '200', description: 'Alive.', schema: z.object({ ok: z.literal(true) }) },
  },
  {
    method: 'get',
    path: '/readyz',
    operationId: 'readyz',
    tag: 'Operations',
    summary: 'Readiness',
    description: 'Ready to serve: the database answers.',
    auth: 'none',
    success: {
      status: '200',
      description: 'Ready.',
      schema: z.object({ ok: z.literal(true), database: z.literal('up') }),
    },
    extraResponses: {
      '503': {
        description: 'The database is unreachable (`api_error`).',
        headers: z.object({ 'X-Request-Id': requestIdHeader }),
        content: { 'application/json': { schema: errorEnvelopeOf(['api_error']) } },
      },
    },
  },
  {
    method: 'get',
    path: '/metrics',
    operationId: 'metrics',
    tag: 'Operations',
    summary: 'Prometheus metrics',
    description: 'Request counts and latency by route, queue depth by queue, and Node process metrics.',
    auth: 'none',
    success: {
      status: '200',
      description: 'Prometheus text exposition format.',
      contentType: 'text/plain; version=0.0.4',
      schema: z.string(),
    },
  },
  ...messagesOperations,
  ...flowsOperations,
  ...webhookOperations,
  ...participantsOperations,
  ...rewardsOperations,
];

const INFO_DESCRIPTION = `Loyalty and engagement service: events, points, badges, rewards and signed webhooks.

**Authentication.** \`Authorization: Bearer <key>\`. The prefix picks the data: \`svc_live_…\` live,
\`svc_test_…\` sandbox (isolated; messages and webhooks are simulated). A key holds abilities; each
operation names the one it needs (\`x-required-ability\`). Ingest endpoints (\`/v1/ingest/{key}\`) use
their key and an \`X-Signature\` HMAC instead.

**Errors.** Always \`{ "error": { "type", "message", … } }\` (see \`ErrorEnvelope\`); \`validation_error\`
adds \`errors: [{ field, message }]\`. Bodies must be UTF-8 JSON objects (else 400) of at most
\`MAX_BODY_BYTES\` (else 413).

**Request ids.** Every response carries \`X-Request-Id\`; send your own to have it echoed.

**Pagination.** Lists answer \`{ data, links, meta }\`, newest first; \`limit\` defaults to 50 and is
clamped to 200; follow \`links.next\` until it is null. Cursors are opaque and signed (a tampered one is a 400).

**Rate limits.** Per key and minute; responses carry \`RateLimit-Limit\`, \`RateLimit-Remaining\`,
\`RateLimit-Reset\`; over the limit is a 429 with \`Retry-After\`.`;

const BEARER = 'apiKey';

function authText(auth: OperationAuth): string {
  if (auth === 'none') return 'No authentication.';
  if (auth === 'signature')
    return 'Ingest endpoint key in the path and an `X-Signature` header; no bearer key.';
  if (auth === 'key') return 'Any valid API key; no ability needed.';
  return `API key with ability \`${auth}\`.`;
}

/** The error types an operation can answer, from what it declares and how it is reached. */
function errorTypesOf(op: OperationDoc): ErrorType[] {
  const types = new Set<ErrorType>(op.errors);
  if (op.path.startsWith('/v1/') && op.auth !== 'none') types.add('invalid_request_error');
  if (op.body) types.add('payload_too_large').add('validation_error');
  if (op.params?.query || op.params?.header) types.add('validation_error');
  if (op.auth === 'signature') types.add('authentication_error');
  else if (op.auth !== 'none') {
    types.add('authentication_error').add('rate_limit_error');
    if (op.auth !== 'key') types.add('permission_error');
  }
  types.add('api_error');
  return [...types];
}

function errorResponses(op: OperationDoc): ZodOpenApiResponsesObject {
  const byStatus = new Map<number, ErrorType[]>();
  for (const type of errorTypesOf(op)) {
    const status = errorStatus[type];
    byStatus.set(status, [...(byStatus.get(status) ?? []), type]);
  }
  const responses: ZodOpenApiResponsesObject = {};
  for (const [status, types] of [...byStatus].sort(([a], [b]) => a - b)) {
    const rateLimited = status === 429;
    responses[`${status}` as '400'] = {
      description: types.map((t) => `\`${t}\`: ${errorDescription(t)}`).join('\n\n'),
      headers: z.object({
        'X-Request-Id': requestIdHeader,
        ...(rateLimited ? { 'Retry-After': retryAfterHeader, ...rateLimitHeaders } : {}),
      }),
      content: { 'application/json': { schema: errorEnvelopeOf(types) } },
    };
  }
  return responses;
}

function toOperation(op: OperationDoc): ZodOpenApiOperationObject {
  const bearer = op.auth !== 'none' && op.auth !== 'signature';
  const ability = bearer && op.auth !== 'key' ? op.auth : undefined;
  const { success } = op;
  return {
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    description: [`**Authentication:** ${authText(op.auth)}`, op.description].filter(Boolean).join('\n\n'),
    security: bearer ? [{ [BEARER]: [] }] : [],
    ...(ability ? { 'x-required-ability': ability } : {}),
    ...(op.params ? { requestParams: op.params } : {}),
    ...(op.body
      ? {
          requestBody: {
            required: true,
            description: op.body.description,
            content: {
              'application/json': { schema: op.body.schema },
              ...Object.fromEntries(
                Object.entries(op.body.alternatives ?? {}).map(([type, schema]) => [type, { schema }]),
              ),
            },
          },
        }
      : {}),
    responses: {
      [success.status]: {
        description: success.description,
        headers: z.object({
          'X-Request-Id': requestIdHeader,
          ...(bearer ? rateLimitHeaders : {}),
          ...success.headers,
        }),
        ...(success.schema
          ? { content: { [success.contentType ?? 'application/json']: { schema: success.schema } } }
          : {}),
      },
      ...op.extraResponses,
      ...errorResponses(op),
    },
  };
}

/** Builds the document from OPERATIONS; call `openApiDocument()` for the cached one. */
export function buildDocument(operations: readonly OperationDoc[] = OPERATIONS): oas31.OpenAPIObject {
  const paths: ZodOpenApiPathsObject = {};
  for (const op of operations) {
    const item = paths[op.path] ?? {};
    paths[op.path] = item;
    if (item[op.method]) throw new Error(`OpenAPI: ${op.method.toUpperCase()} ${op.path} is listed twice`);
    item[op.method] = toOperation(op);
  }
  const doc = createDocument(
    {
      openapi: '3.1.1',
      info: { title: 'svc API', version: 'v1', description: INFO_DESCRIPTION },
      servers: [{ url: '/' }],
      tags: [
        { name: 'Events', description: 'Ingest (by API key or signed ingest endpoint) and the event log.' },
        { name: 'Event types', description: 'Types seen or defined, and their payload JSON Schemas.' },
        { name: 'Ingest endpoints', description: 'Signed URLs for senders that cannot hold an API key.' },
        {
          name: 'Flows',
          description: 'Flows (conditions and actions run on events), their runs, and the badge catalogue.',
        },
        { name: 'Messages', description: 'Message templates (e-mail, SMS) and the messages log.' },
        { name: 'Meta', description: 'This document.' },
        {
          name: 'Participants',
          description: 'Participants, their points ledger and badges; adjustments and reversals.',
        },
        {
          name: 'Leaderboards',
          description: 'All-time, weekly and monthly boards with competition ranking.',
        },
        { name: 'Operations', description: 'Health and metrics, outside /v1.' },
        {
          name: 'Rewards',
          description: 'The catalogue, reward management, code pools and redemptions (atomic, idempotent).',
        },
        {
          name: 'Webhooks',
          description: 'Subscriptions, and the log of signed, retried deliveries of results (with replay).',
        },
      ],
      paths,
      components: {
        securitySchemes: {
          [BEARER]: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'svc_live_… | svc_test_…',
            description:
              'An API key: `svc_live_` or `svc_test_` followed by 40 letters and digits. The prefix selects ' +
              'live or sandbox data; the key’s abilities are checked per operation (`x-required-ability`).',
          },
        },
        // Shared by both ingest routes, and the full error envelope as a reference for clients.
        schemas: { EventBody: eventBody, ErrorEnvelope: errorEnvelope },
      },
    },
    {
      override: ({ jsonSchema, io }) => {
        // Responses may gain fields without a new API version, so they are not closed objects.
        if (io === 'output' && jsonSchema.additionalProperties === false)
          delete jsonSchema.additionalProperties;
        // zod's `int()` bounds every integer to the safe range: JavaScript's limit, not the API's.
        if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
        if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
      },
    },
  );
  return doc as oas31.OpenAPIObject;
}

let cached: { doc: oas31.OpenAPIObject; json: string } | undefined;

/** The document, built on first use and kept: it depends only on code. */
export function openApiDocument(): oas31.OpenAPIObject {
  cached ??= (() => {
    const doc = buildDocument();
    return { doc, json: JSON.stringify(doc) };
  })();
  return cached.doc;
}

const openApiJson = () => {
  openApiDocument();
  return cached!.json;
};

/** The swagger-ui-dist files the page needs; nothing else in that package is served. */
const DOCS_ASSETS = new Set([
  '/swagger-ui.css',
  '/swagger-ui.css.map',
  '/index.css',
  '/swagger-ui-bundle.js',
  '/swagger-ui-bundle.js.map',
  '/favicon-32x32.png',
  '/favicon-16x16.png',
]);

// No inline script and nothing from a CDN: the page works offline and under a strict CSP.
const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>svc API reference</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
  <link rel="stylesheet" href="/docs/assets/index.css">
  <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png" sizes="32x32">
  <link rel="icon" type="image/png" href="/docs/assets/favicon-16x16.png" sizes="16x16">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>
`;

// validatorUrl: null — swagger-ui would otherwise send the document to validator.swagger.io.
const DOCS_INIT = `window.ui = SwaggerUIBundle({
  url: '/v1/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  layout: 'BaseLayout',
});
`;

/** `/v1/openapi.json` (no auth) and the `/docs` reference page, served from local files only. */
export function docsRouter(_ctx: AppContext): Router {
  const r = Router();
  r.get('/v1/openapi.json', (_req, res) => {
    res.type('application/json').send(openApiJson());
  });
  r.get('/docs', (_req, res) => {
    res.type('html').send(DOCS_HTML);
  });
  r.get('/docs/init.js', (_req, res) => {
    res.type('text/javascript').send(DOCS_INIT);
  });
  const assets = express.static(swaggerUiPath(), { index: false, redirect: false });
  r.use('/docs/assets', (req, res, next) => (DOCS_ASSETS.has(req.path) ? assets(req, res, next) : next()));
  return r;
}
