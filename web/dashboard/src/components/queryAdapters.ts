import type { InfiniteData, UseInfiniteQueryResult, UseQueryResult } from '@tanstack/react-query';

/**
 * tRPC's query error (`TRPCClientErrorLike`) is not typed as an `Error`, which QueryState and
 * PagedTable ask for; they only hand the error to `describeError(unknown)`, so any error type is
 * safe there. These adapters say so once instead of a cast at every call.
 */
export const forState = <T>(query: UseQueryResult<T, unknown>) => query as UseQueryResult<T>;

export const forTable = <T>(
  query: UseInfiniteQueryResult<InfiniteData<{ data: T[]; nextCursor: string | null }, unknown>, unknown>,
) =>
  query as unknown as UseInfiniteQueryResult<InfiniteData<{ data: T[]; nextCursor: string | null }, unknown>>;
