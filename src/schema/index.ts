import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import express, { type Request, type RequestHandler, type Response } from 'express';
import { type CORSOptions, createYoga, type Plugin } from 'graphql-yoga';
import type { AppContext } from '../context.ts';
import { DomainError } from '../errors.ts';
import { createGraphQLContext, type GraphQLContext } from './context.ts';
import { maskError, yogaLogger } from './errors.ts';
import { LIMIT_RULES } from './limits.ts';
import { schema } from './schema.ts';
import { originAllowed } from './socket.ts';

/**
 * GraphQL at /graphql (graphql-yoga over the Pothos schema), a door onto the same services as
 * REST. Callers authenticate with `Authorization: Bearer <API key>`, checked per field with the
 * REST abilities; GraphiQL is served outside production.
 */
export function graphqlHandler(ctx: AppContext): RequestHandler {
  const yoga = createYoga<{ req: Request; res: Response }, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    // GraphiQL served from the package (no CDN), with the header editor ready for a key or token.
    graphiql:
      ctx.config.NODE_ENV !== 'production'
        ? {
            title: 'svc GraphQL',
            headers: JSON.stringify({ Authorization: 'Bearer YOUR_API_KEY_OR_PARTICIPANT_TOKEN' }, null, 2),
            defaultEditorToolsVisibility: 'headers',
            shouldPersistHeaders: false,
          }
        : false,
    renderGraphiQL,
    landingPage: false,
    cors: (request) => corsFor(ctx, request),
    plugins: [limitsPlugin],
    maskedErrors: { maskError },
    logging: yogaLogger(ctx.log),
    context: ({ request, res }) =>
      createGraphQLContext(ctx, request.headers.get('authorization') ?? undefined, res),
  });
  // Bodies are read here, within MAX_BODY_BYTES like /v1; yoga takes the buffer as the body.
  const readBody = express.raw({ type: () => true, limit: ctx.config.MAX_BODY_BYTES });
  return (req, res, next) => {
    readBody(req, res, (err?: unknown) => {
      if (err) return next(bodyError(err, ctx.config.MAX_BODY_BYTES));
      yoga(req, res);
    });
  };
}

function bodyError(err: unknown, maxBytes: number): unknown {
  const type = (err as { type?: string }).type;
  if (type === 'entity.too.large')
    return new DomainError('payload_too_large', `Request body exceeds ${maxBytes} bytes`, {
      limit_bytes: maxBytes,
    });
  if (type === 'request.aborted' || type === 'request.size.invalid' || type === 'encoding.unsupported')
    return new DomainError('invalid_request_error', (err as Error).message);
  return err;
}

/** Depth and cost limits, checked with GraphQL's validation, before anything runs. */
const limitsPlugin: Plugin = {
  onValidate: ({ addValidationRule }) => {
    for (const rule of LIMIT_RULES) addValidationRule(rule);
  },
};

/**
 * CORS for browser callers of /graphql (CORS_ORIGINS; the service's own pages always): the
 * origin is echoed when allowed, and a disallowed origin gets no CORS headers, so the browser
 * refuses the response. Credentials are bearer headers, never cookies.
 */
function corsFor(ctx: AppContext, request: Request | globalThis.Request): CORSOptions | false {
  const origin = (request as globalThis.Request).headers.get('origin') ?? undefined;
  const host = (request as globalThis.Request).headers.get('host') ?? undefined;
  if (!origin || !originAllowed(ctx, origin, host)) return false;
  return {
    origin,
    methods: ['GET', 'POST', 'OPTIONS'],
    allowedHeaders: ['authorization', 'content-type', 'x-request-id'],
    exposedHeaders: [
      'x-request-id',
      'ratelimit-limit',
      'ratelimit-remaining',
      'ratelimit-reset',
      'retry-after',
    ],
    credentials: false,
    maxAge: 600,
  };
}
