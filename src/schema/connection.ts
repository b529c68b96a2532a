import { validationError } from '../errors.ts';
import type { Page } from '../lib/pagination.ts';

export interface ConnectionArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

/** Descriptions shared by every connection field. */
export const CONNECTION_DESCRIPTION =
  'Newest first. Page forward with `first` and `after: pageInfo.endCursor`, back with `last` and ' +
  '`before: pageInfo.startCursor`; the page size defaults to 50 and is clamped to 200.';

/**
 * Relay arguments → the services' `{ limit, cursor }`. The services' cursors carry their own
 * direction (endCursor walks to older rows, startCursor to newer ones), so `after` and `before`
 * both become `cursor`; names in validation errors are mapped back by {@link pageArgName}.
 */
export function pageInputFrom(args: ConnectionArgs): { limit?: number; cursor?: string } {
  const problems = [];
  if (args.first != null && args.last != null)
    problems.push({ field: 'last', message: 'send one of first and last' });
  if (args.after != null && args.before != null)
    problems.push({ field: 'before', message: 'send one of after and before' });
  if (problems.length) throw validationError(problems);
  const limit = args.first ?? args.last;
  const cursor = args.after ?? args.before;
  return { ...(limit != null && { limit }), ...(cursor != null && { cursor }) };
}

/** The service's `limit`/`cursor` error fields under the argument names the caller used. */
export const pageArgName = (args: ConnectionArgs) => (field: string) => {
  if (field === 'limit') return args.last != null ? 'last' : 'first';
  if (field === 'cursor') return args.before != null ? 'before' : 'after';
  return field;
};

/** A service Page as a Relay connection; the page's cursors become pageInfo's. */
export function connectionFrom<T>(page: Page<T>) {
  return {
    // Edges have no cursor of their own (see the builder's cursorFieldOptions).
    edges: page.data.map((node) => ({ node, cursor: null as unknown as string })),
    pageInfo: {
      hasNextPage: page.nextCursor !== null,
      hasPreviousPage: page.prevCursor !== null,
      startCursor: page.prevCursor,
      endCursor: page.nextCursor,
    },
  };
}
