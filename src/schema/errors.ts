import type { GraphQLError } from 'graphql';
import { createGraphQLError } from 'graphql-yoga';
import type { Logger } from 'pino';
import { DomainError, UNEXPECTED_ERROR_MESSAGE } from '../errors.ts';
import { errorFields } from '../logger.ts';

/**
 * The one place GraphQL errors are shaped (yoga's `maskedErrors.maskError`): a DomainError keeps
 * its message, `extensions.code` is its type (`validation_error`, `permission_error`, …) and its
 * extra fields ride along (`extensions.errors` for field errors). GraphQL's own request errors
 * (syntax, unknown field, bad variable) pass through. Anything else is masked as `api_error`:
 * no message, stack or cause reaches the client.
 */
export function maskError(error: unknown, _message: string): Error {
  const graphqlError = isGraphQLError(error) ? error : null;
  const original = graphqlError ? graphqlError.originalError : error;
  const where = graphqlError
    ? {
        nodes: graphqlError.nodes,
        source: graphqlError.source,
        positions: graphqlError.positions,
        path: graphqlError.path,
      }
    : {};
  if (original instanceof DomainError) {
    return createGraphQLError(original.message, {
      ...where,
      extensions: { code: original.type, ...original.extra },
    });
  }
  if (graphqlError && (!original || isGraphQLError(original))) return graphqlError;
  return createGraphQLError(UNEXPECTED_ERROR_MESSAGE, { ...where, extensions: { code: 'api_error' } });
}

/**
 * By shape, not `instanceof`: graphql ships CommonJS and ESM builds, and a test runner can load
 * both, so a GraphQLError from the executor need not be an instance of the class imported here.
 * Errors are created with yoga's `createGraphQLError` for the same reason.
 */
const isGraphQLError = (e: unknown): e is GraphQLError =>
  e instanceof Error && 'extensions' in e && 'originalError' in e && 'path' in e;

/** Whether yoga is reporting an error the client caused (a DomainError), rather than a fault of ours. */
const isExpected = (error: unknown) =>
  isGraphQLError(error) ? error.originalError instanceof DomainError : error instanceof DomainError;

/**
 * Yoga's logger over pino. Yoga logs every error it masks; a DomainError is an answer, not a
 * fault, so it goes to debug, and only unexpected errors are logged as errors.
 */
export function yogaLogger(log: Logger) {
  const child = log.child({ component: 'graphql' });
  return {
    debug: (...args: unknown[]) => child.debug({ args: args.map(loggable) }, 'yoga'),
    info: (...args: unknown[]) => child.info({ args: args.map(loggable) }, 'yoga'),
    warn: (...args: unknown[]) => child.warn({ args: args.map(loggable) }, 'yoga'),
    error: (...args: unknown[]) => {
      const [first] = args;
      if (isExpected(first)) child.debug({ err: first }, 'graphql request refused');
      else
        child.error(
          { err: isGraphQLError(first) ? (first.originalError ?? first) : first },
          'unexpected GraphQL error',
        );
    },
  };
}

/** An error among yoga's log arguments is logged as the `err` serializer would (never whole). */
const loggable = (arg: unknown) => (arg instanceof Error ? errorFields(arg) : arg);

/** A nullable single-object field: the service's not_found is the field's null. */
export const orNull = <T>(read: Promise<T>): Promise<T | null> =>
  read.catch((err: unknown) => {
    if (err instanceof DomainError && err.type === 'not_found') return null;
    throw err;
  });
