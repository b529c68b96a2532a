import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { validationError } from '../errors.ts';
import { listEventTypes, putEventTypeSchema } from '../services/events/event-types.ts';
import {
  createIngestEndpoint,
  deleteIngestEndpoint,
  getIngestEndpoint,
  listIngestEndpoints,
} from '../services/events/ingest-endpoints.ts';
import { presentPage, principal, requireKey, route } from './http.ts';

/** Event types and their schemas, and ingest endpoints (CONTRACT 6, 9); ability `flows:*`. */
export function eventSetupRouter(ctx: AppContext): Router {
  const r = Router();
  const read = requireKey(ctx, 'flows:read');
  const write = requireKey(ctx, 'flows:write');

  r.get(
    '/event-types',
    read,
    route(async (req, res) =>
      res.json(presentPage(req, await listEventTypes(ctx, principal(req), req.query))),
    ),
  );
  r.put(
    '/event-types/:key/schema',
    write,
    route(async (req, res) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      // The key comes from the path; a body `key` would be silently ignored, so it is refused.
      if ('key' in body)
        throw validationError([{ field: 'key', message: 'comes from the path; do not send it in the body' }]);
      res.json(await putEventTypeSchema(ctx, principal(req), { ...body, key: req.params.key }));
    }),
  );

  r.post(
    '/ingest-endpoints',
    write,
    route(async (req, res) =>
      res.status(201).json(await createIngestEndpoint(ctx, principal(req), req.body ?? {})),
    ),
  );
  r.get(
    '/ingest-endpoints',
    read,
    route(async (req, res) =>
      res.json(presentPage(req, await listIngestEndpoints(ctx, principal(req), req.query))),
    ),
  );
  r.get(
    '/ingest-endpoints/:id',
    read,
    route(async (req, res) => res.json(await getIngestEndpoint(ctx, principal(req), String(req.params.id)))),
  );
  r.delete(
    '/ingest-endpoints/:id',
    write,
    route(async (req, res) =>
      res.json(await deleteIngestEndpoint(ctx, principal(req), String(req.params.id))),
    ),
  );
  return r;
}
