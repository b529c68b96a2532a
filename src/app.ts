import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type Express, type RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { AppContext } from './context.ts';
import { compressResponses } from './lib/compression.ts';
import { createMetrics, type Metrics, matchedRoute } from './metrics.ts';
import { stampRequestId } from './request-id.ts';
import { bodyParser } from './rest/body.ts';
import { dashboardRouter } from './rest/dashboard.ts';
import { errorHandler, notFoundHandler } from './rest/errors.ts';
import { isPostEvent, postEventDoor, postEventRoute } from './rest/events.ts';
import { landingRouter } from './rest/landing.ts';
import { PROBE_OPERATIONS } from './rest/meta.ts';
import { docsRouter, OPERATIONS } from './rest/openapi.ts';
import { largerBodies, mountOperations } from './rest/operation.ts';
import { widgetRouter } from './rest/widget.ts';
import { graphqlHandler } from './schema/index.ts';
import { codeUploadRouter } from './trpc/code-upload.ts';
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

/**
 * One `request` log line per response, at info (at warn or above nothing is attached): the full
 * path as the client sent it (no query string), and the route template when one matched.
 */
function logRequest(
  log: Logger,
  req: IncomingMessage & { id: string; originalUrl?: string },
  res: ServerResponse,
  route: () => string | undefined,
): void {
  if (!log.isLevelEnabled('info')) return;
  const start = Date.now();
  res.on('finish', () => {
    const url = req.originalUrl ?? req.url ?? '';
    const q = url.indexOf('?');
    log.info(
      {
        reqId: req.id,
        method: req.method,
        path: q === -1 ? url : url.slice(0, q),
        route: route(),
        status: res.statusCode,
        ms: Date.now() - start,
      },
      'request',
    );
  });
}

/** `TRUST_PROXY` as express takes it: `true`/`false`, a hop count, or addresses, CIDRs and names. */
const trustProxy = (value: string): boolean | number | string =>
  value === 'true' ? true : value === 'false' ? false : /^\d+$/.test(value) ? Number(value) : value;

/** `GET /metrics`: the registry in Prometheus's text format. */
const serveMetrics =
  (metrics: Metrics): RequestHandler =>
  async (_req, res) => {
    res.setHeader('Content-Type', metrics.registry.contentType);
    res.send(await metrics.registry.metrics());
  };

/**
 * A worker process's HTTP surface (`WORKER_PORT`): `/healthz`, `/readyz` and `/metrics` only,
 * from the same declarations and registry as the API's, so a supervisor can probe a worker and
 * Prometheus can scrape what only a worker counts (the data lifecycle's deletions).
 */
export function buildProbeApp(ctx: AppContext): Express {
  const metrics = createMetrics(ctx);
  const app = express();
  app.disable('x-powered-by');
  app.use(requestId);
  app.use(metrics.middleware);
  app.get('/metrics', serveMetrics(metrics));
  app.use(mountOperations(ctx, PROBE_OPERATIONS));
  app.use(notFoundHandler);
  app.use(errorHandler(ctx.log));
  return app;
}

/** The whole HTTP surface without listening: REST /v1, GraphQL, tRPC, docs, health and metrics. */
export function buildApp(ctx: AppContext, metrics: Metrics = createMetrics(ctx)): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  if (ctx.config.TRUST_PROXY !== undefined) app.set('trust proxy', trustProxy(ctx.config.TRUST_PROXY));

  app.use(requestId);
  app.use(metrics.middleware);
  app.use((req, res, next) => {
    logRequest(ctx.log, req, res, () => matchedRoute(req, res));
    next();
  });

  const parseBody = bodyParser(ctx.config.MAX_BODY_BYTES, largerBodies(OPERATIONS));
  app.post('/v1/events', parseBody, postEventRoute(ctx));
  // After the ingest route (its answers are a few bytes, and it is the hot path): JSON and pages
  // above 1 KB compressed as the client asks, streams and precompressed files left alone.
  app.use(compressResponses());

  app.get('/metrics', serveMetrics(metrics));

  app.use(docsRouter(ctx));
  app.use(landingRouter());
  app.use(widgetRouter(ctx));
  app.use('/graphql', graphqlHandler(ctx));
  app.use('/trpc', trpcHandler(ctx));
  // Before the dashboard's pages: its code-file upload streams the raw request body.
  app.use(codeUploadRouter(ctx));
  app.use(dashboardRouter(ctx));

  app.use('/v1', parseBody);
  // Every declared operation (src/rest/*.ts declarations), mounted from its declaration.
  app.use(mountOperations(ctx, OPERATIONS));

  app.use(notFoundHandler);
  app.use(errorHandler(ctx.log));
  return app;
}
