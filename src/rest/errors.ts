import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { DomainError } from '../errors.ts';

/** 404 for any route nobody answered, in the error envelope. */
export const notFoundHandler: RequestHandler = (req, _res, next) =>
  next(new DomainError('not_found', `No route for ${req.method} ${req.path}`));

/** The one place errors become HTTP: DomainError → its status; anything else → 500 without internals. */
export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const known = err instanceof DomainError ? err : clientHttpError(err);
    if (!known) log.error({ err, reqId: req.id, method: req.method, path: req.path }, 'unhandled error');
    const e =
      known ??
      new DomainError(
        'api_error',
        'Something went wrong on our side; the request id identifies it in our logs',
      );
    if (res.headersSent) return res.end();
    if (e.type === 'rate_limit_error' && typeof e.extra.retry_after === 'number')
      res.setHeader('Retry-After', String(e.extra.retry_after));
    res.status(e.status).json(e.toJSON());
  };
}

/**
 * Express and its router raise http-errors with a 4xx `status` for a bad request (e.g. a path
 * parameter that is not valid percent-encoding): the caller's fault, so a 400, not a 500.
 */
function clientHttpError(err: unknown): DomainError | null {
  const { status, expose, message } = (err ?? {}) as {
    status?: unknown;
    expose?: unknown;
    message?: unknown;
  };
  if (typeof status !== 'number' || status < 400 || status > 499 || expose === false) return null;
  const text = typeof message === 'string' && message ? message : 'Bad request';
  return new DomainError(status === 413 ? 'payload_too_large' : 'invalid_request_error', text);
}
