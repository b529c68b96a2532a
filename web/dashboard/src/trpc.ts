import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import type { AppRouter } from '../../../src/trpc/router.ts';

/**
 * The dashboard's typed client: types flow from the server's router (`AppRouter`), never copied.
 * The session is the HttpOnly cookie the browser sends by itself; no key or secret is kept here.
 */
export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

export const makeClient = () =>
  createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: '/trpc',
        fetch: (url, init) => fetch(url, { ...init, credentials: 'same-origin' }),
      }),
    ],
  });

export type Client = ReturnType<typeof makeClient>;

export interface FieldError {
  field: string;
  message: string;
}

/** What the service said went wrong: its message, error type (docs/api.md#errors) and field errors. */
export function describeError(error: unknown): {
  message: string;
  type: string | null;
  fields: FieldError[];
} {
  if (error instanceof TRPCClientError) {
    const data = (error.data ?? {}) as { type?: string; errors?: FieldError[] };
    return { message: error.message, type: data.type ?? null, fields: data.errors ?? [] };
  }
  return { message: error instanceof Error ? error.message : String(error), type: null, fields: [] };
}

/** True when the service answered "not signed in". */
export const isSignedOut = (error: unknown) => describeError(error).type === 'authentication_error';
