import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { stampRequestId } from '../request-id.ts';
import type { WriteResult } from '../services/events/event-writer.ts';
import { authenticateIngest } from '../services/events/ingest-endpoints.ts';
import { ingestEvent } from '../services/events/ingest-event.ts';
import { getEvent, listEvents } from '../services/events/list-events.ts';
import { decodeBody, readBody } from './body.ts';
import { sendError } from './errors.ts';
import {
  authenticateRequest,
  enforceRateLimit,
  presentPage,
  principal,
  requireKey,
  route,
  settleDeferredKey,
} from './http.ts';

/** 202 with `{ event_id, status }`, written directly: the hot path skips res.json's generic work. */
function sendAccepted(res: ServerResponse, result: WriteResult) {
  const body = JSON.stringify({ event_id: result.event_id, status: result.status });
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
 * one ingest pipeline, then the 202 (README "Ingest hot path").
 */
async function postEvent(ctx: AppContext, req: IncomingMessage, res: ServerResponse, body: unknown) {
  const who = await authenticateRequest(ctx, req, res, 'events:write', { deferKeyCheck: true });
  try {
    const key = req.headers['idempotency-key'];
    const result = await ingestEvent(
      ctx.events,
      {
        workspaceId: who.workspaceId,
        mode: who.mode,
        source: 'api',
        keyCheck: who.keyCheckPending ? who.keyId : null,
      },
      body ?? {},
      typeof key === 'string' ? key : undefined,
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

/** SPEC 4.2 and 4.4: ingest by signed endpoint key, and the event log (`POST /events` is above). */
export function eventsRouter(ctx: AppContext): Router {
  const r = Router();

  r.post(
    '/ingest/:key',
    route(async (req, res) => {
      const from = await authenticateIngest(
        ctx,
        String(req.params.key),
        req.rawBody ?? Buffer.alloc(0),
        req.get('x-signature'),
      );
      // An ingest endpoint has a budget of its own, like an API key.
      await enforceRateLimit(ctx, res, from.source);
      sendAccepted(res, await ingestEvent(ctx.events, from, req.body ?? {}, req.get('idempotency-key')));
    }),
  );

  r.get(
    '/events',
    requireKey(ctx, 'events:read'),
    route(async (req, res) => {
      const page = await listEvents(ctx, principal(req), req.query);
      const { status, event_type, participant, since } = req.query;
      res.json(presentPage(req, page, { status, event_type, participant, since }));
    }),
  );

  r.get(
    '/events/:id',
    requireKey(ctx, 'events:read'),
    route(async (req, res) => {
      res.json(await getEvent(ctx, principal(req), String(req.params.id)));
    }),
  );

  return r;
}
