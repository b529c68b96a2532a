import { createExpressMiddleware } from '@trpc/server/adapters/express';
import type { RequestHandler } from 'express';
import type { AppContext } from '../context.ts';
import type { SignedIn } from '../services/workspaces/sessions.ts';
import { appRouter } from './router.ts';
import { signedInFromRequest } from './session.ts';
import { domainErrorOf } from './trpc.ts';

export type { AppRouter } from './router.ts';

/** tRPC at /trpc: the dashboard's API, signed in with a session cookie, over the same services as REST. */
export function trpcHandler(ctx: AppContext): RequestHandler {
  return createExpressMiddleware({
    router: appRouter,
    maxBodySize: ctx.config.MAX_BODY_BYTES,
    createContext: ({ req, res }) => {
      let session: Promise<SignedIn | null> | undefined;
      return {
        app: ctx,
        req,
        res,
        session: () => {
          session ??= signedInFromRequest(ctx, req);
          return session;
        },
      };
    },
    // A sign-in refused by its rate limit says when to come back, as REST does.
    responseMeta: ({ errors }) => {
      const retryAfter = errors
        .map((e) => domainErrorOf(e)?.extra.retry_after)
        .find((v): v is number => typeof v === 'number');
      return retryAfter ? { headers: { 'Retry-After': String(retryAfter) } } : {};
    },
    onError: ({ error, path, req }) => {
      if (domainErrorOf(error) || error.code !== 'INTERNAL_SERVER_ERROR') return;
      ctx.log.error({ err: error.cause ?? error, reqId: req.id, path }, 'unexpected tRPC error');
    },
  });
}
