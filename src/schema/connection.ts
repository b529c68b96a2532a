import type { Page } from '../lib/pagination.ts';

/** Descriptions shared by every connection field. */
export const CONNECTION_DESCRIPTION =
  'Newest first. Page forward with `first` and `after: pageInfo.endCursor`, back with `last` and ' +
  '`before: pageInfo.startCursor`; the page size defaults to 50 and is clamped to 200.';

/**
 * A service Page as a Relay connection; the page's cursors become pageInfo's. Connection fields
 * declare `validate: serviceInput(<list schema>)` (names.ts) and hand `args` to the service.
 */
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
