import type { InfiniteData, UseInfiniteQueryResult, UseQueryResult } from '@tanstack/react-query';

// The shared QueryState and PagedTable are typed for `Error`; a tRPC query's error is tRPC's own
// (TRPCClientErrorLike), which they handle alike (describeError). These only widen the type.

/** A tRPC query for QueryState. */
export const asQuery = <T>(query: UseQueryResult<T, unknown>) => query as UseQueryResult<T>;

/** A tRPC infinite query for PagedTable. */
export const asInfinite = <P>(query: UseInfiniteQueryResult<InfiniteData<P, unknown>, unknown>) =>
  query as UseInfiniteQueryResult<InfiniteData<P, unknown>>;
