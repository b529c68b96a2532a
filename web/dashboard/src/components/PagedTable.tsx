import { Button, Center, Loader, ScrollArea, Table } from '@mantine/core';
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { EmptyState, ErrorNotice } from './QueryState.tsx';

export interface Column<T> {
  key: string;
  title: ReactNode;
  render: (row: T) => ReactNode;
  width?: number | string;
  /** `right` for numbers (with tabular figures, so digits line up). */
  align?: 'left' | 'right';
}

const cellStyle = (align?: 'left' | 'right') =>
  align === 'right' ? { textAlign: 'right' as const, fontVariantNumeric: 'tabular-nums' } : undefined;

interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

/**
 * A keyset-paged list (docs/api.md#pagination) as a table: newest first, "Load more" follows `nextCursor`.
 * Use with `useInfiniteQuery(trpc.x.list.infiniteQueryOptions(input, { getNextPageParam: nextPage }))`.
 */
export function PagedTable<T>({
  query,
  columns,
  rowKey,
  empty,
  onRowClick,
  label,
}: {
  /** Any error type: it is only described (`describeError`), so tRPC's own error type fits. */
  query: UseInfiniteQueryResult<InfiniteData<Page<T>, unknown>, unknown>;
  columns: Column<T>[];
  rowKey: (row: T) => string;
  empty: ReactNode;
  onRowClick?: (row: T) => void;
  /** The table's accessible name. */
  label: string;
}) {
  if (query.isPending)
    return (
      <Center h={160}>
        <Loader aria-label="Loading" />
      </Center>
    );
  if (query.isError) return <ErrorNotice error={query.error} onRetry={() => query.refetch()} />;
  const rows = query.data.pages.flatMap((p) => p.data);
  if (!rows.length) return <EmptyState>{empty}</EmptyState>;
  return (
    <>
      <ScrollArea>
        <Table striped highlightOnHover={!!onRowClick} aria-label={label} verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              {columns.map((c) => (
                <Table.Th key={c.key} w={c.width} style={cellStyle(c.align)}>
                  {c.title}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr
                key={rowKey(row)}
                onClick={onRowClick ? () => onRowClick(row) : undefined}
                style={onRowClick ? { cursor: 'pointer' } : undefined}
              >
                {columns.map((c) => (
                  <Table.Td key={c.key} style={cellStyle(c.align)}>
                    {c.render(row)}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      {query.hasNextPage && (
        <Center mt="md">
          <Button variant="default" loading={query.isFetchingNextPage} onClick={() => query.fetchNextPage()}>
            Load more
          </Button>
        </Center>
      )}
    </>
  );
}

/** `getNextPageParam` for every paged list. */
export const nextPage = (last: Page<unknown>) => last.nextCursor ?? undefined;
