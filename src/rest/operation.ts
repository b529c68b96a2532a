import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import type { z } from 'zod';
import type { ZodObjectInput, ZodOpenApiResponsesObject } from 'zod-openapi';
import type { AppContext } from '../context.ts';
import { DomainError, type ErrorType, type FieldError } from '../errors.ts';
import type { Page } from '../lib/pagination.ts';
import { isResourceId } from '../lib/primitives.ts';
import type { Ability } from '../services/keys/abilities.ts';
import type { Principal } from '../services/keys/principal.ts';
import { presentPage, requireKey, route } from './http.ts';

/**
 * `none`: no credentials; `signature`: ingest endpoint key + `X-Signature` (checked by the
 * handler); `key`: any valid bearer API key; an ability: a bearer key holding it (docs/api.md#keys-modes-and-abilities).
 */
export type OperationAuth = 'none' | 'signature' | 'key' | Ability;

type SuccessStatus = '200' | '201' | '202';

/** One documented response: its schema is what the test client validates every real body against. */
export interface ResponseDoc {
  description: string;
  schema?: z.ZodType;
  /** Defaults to `application/json`. */
  contentType?: string;
  /** Several content types (e.g. a download as CSV or JSON Lines), instead of `schema`/`contentType`. */
  content?: Record<string, z.ZodType>;
  headers?: Record<string, z.ZodType>;
}

type PathShape = z.ZodObject;

/** What a handler is given: the validated path, query and body, the caller, and the request itself. */
export interface Call<P, B = unknown, Q = Record<string, unknown>> {
  ctx: AppContext;
  req: Request;
  res: Response;
  /** The path parameters, parsed by the declaration's `params.path`. */
  params: P;
  /** The query, parsed by the declaration's `params.query` (the raw query when none is declared). */
  query: Q;
  /** The bearer key's principal (operations with `auth` `key` or an ability). */
  who: Principal;
  /**
   * The JSON body parsed by the declaration's `body.schema` (`{}` when absent), or the text of a
   * text/plain or text/csv body, or the raw JSON of a signed body (the handler checks it).
   */
  body: B;
}

/** A result with a status or headers other than the declaration's `success` (e.g. a 200 replay). */
export class Reply {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Record<string, string>;
  constructor(status: number, body: unknown, headers: Record<string, string> = {}) {
    this.status = status;
    this.body = body;
    this.headers = headers;
  }
}

/** A body streamed to the client (a download) with its headers, instead of JSON. */
export class Streamed {
  readonly headers: Record<string, string>;
  readonly body: Readable;
  constructor(headers: Record<string, string>, body: Readable) {
    this.headers = headers;
    this.body = body;
  }
}

/** A 201 first time, a 200 with `Idempotent-Replayed: true` for a replay (docs/api.md#idempotency). */
export const idempotentReply = (replayed: boolean, body: unknown) =>
  replayed ? new Reply(200, body, { 'Idempotent-Replayed': 'true' }) : new Reply(201, body);

/**
 * One REST operation, declared once: the route is mounted from it (auth, input validation at
 * the edge, the status, the page envelope) and the OpenAPI document is generated from it.
 */
export interface Operation<P = Record<string, string>, B = unknown, Q = Record<string, unknown>> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI path template, e.g. `/v1/events/{id}`; the express route is derived from it. */
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  auth: OperationAuth;
  /** The services' zod schemas; path and query are validated before the handler runs. */
  params?: { path?: PathShape; query?: ZodObjectInput; header?: ZodObjectInput };
  /**
   * The JSON body, validated before the handler runs; `alternatives`: other accepted content
   * types (e.g. `text/csv` code imports), left to the handler. `maxBytes` overrides MAX_BODY_BYTES.
   */
  body?: {
    schema: z.ZodType;
    description?: string;
    alternatives?: Record<string, z.ZodType>;
    maxBytes?: number;
  };
  success: ResponseDoc & { status: SuccessStatus };
  /** Other success statuses the handler may answer with a `Reply` (e.g. the 200 replay beside 201). */
  otherSuccess?: Partial<Record<SuccessStatus, ResponseDoc>>;
  /** Error types beyond those implied by auth, body and params (e.g. `not_found`). */
  errors?: ErrorType[];
  /** Responses that fit no pattern (e.g. /readyz's 503). */
  extraResponses?: ZodOpenApiResponsesObject;
  /**
   * A paged list (docs/api.md#pagination): the handler returns a `Page` and the door answers `{ data,
   * links, meta }`, the declared query filters carried into the links.
   */
  paged?: true;
  /**
   * A query parameter that stands in for the bearer key (a signed URL): when a request carries
   * it, no key is asked for and the handler checks it; without it, `auth` applies as usual.
   */
  signedUrlQuery?: string;
  /** The handler: a body for `success.status`, or a `Reply`. Absent when `servedBy` says where. */
  handle?: (call: Call<P, B, Q>) => Promise<unknown>;
  /** Served by another door (e.g. `POST /v1/events` on bare node:http), documented here. */
  servedBy?: string;
}

/**
 * Declares an operation; the handler's path, query and body types are the outputs of the
 * declared schemas, which the door has already parsed: services take them as they are.
 */
export const operation = <
  S extends PathShape = z.ZodObject<Record<string, never>>,
  B extends z.ZodType = z.ZodType<unknown>,
  Q extends z.ZodType = z.ZodType<Record<string, unknown>>,
