import { Alert, Button, Center, Loader, Stack, Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { describeError } from '../trpc.ts';

/** What went wrong, in the service's words, with a retry when there is something to retry. */
export function ErrorNotice({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { message, type, fields } = describeError(error);
  return (
    <Alert
      color="red"
      title={type === 'not_found' ? 'Not found' : 'Something went wrong'}
      role="alert"
      my="md"
    >
      <Stack gap="xs">
        <Text size="sm">{message}</Text>
        {fields.map((f) => (
          <Text size="sm" key={`${f.field}:${f.message}`}>
            <b>{f.field}</b>: {f.message}
          </Text>
        ))}
        {onRetry && (
          <Button size="xs" variant="light" color="red" w="fit-content" onClick={onRetry}>
            Try again
          </Button>
        )}
      </Stack>
    </Alert>
  );
}

/** Loading, error and empty states for one query, then its data. */
export function QueryState<T>({
  query,
  empty,
  isEmpty,
  children,
}: {
  query: UseQueryResult<T, unknown>;
  /** Shown when `isEmpty(data)` holds. */
  empty?: ReactNode;
  isEmpty?: (data: T) => boolean;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending)
    return (
      <Center h={160}>
        <Loader aria-label="Loading" />
      </Center>
    );
  if (query.isError) return <ErrorNotice error={query.error} onRetry={() => query.refetch()} />;
  if (empty && isEmpty?.(query.data)) return <EmptyState>{empty}</EmptyState>;
  return <>{children(query.data)}</>;
}

export function EmptyState({ children }: { children: ReactNode }) {
  return (
    <Center h={140} data-testid="empty-state">
      <Text c="dimmed" ta="center">
        {children}
      </Text>
    </Center>
  );
}
