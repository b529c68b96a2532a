import type { RequestHandler, Response } from 'express';
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import type { WriteResult } from '../services/events/event-writer.ts';
import { authenticateIngest } from '../services/events/ingest-endpoints.ts';
import { ingestEvent } from '../services/events/ingest-event.ts';
import { getEvent, listEvents } from '../services/events/list-events.ts';
import { enforceRateLimit, presentPage, principal, requireKey, route, settleDeferredKey } from './http.ts';

/** 202 with `{ event_id, status }`, written directly: the hot path skips res.json's generic work. */
function sendAccepted(res: Response, result: WriteResult) {
  const body = JSON.stringify({ event_id: result.event_id, status: result.status });
  if (result.replayed) res.setHeader('Idempotent-Replayed', 'true');
  res.writeHead(202, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

/**
 * `POST /v1/events`, the ingest hot path. The app mounts it ahead of every other route (after
 * the request id, metrics and body parser), so a request does not walk the docs, GraphQL and
 * tRPC routers first. The key is checked by the event's own write statement when this process
 * has read it before (one round trip per ingest batch, not two; README "Ingest hot path").
 */
export function postEventHandlers(ctx: AppContext): RequestHandler[] {
  return [
    requireKey(ctx, 'events:write', { deferKeyCheck: true }),
    route(async (req, res) => {
      const who = principal(req);
      try {
        const result = await ingestEvent(
          ctx.events,
          {
            workspaceId: who.workspaceId,
            mode: who.mode,
            source: 'api',
            keyCheck: who.keyCheckPending ? who.keyId : null,
          },
          req.body ?? {},
          req.get('idempotency-key'),
        );
        sendAccepted(res, result);
      } catch (err) {
        await settleDeferredKey(ctx, req);
        throw err;
      }
    }),
  ];
}

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
