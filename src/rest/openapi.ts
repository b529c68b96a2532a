import express, { Router } from 'express';
import swaggerUiPath from 'swagger-ui-dist/absolute-path.js';
import { z } from 'zod';
import {
  createDocument,
  type oas31,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponsesObject,
} from 'zod-openapi';
import type { AppContext } from '../context.ts';
import { isResourceId } from '../lib/primitives.ts';
import { eventBody } from '../services/events/event-input.ts';
import {
  CATALOGUE_TYPES,
  catalogueSummary,
  deliveryBodyExample,
  deliveryBodyShape,
  deliveryHeadersShape,
} from '../services/webhooks/catalogue.ts';
import { achievementsOperations } from './achievements.ts';
import { type ErrorType, errorStatus } from './error-status.ts';
import { eventTypesOperations } from './event-types.ts';
import { eventsOperations } from './events.ts';
import { exportsOperations } from './exports.ts';
import { flowsOperations } from './flows.ts';
import { leaderboardsOperations } from './leaderboards.ts';
import { messagesOperations } from './messages.ts';
import { metaOperations } from './meta.ts';
import {
  errorDescription,
  errorEnvelope,
  errorEnvelopeOf,
  rateLimitHeaders,
  requestIdHeader,
  retryAfterHeader,
} from './openapi-schemas.ts';
import type { Operation, OperationAuth, ResponseDoc } from './operation.ts';
import { participantsOperations } from './participants.ts';
import { pointsOperations } from './points.ts';
import { referralOperations } from './referrals.ts';
import { rewardsOperations } from './rewards.ts';
import { simulateOperations } from './simulate.ts';
import { streakOperations } from './streaks.ts';
import { tierOperations } from './tiers.ts';
import { webhookEventTypesOperations } from './webhook-event-types.ts';
import { webhooksOperations } from './webhooks.ts';

type OperationDoc = Operation;

export type { OperationAuth };

/**
 * Every operation, from the domains' declarations (src/rest/<domain>.ts): the app mounts these
 * and the document is built from them, so a route cannot exist without its entry.
 */
export const OPERATIONS: Operation[] = [
  ...eventsOperations,
  ...simulateOperations,
  ...eventTypesOperations,
  ...metaOperations,
  ...messagesOperations,
  ...flowsOperations,
  ...achievementsOperations,
  ...webhooksOperations,
  ...webhookEventTypesOperations,
  ...participantsOperations,
  ...pointsOperations,
  ...tierOperations,
  ...streakOperations,
  ...referralOperations,
  ...leaderboardsOperations,
  ...rewardsOperations,
  ...exportsOperations,
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
  // Path parameters are checked at the edge: a resource id that cannot exist is a 404, any other bad value a 422.
  for (const param of Object.values(op.params?.path?.shape ?? {}))
    types.add(isResourceId(param as z.ZodType) ? 'not_found' : 'validation_error');
  // An ingest endpoint has a request budget of its own, like an API key.
  if (op.auth === 'signature') types.add('authentication_error').add('rate_limit_error');
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

function successResponse(doc: ResponseDoc, bearer: boolean) {
  return {
    description: doc.description,
    headers: z.object({
      'X-Request-Id': requestIdHeader,
      ...(bearer ? rateLimitHeaders : {}),
      ...doc.headers,
    }),
    ...(doc.content
      ? {
          content: Object.fromEntries(
            Object.entries(doc.content).map(([type, schema]) => [type, { schema }]),
          ),
        }
      : doc.schema
        ? { content: { [doc.contentType ?? 'application/json']: { schema: doc.schema } } }
        : {}),
  };
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
    // A signed-URL operation also answers without credentials (its query token is the credential).
    security: bearer ? [{ [BEARER]: [] }, ...(op.signedUrlQuery ? [{}] : [])] : [],
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
      [success.status]: successResponse(success, bearer),
      ...Object.fromEntries(
        Object.entries(op.otherSuccess ?? {}).map(([status, doc]) => [status, successResponse(doc, bearer)]),
      ),
      ...op.extraResponses,
      ...errorResponses(op),
    },
  };
}

const WEBHOOK_TAG = 'Webhook events';

/** `badge.awarded` → `badgeAwardedWebhook`. */
const webhookOperationId = (type: string) =>
  `${type.replace(/[._](\w)/g, (_, c: string) => c.toUpperCase())}Webhook`;

/**
 * OpenAPI 3.1's `webhooks`: one POST per catalogued type, as a receiver gets it (the body, its
 * `data` the type's shape, and the headers), from the same shapes as GET /v1/webhook-event-types.
 */
function webhookItems(): ZodOpenApiPathsObject {
  return Object.fromEntries(
    CATALOGUE_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: webhookOperationId(type),
          tags: [WEBHOOK_TAG],
          summary: catalogueSummary(type),
          description:
            'Sent to each active subscription of the workspace and mode whose `event_types` name this type or ' +
            '`*`, with its custom headers too. The body’s bytes are fixed when the delivery is created: the ' +
            'same on every retry and replay; verify the signature over them before parsing.',
          security: [],
          requestParams: { header: deliveryHeadersShape(type) },
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: deliveryBodyShape(type), example: deliveryBodyExample(type) },
            },
          },
          responses: {
            '2XX': { description: 'Received: any 2xx within the timeout acknowledges the delivery.' },
            '410': {
              description:
                'Gone: the subscription is disabled at once (`disabled_reason: gone`) and not retried.',
            },
            default: {
              description:
                'Anything else (a 3xx included: redirects are not followed), or no answer in time, is a failure, ' +
                'retried on the ladder; a 429 or 503 with `Retry-After` delays the next attempt accordingly.',
            },
          },
        },
      },
    ]),
  );
}

/** Builds the document from OPERATIONS; call `openApiDocument()` for the cached one. */
export function buildDocument(
  operations: readonly OperationDoc[] = OPERATIONS,
  options: { closedResponses?: boolean } = {},
): oas31.OpenAPIObject {
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
        {
          name: 'Exports',
          description:
            'Files of one kind of rows (CSV or JSON Lines), written by a queued job and kept 7 days.',
        },
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
          name: 'Points lifecycle',
          description: 'Programme settings (expiry, pending points, earning caps), lots and pending grants.',
        },
        {
          name: 'Referrals',
          description:
            'The referral programme, participants’ referral codes, and the referrals they made (with claw-back).',
        },
        {
          name: 'Rewards',
          description: 'The catalogue, reward management, code pools and redemptions (atomic, idempotent).',
        },
        {
          name: 'Streaks',
          description: 'Streak definitions (daily, weekly, monthly, with freezes) and participants’ streaks.',
        },
        {
          name: 'Tiers',
          description:
            'The tier programme (levels, window, downgrades), its preview, and participants’ levels.',
        },
        {
          name: 'Webhooks',
          description: 'Subscriptions, and the log of signed, retried deliveries of results (with replay).',
        },
        {
          name: WEBHOOK_TAG,
          description:
            'What your endpoint receives: one entry per type under `webhooks` (GET /v1/webhook-event-types lists ' +
            'the same with the JSON Schema of each `data`).',
        },
      ],
      paths,
      webhooks: webhookItems(),
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
        // (The test client builds a closed copy, so a presenter that adds a field fails its tests.)
        if (io === 'output' && jsonSchema.additionalProperties === false && !options.closedResponses)
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
