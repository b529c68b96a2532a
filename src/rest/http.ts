import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { AppContext } from '../context.ts';
import { DomainError } from '../errors.ts';
import type { Page } from '../lib/pagination.ts';
import { applyRateLimit } from '../lib/rate-limit.ts';
import type { Ability } from '../services/keys/abilities.ts';
import type { Principal } from '../services/keys/principal.ts';

declare global {
  namespace Express {
    interface Request {
      id: string;
      principal?: Principal;
      /** The exact bytes received (for signatures); `body` is their parsed JSON. */
      rawBody?: Buffer;
    }
  }
}

/** Express 5 forwards rejected promises to the error handler; this only narrows the types. */
export const route =
  (fn: (req: Request, res: Response) => Promise<unknown>): RequestHandler =>
  (req, res, next) =>
    fn(req, res).catch(next);

/**
 * Counts one request against a credential's per-minute budget and sets the RateLimit-* headers;
 * throws the 429 `rate_limit_error` (with Retry-After) when the budget is spent.
 */
export async function enforceRateLimit(
  ctx: Pick<AppContext, 'rateLimiter'>,
  res: ServerResponse,
  credentialId: string,
): Promise<void> {
  applyRateLimit(await ctx.rateLimiter.consume(credentialId), res);
}

/**
 * Bearer-key authentication, then the key's rate limit; `ability` is required when given
 * (docs/api.md#keys-modes-and-abilities). 401/403 are decided before the limit is counted.
 *
 * `deferKeyCheck` (ingest only): a key this process has read before is not read again; the
 * route's write must check it is still live (the principal's `keyCheckPending`), and the route
 * must run `settleDeferredKey` before answering with any error of its own.
 */
export const requireKey =
  (
    ctx: Pick<AppContext, 'keys' | 'rateLimiter'>,
    ability?: Ability,
    options: { deferKeyCheck?: boolean } = {},
  ): RequestHandler =>
  (req: Request, res: Response, next: NextFunction) => {
    authenticateRequest(ctx, req, res, ability, options)
      .then((p) => {
        req.principal = p;
        next();
      })
      .catch(next);
  };

/** `requireKey` for a route served on bare node:http: the principal, or the error to answer. */
export async function authenticateRequest(
  ctx: Pick<AppContext, 'keys' | 'rateLimiter'>,
  req: IncomingMessage,
  res: ServerResponse,
  ability?: Ability,
  options: { deferKeyCheck?: boolean } = {},
): Promise<Principal> {
  const { authorization } = req.headers;
  const p = options.deferKeyCheck
    ? await ctx.keys.authenticateDeferred(authorization, ability)
    : await ctx.keys.authenticate(authorization, ability);
  try {
    await enforceRateLimit(ctx, res, p.keyId);
  } catch (err) {
    await settleDeferredKey(ctx, req, p);
    throw err;
  }
  return p;
}

/**
 * For a request whose key check was deferred: reads the key now, so a key revoked meanwhile is
 * answered 401 rather than with whatever error the request met (validation, rate limit).
 */
export async function settleDeferredKey(
  ctx: Pick<AppContext, 'keys'>,
  req: IncomingMessage,
  who: Principal,
): Promise<void> {
  if (who.keyCheckPending) await ctx.keys.authenticate(req.headers.authorization);
}

export const principal = (req: Request): Principal => {
  if (!req.principal) throw new DomainError('authentication_error', 'Not authenticated');
  return req.principal;
};

/** A page as `{ data, links, meta }` (docs/api.md#pagination), filters carried into the links. */
export function presentPage<T>(req: Request, page: Page<T>, filters: Record<string, unknown> = {}) {
  const path = `${req.protocol}://${req.get('host')}${req.baseUrl}${req.path === '/' ? '' : req.path}`;
  const link = (cursor: string | null) => {
    if (!cursor) return null;
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(filters))
      if (v !== undefined && v !== null && v !== '') qs.set(k, String(v));
    qs.set('limit', String(page.limit));
    qs.set('cursor', cursor);
    return `${path}?${qs}`;
  };
  return {
    data: page.data,
    links: { first: null, last: null, prev: link(page.prevCursor), next: link(page.nextCursor) },
    meta: { path, per_page: page.limit, next_cursor: page.nextCursor, prev_cursor: page.prevCursor },
  };
}
