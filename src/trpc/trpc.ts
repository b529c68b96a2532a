import { initTRPC, TRPCError } from '@trpc/server';
import type { Request, Response } from 'express';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import {
  DomainError,
  type ErrorType,
  type FieldError,
  UNEXPECTED_ERROR_MESSAGE,
  validationError,
} from '../errors.ts';
import { assertSameOrigin } from '../lib/same-origin.ts';
import type { Mode, Principal } from '../services/keys/principal.ts';
import type { DashboardUser } from '../services/workspaces/authenticate-user.ts';
import type { SignedIn } from '../services/workspaces/sessions.ts';

export interface TrpcContext {
  app: AppContext;
  req: Request;
  res: Response;
  /**
   * The live session the request's cookie names (null without one): looked up at most once per
   * HTTP request, however many procedures a batch holds.
   */
  session: () => Promise<SignedIn | null>;
}

type TrpcCode = TRPCError['code'];

/** DomainError → tRPC code, once for the router (a new ErrorType fails to compile until it is mapped). */
const CODES: Record<ErrorType, TrpcCode> = {
  invalid_request_error: 'BAD_REQUEST',
  validation_error: 'BAD_REQUEST',
  authentication_error: 'UNAUTHORIZED',
  permission_error: 'FORBIDDEN',
  not_found: 'NOT_FOUND',
  idempotency_conflict: 'CONFLICT',
  invalid_state: 'CONFLICT',
  payload_too_large: 'PAYLOAD_TOO_LARGE',
  insufficient_points: 'UNPROCESSABLE_CONTENT',
  out_of_stock: 'UNPROCESSABLE_CONTENT',
  reward_unavailable: 'UNPROCESSABLE_CONTENT',
  external_fulfilment_failed: 'UNPROCESSABLE_CONTENT',
  already_reversed: 'UNPROCESSABLE_CONTENT',
  tier_required: 'UNPROCESSABLE_CONTENT',
  rate_limit_error: 'TOO_MANY_REQUESTS',
  api_error: 'INTERNAL_SERVER_ERROR',
};

/** The domain type of an error tRPC raised itself (unknown procedure, unparseable request, …). */
const typeOfCode = (code: TrpcCode): ErrorType =>
  code === 'INTERNAL_SERVER_ERROR'
    ? 'api_error'
    : code === 'NOT_FOUND'
      ? 'not_found'
      : code === 'PAYLOAD_TOO_LARGE'
        ? 'payload_too_large'
        : 'invalid_request_error';

type Issue = { path?: readonly unknown[]; message: string };

/** The issues of a failed `.input()` parse (a ZodError or a Standard Schema error). */
const issuesOf = (cause: unknown): Issue[] | null => {
  const issues = (cause as { issues?: unknown } | undefined)?.issues;
  return Array.isArray(issues) ? (issues as Issue[]) : null;
};

/** The error's DomainError: thrown by a service, or the `.input()` schema's failure as a validation_error. */
export function domainErrorOf(error: TRPCError): DomainError | null {
  if (error.cause instanceof DomainError) return error.cause;
  const issues = error.code === 'BAD_REQUEST' ? issuesOf(error.cause) : null;
  return issues
    ? validationError(
        issues.map((i) => ({
          field: i.path?.length ? i.path.map(String).join('.') : '(input)',
          message: i.message,
        })),
      )
    : null;
}

const t = initTRPC.context<TrpcContext>().create({
  /**
   * `data.type` is the domain error type (docs/api.md#errors) and the DomainError's extra fields ride
   * along (`data.errors` for field errors). Unexpected errors say nothing about their cause, and
   * no stack trace is ever sent.
   */
  errorFormatter({ shape, error }) {
    const domain = domainErrorOf(error);
    const { stack: _stack, ...data } = shape.data;
    return {
      ...shape,
      message: domain
        ? domain.message
        : error.code === 'INTERNAL_SERVER_ERROR'
          ? UNEXPECTED_ERROR_MESSAGE
          : shape.message,
      data: {
        ...data,
        type: domain?.type ?? typeOfCode(error.code),
        ...(domain?.extra as { errors?: FieldError[] } & Record<string, unknown>),
      },
    };
  },
});

/** Maps DomainErrors (and `.input()` failures) to tRPC codes once, for every procedure. */
const domainErrors = t.middleware(async ({ next }) => {
  const result = await next();
  const domain = result.ok ? null : domainErrorOf(result.error);
  if (domain) throw new TRPCError({ code: CODES[domain.type], message: domain.message, cause: domain });
  return result;
});

/** CSRF (docs/dashboard.md#security): every mutation, sign-in included, must come from this server's own origin. */
const sameOriginMutations = t.middleware(({ ctx, type, next }) => {
  if (type !== 'query') assertSameOrigin(ctx.req);
  return next();
});

export const router = t.router;
export const publicProcedure = t.procedure.use(domainErrors).use(sameOriginMutations);

/** Signed in: the cookie names a live session (not signed out, not expired) of a user who still exists. */
export const sessionProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const user = (await ctx.session())?.user;
  if (!user) throw new DomainError('authentication_error', 'Not signed in: sign in to the dashboard first');
  return next({
    ctx: {
      user,
      /** The dashboard acts for its workspace with every ability, in the mode of its live/test switch. */
      as: (mode: Mode): Principal => principalFor(user, mode),
    },
  });
});

/** The dashboard acts for its user's workspace with every ability, in one mode. */
export const principalFor = (user: DashboardUser, mode: Mode): Principal => ({
  workspaceId: user.workspace.id,
  workspaceSlug: user.workspace.slug,
  mode,
  keyId: `session:${user.id}`,
  abilities: ['*'],
});

/** The dashboard's live/test switch, sent with every workspace call. */
export const modeShape = { mode: z.enum(['live', 'test']) };

/** A service's input schema plus the `mode` switch (the services' schemas are strict, so `mode` is added, not passed through). */
export const withMode = <Shape extends z.ZodRawShape, Config extends z.core.$ZodObjectConfig>(
  schema: z.ZodObject<Shape, Config>,
) => schema.extend(modeShape);
