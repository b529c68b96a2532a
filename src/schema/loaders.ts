import { createContextCache } from '@pothos/core';
import DataLoader from 'dataloader';
import type { GraphQLContext } from './context.ts';

/**
 * A DataLoader per request (its GraphQL context) and per `variant`, for nested fields the
 * Dataloader plugin's `t.loadable` does not fit: a connection whose arguments every parent shares
 * (the variant is the arguments), or one load two fields read. The loads of one level of a query
 * reach `batch` together: one service call, one statement, for a list of parents. `batch`
 * answers per key, in order, a value or the error that key fails with.
 */
export function requestLoader<V>(
  batch: (keys: readonly string[], ctx: GraphQLContext, variant: string) => Promise<(V | Error)[]>,
) {
  const loaders = createContextCache((_ctx: GraphQLContext) => new Map<string, DataLoader<string, V>>());
  return (ctx: GraphQLContext, variant = ''): DataLoader<string, V> => {
    const byVariant = loaders(ctx);
    let loader = byVariant.get(variant);
    if (!loader) {
      loader = new DataLoader<string, V>((keys) => batch(keys, ctx, variant));
      byVariant.set(variant, loader);
    }
    return loader;
  };
}