>(
  op: Operation<z.output<S>, z.output<B>, z.output<Q>> & {
    params?: { path?: S; query?: Q };
    body?: { schema: B };
  },
): Operation => op as unknown as Operation;

/** `/v1/rewards/{id}/codes` → `/v1/rewards/:id/codes`. */
export const expressPath = (template: string) => template.replace(/\{(\w+)\}/g, ':$1');

const pageKeys = new Set(['limit', 'cursor']);

/** Where a bad value was, named in validation messages. */
type Location = 'path' | 'query' | 'body';

function fieldErrors(error: z.ZodError, where: Location): FieldError[] {
  return error.issues.map((issue) => ({
    field: issue.path.length ? issue.path.join('.') : where === 'body' ? '(body)' : `(${where})`,
    message: issue.message,
  }));
}

const validationAt = (where: Location, errors: FieldError[]) =>
  new DomainError('validation_error', errors.map((e) => `${where} ${e.field}: ${e.message}`).join('; '), {
    errors,
  });

/** Path parameters: a resource id that cannot exist is a 404, any other bad value a 422 naming `path`. */
function parsePath(op: Operation, req: Request): Record<string, string> {
  const schema = op.params?.path;
  const raw = req.params as Record<string, string>;
  if (!schema) return raw;
  const result = schema.safeParse(raw);
  if (result.success) return result.data as Record<string, string>;
  for (const issue of result.error.issues) {
    const param = issue.path[0];
    const field = typeof param === 'string' ? schema.shape[param] : undefined;
    if (field && isResourceId(field))
      throw new DomainError('not_found', `No resource matches path parameter ${String(param)}`);
  }
  throw validationAt('path', fieldErrors(result.error, 'path'));
}

function parseQuery(op: Operation, req: Request): Record<string, unknown> {
  const schema = op.params?.query as z.ZodType<Record<string, unknown>> | undefined;
  if (!schema) return req.query as Record<string, unknown>;
  const result = schema.safeParse(req.query);
  if (!result.success) throw validationAt('query', fieldErrors(result.error, 'query'));
  return result.data;
}

/**
 * A JSON body is checked against the declared schema; a text body (code imports) is the
 * handler's. So is a signed body (ingest endpoints): its signature is checked first, so an
 * unsigned request is a 401 whatever it carries.
 */
function parseBody(op: Operation, body: unknown): unknown {
  if (!op.body || typeof body === 'string' || op.auth === 'signature') return body;
  const result = op.body.schema.safeParse(body);
  if (!result.success) throw validationAt('body', fieldErrors(result.error, 'body'));
  return result.data;
}

/** The filters of a paged list's query, as sent, for its `links`. */
function filtersOf(op: Operation, req: Request): Record<string, unknown> {
  const shape = (op.params?.query as z.ZodObject | undefined)?.shape ?? {};
  return Object.fromEntries(
    Object.keys(shape)
      .filter((k) => !pageKeys.has(k))
      .map((k) => [k, (req.query as Record<string, unknown>)[k]]),
  );
}

function handlerOf(ctx: AppContext, op: Operation): RequestHandler {
  const handle = op.handle;
  if (!handle) throw new Error(`${op.operationId} has no handler and no servedBy`);
  const status = Number(op.success.status);
  return route(async (req, res) => {
    const params = parsePath(op, req);
    const query = parseQuery(op, req);
    const body = parseBody(op, req.body ?? {});
    const call: Call<Record<string, string>> = {
      ctx,
      req,
      res,
      params,
      query,
      body,
      get who(): Principal {
        if (!req.principal) throw new DomainError('authentication_error', 'Not authenticated');
        return req.principal;
      },
    };
    const result = await handle(call);
    if (result instanceof Streamed) {
      for (const [name, value] of Object.entries(result.headers)) res.setHeader(name, value);
      res.status(status);
      // A failure once bytes are sent can only cut the response short (the client sees a short body).
      await pipeline(result.body, res).catch((err) => {
        if (!res.headersSent) throw err;
        res.destroy(err as Error);
      });
      return;
    }
    if (result instanceof Reply) {
      for (const [name, value] of Object.entries(result.headers)) res.setHeader(name, value);
      res.status(result.status).json(result.body);
      return;
    }
    res
      .status(status)
      .json(op.paged ? presentPage(req, result as Page<unknown>, filtersOf(op, req)) : result);
  });
}

/** Mounts every declared operation that this router serves (with auth from its declaration). */
export function mountOperations(ctx: AppContext, operations: readonly Operation[]): Router {
  const router = express.Router();
  for (const op of operations) {
    if (op.servedBy) continue;
    const keyed = requireKey(ctx, op.auth === 'key' ? undefined : (op.auth as Ability));
    const signed = op.signedUrlQuery;
    const auth: RequestHandler[] =
      op.auth === 'none' || op.auth === 'signature'
        ? []
        : signed
          ? [(req, res, next) => (typeof req.query[signed] === 'string' ? next() : keyed(req, res, next))]
          : [keyed];
    router[op.method](expressPath(op.path), ...auth, handlerOf(ctx, op));
  }
  return router;
}

/** Body size exceptions (e.g. code imports), from the declarations, for the body parser. */
export const largerBodies = (operations: readonly Operation[]) =>
  operations
    .filter((op) => op.body?.maxBytes)
    .map((op) => ({
      // Relative to /v1, where the body parser is mounted.
      path: new RegExp(`^${expressPath(op.path.replace(/^\/v1/, '')).replace(/:\w+/g, '[^/]+')}$`),
      maxBytes: op.body!.maxBytes!,
    }));
