import { Alert, Button, Center, Group, Loader, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ErrorNotice } from '../../components/QueryState.tsx';
import { formatNumber } from '../../lib/format.ts';
import { useMode } from '../../mode.tsx';
import { notifyError, notifySuccess } from '../../notify.ts';
import { useTRPC } from '../../trpc.ts';
import { alertTone } from '../rewards/tone.ts';
import type { Badge } from './logic.ts';

/**
 * A badge's backfill, dry run first: opening it counts who would be awarded now (nothing
 * changes); confirming queues the job that awards them, each once.
 */
export function Backfill({
  badge,
  onQueued,
  onDone,
}: {
  badge: Badge;
  /** The job runs in the background: the page follows the holders for a while. */
  onQueued: () => void;
  onDone: () => void;
}) {
  const trpc = useTRPC();
  const { mode } = useMode();
  const dryRun = useMutation(trpc.achievements.backfill.mutationOptions());
  const queue = useMutation(
    trpc.achievements.backfill.mutationOptions({
      onSuccess: () => {
        notifySuccess(`Backfill of “${badge.name}” queued: holders grow as it runs`);
        onQueued();
        onDone();
      },
      onError: notifyError,
    }),
  );
  const { mutate } = dryRun;
  useEffect(() => mutate({ mode, key: badge.key, dry_run: true }), [mutate, mode, badge.key]);
  const count = dryRun.data && 'would_award' in dryRun.data ? dryRun.data.would_award : null;
  return (
    <Stack gap="md">
      <Text size="sm">
        Criteria apply to events processed after they were set. A backfill awards “{badge.name}” to every
        participant who meets them now (the window ending now) and does not hold it yet, each once, with its{' '}
        <code>badge.awarded</code> webhook.
      </Text>
      {dryRun.isPending ? (
        <Center h={60}>
          <Loader size="sm" aria-label="Counting" />
        </Center>
      ) : dryRun.isError ? (
        <ErrorNotice error={dryRun.error} onRetry={() => mutate({ mode, key: badge.key, dry_run: true })} />
      ) : (
        count !== null && (
          <Alert {...alertTone(count ? 'indigo' : 'gray')} title="Dry run" data-testid="would-award">
            {count === 0
              ? 'Would award nobody: everyone who meets the criteria holds the badge.'
              : `Would award ${formatNumber(count)} participant${count === 1 ? '' : 's'}.`}
          </Alert>
        )
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          Cancel
        </Button>
        <Button
          disabled={!count}
          loading={queue.isPending}
          onClick={() => queue.mutate({ mode, key: badge.key })}
        >
          {count ? `Award ${formatNumber(count)}` : 'Award'}
        </Button>
      </Group>
    </Stack>
  );
}
