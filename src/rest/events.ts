import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { MAX_JSON_DEPTH } from '../lib/json-guard.ts';
import { uuidId } from '../lib/primitives.ts';
import { stampRequestId } from '../request-id.ts';
import { BATCH_MAX_BYTES, eventBatchBody, ingestBatch, MAX_BATCH_EVENTS } from '../services/events/batch.ts';
import {
  eventBody,
  idempotencyKeyHeader,
  LIMITS,
  parseEventRequest,
} from '../services/events/event-input.ts';
import type { WriteResult } from '../services/events/event-writer.ts';
import { authenticateIngest } from '../services/events/ingest-endpoints.ts';
import { ingestEvent } from '../services/events/ingest-event.ts';
import { getEvent, listEvents, listEventsInput } from '../services/events/list-events.ts';
import {
  replayEvent,
  replayEventBody,
  replayEventsBody,
  replayQuarantined,
} from '../services/events/replay.ts';
import {
  eventAcceptedShape,
  eventBatchAcceptedShape,
  eventDetailShape,
  eventShape,
  eventsReplayedShape,
} from '../services/events/shapes.ts';
import { decodeBody, readBody } from './body.ts';
import { sendError } from './errors.ts';
import { authenticateRequest, enforceRateLimit, route, settleDeferredKey } from './http.ts';
import { idempotentReplayedHeader, paginated, signatureHeader } from './openapi-schemas.ts';
import { type Operation, operation, Reply } from './operation.ts';

const accepted = (result: WriteResult) => ({ event_id: result.event_id, status: result.status });

