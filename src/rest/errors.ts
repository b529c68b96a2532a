import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { DomainError, UNEXPECTED_ERROR_MESSAGE } from '../errors.ts';
import { errorStatus } from './error-status.ts';

/** 404 for any route nobody answered, in the error envelope. */
export const notFoundHandler: RequestHandler = (req, _res, next) =>
  next(new DomainError('not_found', `No route for ${req.method} ${req.path}`));

/** The one place errors become HTTP: DomainError → its status; anything else → 500 without internals. */
export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => sendError(log, err, req, res, req.path);
}

/**
 * Writes `err` as the error envelope (also for routes served on bare node:http), logging what
 * is not a known client error. The request id header is already on `res`.
 */
export function sendError(
  log: Logger,
  err: unknown,
  req: IncomingMessage & { id?: string },
  res: ServerResponse,
  path: string,
): void {
  const known = err instanceof DomainError ? err : clientHttpError(err);
  if (!known) log.error({ err, reqId: req.id, method: req.method, path }, 'unhandled error');
  const e = known ?? new DomainError('api_error', UNEXPECTED_ERROR_MESSAGE);
  if (res.headersSent) return void res.end();
  if (e.type === 'rate_limit_error' && typeof e.extra.retry_after === 'number')
    res.setHeader('Retry-After', String(e.extra.retry_after));
  const body = JSON.stringify(e.toJSON());
  res.statusCode = errorStatus[e.type];
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
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
