import { randomUUID } from 'node:crypto';
import express, { type Express, type RequestHandler } from 'express';
import type { AppContext } from './context.ts';
import { createMetrics } from './metrics.ts';
import { bodyParser } from './rest/body.ts';
import { errorHandler, notFoundHandler } from './rest/errors.ts';
import { eventSetupRouter } from './rest/event-types.ts';
import { eventsRouter, postEventHandlers } from './rest/events.ts';
import { flowsRouter } from './rest/flows.ts';
import { leaderboardsRouter } from './rest/leaderboards.ts';
import { messagesRouter } from './rest/messages.ts';
import { docsRouter } from './rest/openapi.ts';
import { participantsRouter } from './rest/participants.ts';
import { rewardsRouter } from './rest/rewards.ts';
import { webhooksRouter } from './rest/webhooks.ts';
import { graphqlHandler } from './schema/index.ts';
import { CODE_IMPORT_MAX_BYTES } from './services/rewards/import-codes.ts';
import { trpcHandler } from './trpc/index.ts';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export const newRequestId = () => `req_${randomUUID().replaceAll('-', '')}`;

/** Echoes a caller's sane X-Request-Id, else makes one; set before anything can fail. */
const requestId: RequestHandler = (req, res, next) => {
  const given = req.get('x-request-id');
  req.id = given && SANE_REQUEST_ID.test(given) ? given : newRequestId();
  res.setHeader('X-Request-Id', req.id);
  next();
};

/** The whole HTTP surface without listening: REST /v1, GraphQL, tRPC, docs, health and metrics. */
export function buildApp(ctx: AppContext): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  const metrics = createMetrics(ctx);

  app.use(requestId);
  app.use(metrics.middleware);
  app.use((req, res, next) => {
    // At LOG_LEVEL warn or above no request line is written: do not pay for the listener.
    if (!ctx.log.isLevelEnabled('info')) return next();
    const start = Date.now();
    res.on('finish', () => {
      ctx.log.info(
        { reqId: req.id, method: req.method, path: req.path, status: res.statusCode, ms: Date.now() - start },
        'request',
      );
    });
    next();
  });

  const parseBody = bodyParser(ctx.config.MAX_BODY_BYTES, [
    { path: /^\/rewards\/[^/]+\/codes$/, maxBytes: CODE_IMPORT_MAX_BYTES },
  ]);
  app.post('/v1/events', parseBody, ...postEventHandlers(ctx));

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

  const v1 = express.Router();
  v1.use(metrics.routeBase);
  v1.use(parseBody);
  v1.use(eventsRouter(ctx));
  v1.use(eventSetupRouter(ctx));
  v1.use(flowsRouter(ctx));
  v1.use(webhooksRouter(ctx));
  v1.use(participantsRouter(ctx));
  v1.use(leaderboardsRouter(ctx));
  v1.use(messagesRouter(ctx));
  v1.use(rewardsRouter(ctx));
  app.use('/v1', v1);

  app.use(notFoundHandler);
  app.use(errorHandler(ctx.log));
  return app;
}
