import { createExpressMiddleware } from '@trpc/server/adapters/express';
import type { RequestHandler } from 'express';
import type { AppContext } from '../context.ts';
import { appRouter } from './router.ts';
import { readSession } from './session.ts';
import { domainErrorOf } from './trpc.ts';

export type { AppRouter } from './router.ts';

/** tRPC at /trpc: the dashboard's API, signed in with a session cookie, over the same services as REST. */
export function trpcHandler(ctx: AppContext): RequestHandler {
  return createExpressMiddleware({
    router: appRouter,
    maxBodySize: ctx.config.MAX_BODY_BYTES,
    createContext: ({ req, res }) => ({ app: ctx, req, res, session: readSession(req, ctx.config.secret) }),
    onError: ({ error, path, req }) => {
      if (domainErrorOf(error) || error.code !== 'INTERNAL_SERVER_ERROR') return;
      ctx.log.error({ err: error.cause ?? error, reqId: req.id, path }, 'unexpected tRPC error');
    },
  });
}