/** 202 with `{ event_id, status }`, written directly: the hot path skips res.json's generic work. */
function sendAccepted(res: ServerResponse, result: WriteResult) {
  const body = JSON.stringify(accepted(result));
  if (result.replayed) res.setHeader('Idempotent-Replayed', 'true');
  res.writeHead(202, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

/**
 * The route of `POST /v1/events` once its body is read: the key (its row read only the first
 * time this process sees it; the event's own write statement checks it is still live), then the
 * one ingest pipeline, then the 202 (docs/architecture.md#how-a-request-and-an-event-travel).
 */
async function postEvent(ctx: AppContext, req: IncomingMessage, res: ServerResponse, body: unknown) {
  const who = await authenticateRequest(ctx, req, res, 'events:write', { deferKeyCheck: true });
  try {
    const key = req.headers['idempotency-key'];
    const event = parseEventRequest(body ?? {}, typeof key === 'string' ? key : undefined);
    const result = await ingestEvent(
      ctx.events,
      {
        workspaceId: who.workspaceId,
        mode: who.mode,
        source: 'api',
        keyCheck: who.keyCheckPending ? who.keyId : null,
      },
      event.body,
      event.headerKey,
    );
    sendAccepted(res, result);
  } catch (err) {
    await settleDeferredKey(ctx, req, who);
    throw err;
  }
}

/** `POST /v1/events` in express, behind the app's body parser: the door for content-encoded bodies. */
export const postEventRoute = (ctx: AppContext): RequestHandler =>
  route((req, res) => postEvent(ctx, req, res, req.body));

/**
 * `POST /v1/events` on bare node:http, ahead of express (the ingest hot path; express's
 * request setup, router walk and body parser cost about a quarter of the process's CPU per
 * event). It does what the express door and its middleware do, with the same functions: request
 * id, metrics and request log (`observe`), the body limit and decoding, the key, the 202 or the
 * error envelope. A content-encoded body goes to express (`fallback`), whose parser inflates it.
 */
export function postEventDoor(
  ctx: AppContext,
  observe: (req: IncomingMessage & { id: string }, res: ServerResponse, route: string) => void,
  fallback: (req: IncomingMessage, res: ServerResponse) => void,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (incoming, res) => {
    const encoding = incoming.headers['content-encoding'];
    if (encoding !== undefined && encoding.toLowerCase() !== 'identity') return fallback(incoming, res);
    const req = Object.assign(incoming, { id: stampRequestId(incoming, res) });
    observe(req, res, EVENTS_PATH);
    readBody(req, ctx.config.MAX_BODY_BYTES)
      .then((buf) => postEvent(ctx, req, res, decodeBody(buf, req.headers['content-type'])))
      .catch((err: unknown) => sendError(ctx.log, err, req, res, EVENTS_PATH));
  };
}

/** Whether a request is one `postEventDoor` serves (other spellings of the path go to express). */
export const isPostEvent = (req: IncomingMessage) =>
  req.method === 'POST' && (req.url === EVENTS_PATH || req.url?.startsWith(`${EVENTS_PATH}?`) === true);

const EVENTS_PATH = '/v1/events';

const byEventId = z.object({ id: uuidId('The event id.') });

/**
 * Not validated here: an unknown or malformed key is the same 401 as a bad signature, decided by
 * `authenticateIngest` (the pattern is documented only).
 */
const byIngestKey = z.object({
  key: z.string().meta({
    pattern: '^ing_[A-Za-z0-9]{32}$',
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
  'Shorthand accepted: `type` for `event_type`, and `participant` as a string external id. ' +
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

const ACCEPTED = {
  status: '202',
  description: 'Accepted (also when quarantined, and for a replayed idempotency key).',
  schema: eventAcceptedShape,
  headers: { 'Idempotent-Replayed': idempotentReplayedHeader },
} as const;

const E = 'Events';

/** Ingest by API key or signed endpoint key, and the event log (docs/api.md#event-ingest-rules). */
export const eventsOperations: Operation[] = [
  operation({
    method: 'post',
    path: EVENTS_PATH,
    operationId: 'createEvent',
    tag: E,
    summary: 'Send an event',
    description:
      'Records one event and answers 202 once it is durably stored (the event and its processing job ' +
      'commit together); flows, points and badges follow asynchronously. A normal event answers ' +
      '`status: received`.',
    auth: 'events:write',
    params: { header: idempotencyHeader },
    body: { schema: eventBody, description: EVENT_BODY_DESCRIPTION },
    success: ACCEPTED,
    servedBy: 'postEventDoor on node:http (postEventRoute in express for content-encoded bodies)',
  }),
  operation({
    method: 'post',
    path: '/v1/ingest/{key}',
    operationId: 'ingestEvent',
    tag: E,
    summary: 'Send an event to an ingest endpoint',
    description:
      'The same body and pipeline as `POST /v1/events`, authenticated by the endpoint key in the path ' +
      'and an HMAC signature of the raw body instead of a bearer key. The event is stored in the ' +
      "endpoint's mode with `source: ingest:<endpoint id>`; the endpoint's `default_event_type` fills a " +
      `missing \`event_type\`.\n\n${SIGNING_EXAMPLE}`,
    auth: 'signature',
    params: {
      path: byIngestKey,
      header: idempotencyHeader.extend({ 'X-Signature': signatureHeader }),
    },
    body: { schema: eventBody, description: EVENT_BODY_DESCRIPTION },
    success: ACCEPTED,
    handle: async ({ ctx, req, res, params, body }) => {
      const from = await authenticateIngest(
        ctx,
        params.key,
        req.rawBody ?? Buffer.alloc(0),
        req.get('x-signature'),
      );
      // An ingest endpoint has a budget of its own, like an API key.
      await enforceRateLimit(ctx, res, from.source);
      const event = parseEventRequest(body, req.get('idempotency-key'));
      const result = await ingestEvent(ctx.events, from, event.body, event.headerKey);
      return new Reply(202, accepted(result), result.replayed ? { 'Idempotent-Replayed': 'true' } : {});
    },
  }),
  operation({
    method: 'post',
    path: '/v1/events/batch',
    operationId: 'createEventBatch',
    tag: E,
    summary: 'Send a batch of events',
    description:
      `Records 1 to ${MAX_BATCH_EVENTS} events in one transaction and answers 202 once they are durably ` +
      'stored: all of them, or none when one item is invalid (a 422 naming it, e.g. `events.3.participant`). ' +
      'Each item goes through the same pipeline as `POST /v1/events` (shorthand, quarantine, its own ' +
      '`idempotency_key`); the answer has one result per item, in request order. An item repeating an ' +
      'idempotency key already stored, or one earlier in the batch, answers the original with ' +
      `\`replayed: true\` and stores nothing. The body may be up to ${BATCH_MAX_BYTES / 1024 / 1024} MiB ` +
      'whatever `MAX_BODY_BYTES` says.',
    auth: 'events:write',
    body: {
      schema: eventBatchBody,
      description: `\`{ events: [...] }\`, each item an event body. ${EVENT_BODY_DESCRIPTION}`,
      maxBytes: BATCH_MAX_BYTES,
    },
    success: {
      status: '202',
      description: 'Accepted: one result per item, in request order.',
      schema: eventBatchAcceptedShape,
    },
    handle: ({ ctx, who, body }) =>
      ingestBatch(ctx.events, { workspaceId: who.workspaceId, mode: who.mode, source: 'api' }, body),
  }),
  operation({
    method: 'post',
    path: '/v1/events/{id}/replay',
    operationId: 'replayEvent',
    tag: E,
    summary: 'Replay a quarantined event',
    description:
      'Stores a new event with the fixes given (`replay_of` = this one) and sends it through the ingest ' +
      "pipeline: its payload is checked against its type's schema again, so it may be quarantined again. " +
      "It keeps the original's participant (external id), `occurred_at` and `source`. This event stays " +
      'quarantined and gets `replayed_as`. An event is replayed once: asking again with the same fixes ' +
      '(a retry) answers the same new event with `Idempotent-Replayed: true`; with other fixes, or for an ' +
      'event that is not quarantined, 409 `invalid_state`.',
    auth: 'events:write',
    params: { path: byEventId },
    body: { schema: replayEventBody },
    success: {
      status: '202',
      description: 'The new event, stored (also when it was quarantined again).',
      schema: eventAcceptedShape,
      headers: { 'Idempotent-Replayed': idempotentReplayedHeader },
    },
    errors: ['not_found', 'invalid_state'],
    handle: async ({ ctx, who, params, body }) => {
      const result = await replayEvent(ctx, who, params.id, body);
      return new Reply(
        202,
        { event_id: result.event_id, status: result.status },
        result.replayed ? { 'Idempotent-Replayed': 'true' } : {},
      );
    },
  }),
  operation({
    method: 'post',
    path: '/v1/events/replay',
    operationId: 'replayEvents',
    tag: E,
    summary: 'Replay quarantined events',
    description:
      'Replays, unchanged, every quarantined event not yet replayed of the range (received in ' +
      '[`since`, `until`), of `event_type`; all when absent), oldest first, each as in ' +
      "`POST /v1/events/{id}/replay`: for after an event type's schema was fixed. Events quarantined for " +
      'a missing type or participant are left alone (they would be quarantined again); replay those one ' +
      'by one with a fix. Each event is replayed once, also when calls run at the same time.',
    auth: 'events:write',
    body: { schema: replayEventsBody },
    success: {
      status: '202',
      description: 'How many events this call replayed.',
      schema: eventsReplayedShape,
    },
    handle: ({ ctx, who, body }) => replayQuarantined(ctx, who, body),
  }),
  operation({
    method: 'get',
    path: '/v1/events',
    operationId: 'listEvents',
    tag: E,
    summary: 'List events',
    description: 'The event log, newest first. Filters are carried into `links.next` and `links.prev`.',
    auth: 'events:read',
    params: { query: listEventsInput },
    success: { status: '200', description: 'A page of events.', schema: paginated(eventShape, 'Event') },
    paged: true,
    handle: ({ ctx, who, query }) => listEvents(ctx, who, query),
  }),
  operation({
    method: 'get',
    path: '/v1/events/{id}',
    operationId: 'getEvent',
    tag: E,
    summary: 'Show an event',
    description: 'One event of the key’s workspace and mode, with the flow runs it started.',
    auth: 'events:read',
    params: { path: byEventId },
    success: { status: '200', description: 'The event.', schema: eventDetailShape },
    errors: ['not_found'],
    handle: ({ ctx, who, params }) => getEvent(ctx, who, params.id),
  }),
];
