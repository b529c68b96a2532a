import express, { type Request, type RequestHandler, type Response } from 'express';
import { createYoga } from 'graphql-yoga';
import type { AppContext } from '../context.ts';
import { DomainError } from '../errors.ts';
import { createGraphQLContext, type GraphQLContext } from './context.ts';
import { maskError, yogaLogger } from './errors.ts';
import { schema } from './schema.ts';

/**
 * GraphQL at /graphql (graphql-yoga over the Pothos schema), a door onto the same services as
 * REST. Callers authenticate with `Authorization: Bearer <API key>`, checked per field with the
 * REST abilities; GraphiQL is served outside production.
 */
export function graphqlHandler(ctx: AppContext): RequestHandler {
  const yoga = createYoga<{ req: Request; res: Response }, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    graphiql: ctx.config.NODE_ENV !== 'production',
    landingPage: false,
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
