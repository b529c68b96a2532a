import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type Express, type RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { AppContext } from './context.ts';
import { createMetrics, type Metrics } from './metrics.ts';
import { stampRequestId } from './request-id.ts';
import { bodyParser } from './rest/body.ts';
import { errorHandler, notFoundHandler } from './rest/errors.ts';
import { eventSetupRouter } from './rest/event-types.ts';
import { eventsRouter, isPostEvent, postEventDoor, postEventRoute } from './rest/events.ts';
import { flowsRouter } from './rest/flows.ts';
import { messagesRouter } from './rest/messages.ts';
import { docsRouter, OPERATIONS } from './rest/openapi.ts';
import { largerBodies, mountOperations } from './rest/operation.ts';
import { graphqlHandler } from './schema/index.ts';
import { trpcHandler } from './trpc/index.ts';

/** The request id, set before anything can fail. */
const requestId: RequestHandler = (req, res, next) => {
  req.id = stampRequestId(req, res);
  next();
};

/**
 * Every request's entry: `POST /v1/events` to its door on bare node:http (the ingest hot path),
 * the rest to express. Both share one set of metrics.
 */
export function buildHttpHandler(ctx: AppContext): (req: IncomingMessage, res: ServerResponse) => void {
  const metrics = createMetrics(ctx);
  const app = buildApp(ctx, metrics);
  const postEvent = postEventDoor(
    ctx,
    (req, res, route) => {
      metrics.observe(req, res, () => route);
      logRequest(ctx.log, req, res, () => route);
    },
    app,
  );
  return (req, res) => (isPostEvent(req) ? postEvent(req, res) : app(req, res));
}

/** One `request` log line per response, at info (at warn or above nothing is attached). */
function logRequest(
  log: Logger,
  req: IncomingMessage & { id: string },
  res: ServerResponse,
  path: () => string,
): void {
  if (!log.isLevelEnabled('info')) return;
  const start = Date.now();
  res.on('finish', () => {
    log.info(
      { reqId: req.id, method: req.method, path: path(), status: res.statusCode, ms: Date.now() - start },
      'request',
    );
  });
}

/** The whole HTTP surface without listening: REST /v1, GraphQL, tRPC, docs, health and metrics. */
export function buildApp(ctx: AppContext, metrics: Metrics = createMetrics(ctx)): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');

  app.use(requestId);
  app.use(metrics.middleware);
  app.use((req, res, next) => {
    logRequest(ctx.log, req, res, () => req.path);
    next();
  });

  const parseBody = bodyParser(ctx.config.MAX_BODY_BYTES, largerBodies(OPERATIONS));
  app.post('/v1/events', parseBody, postEventRoute(ctx));

  app.get('/healthz', (_req, res) => {
    res.json({ ok: true });
  });
  app.get('/readyz', async (_req, res) => {
    try {
      await ctx.pool.query('select 1');
      res.json({ ok: true, database: 'up' });
    } catch {
      res.status(503).json({ error: { type: 'api_error', message: 'database unreachable' } });
    }
  });
  app.get('/metrics', async (_req, res) => {
    res.setHeader('Content-Type', metrics.registry.contentType);
    res.send(await metrics.registry.metrics());
  });

  app.use(docsRouter(ctx));
  app.use('/graphql', graphqlHandler(ctx));
  app.use('/trpc', trpcHandler(ctx));

  app.use('/v1', parseBody);
  // Every declared operation (src/rest/*.ts declarations), mounted from its declaration.
  app.use(mountOperations(ctx, OPERATIONS));

  const v1 = express.Router();
  v1.use(metrics.routeBase);
  v1.use(eventsRouter(ctx));
  v1.use(eventSetupRouter(ctx));
  v1.use(flowsRouter(ctx));
  v1.use(messagesRouter(ctx));
  app.use('/v1', v1);

  app.use(notFoundHandler);
  app.use(errorHandler(ctx.log));
  return app;
}
