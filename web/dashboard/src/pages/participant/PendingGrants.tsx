import { Code, Group, VisuallyHidden } from '@mantine/core';
import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { Nowrap } from '../../components/Nowrap.tsx';
import { nextPage, PagedTable } from '../../components/PagedTable.tsx';
import { ToneBadge } from '../../components/ToneBadge.tsx';
import { formatDateTime, formatNumber, shortId } from '../../lib/format.ts';
import { useMode } from '../../mode.tsx';
import { notifyError, notifySuccess } from '../../notify.ts';
import { useTRPC } from '../../trpc.ts';
import { PENDING_STATUS_COLORS, type PendingGrant } from './logic.ts';

/**
 * A participant's pending grants, newest first: flow-awarded points waiting for `available_at`.
 * A `pending` one can be activated early or cancelled; `onSettled` refreshes what that moves
 * (balance, pending points, lots, ledger).
 */
export function PendingGrants({ externalId, onSettled }: { externalId: string; onSettled: () => void }) {
  const trpc = useTRPC();
  const { mode } = useMode();
  const grants = useInfiniteQuery(
    trpc.points.pending.infiniteQueryOptions({ mode, externalId, limit: 10 }, { getNextPageParam: nextPage }),
  );
  const activate = useMutation(
    trpc.points.activate.mutationOptions({
      onSuccess: (g) => {
        notifySuccess(`${formatNumber(g.points)} pending points activated`);
        onSettled();
      },
      onError: (error) => {
        notifyError(error);
        onSettled();
      },
    }),
  );
  const cancel = useMutation(
    trpc.points.cancel.mutationOptions({
      onSuccess: (g) => {
        notifySuccess(`${formatNumber(g.points)} pending points cancelled`);
        onSettled();
      },
      onError: (error) => {
        notifyError(error);
        onSettled();
      },
    }),
  );
  const busy = (m: typeof activate | typeof cancel, g: PendingGrant) =>
    m.isPending && m.variables?.id === g.id;
  return (
    <PagedTable<PendingGrant>
      label="Pending points"
      query={grants}
      rowKey={(g) => g.id}
      empty="No pending points."
      columns={[
        {
          key: 'granted',
          title: 'Granted',
          width: 200,
          render: (g) => <Nowrap>{formatDateTime(g.created_at)}</Nowrap>,
        },
        { key: 'points', title: 'Points', align: 'right', width: 90, render: (g) => formatNumber(g.points) },
        {
          key: 'available',
          title: 'Available at',
          width: 200,
          render: (g) => <Nowrap>{formatDateTime(g.available_at)}</Nowrap>,
        },
        {
          key: 'status',
          title: 'Status',
          width: 110,
          render: (g) => (
            <ToneBadge size="sm" color={PENDING_STATUS_COLORS[g.status]}>
              {g.status}
            </ToneBadge>
          ),
        },
        {
          key: 'event',
          title: 'Event',
          render: (g) =>
            g.event_id ? (
              <Code title={g.event_id} style={{ whiteSpace: 'nowrap' }}>
                {shortId(g.event_id, 18)}
              </Code>
            ) : (
              '—'
            ),
        },
        {
          key: 'actions',
          title: <VisuallyHidden>Actions</VisuallyHidden>,
          align: 'right',
          width: 180,
          render: (g) =>
            g.status === 'pending' && (
              <Group gap="xs" justify="flex-end" wrap="nowrap">
                <ConfirmButton
                  size="compact-xs"
                  variant="default"
                  color="teal.9"
                  aria-label={`Activate ${g.points} pending points`}
                  title="Activate these points now?"
                  message={`${formatNumber(g.points)} points become spendable now instead of at ${formatDateTime(g.available_at)}.`}
                  confirmLabel="Activate"
                  loading={busy(activate, g)}
                  onConfirm={() => activate.mutate({ mode, id: g.id })}
                >
                  Activate
                </ConfirmButton>
                <ConfirmButton
                  size="compact-xs"
                  variant="default"
                  color="red.9"
                  aria-label={`Cancel ${g.points} pending points`}
                  title="Cancel these pending points?"
                  message={`${formatNumber(g.points)} points are never credited. This cannot be undone.`}
                  confirmLabel="Cancel points"
                  loading={busy(cancel, g)}
                  onConfirm={() => cancel.mutate({ mode, id: g.id })}
                >
                  Cancel
                </ConfirmButton>
              </Group>
            ),
        },
      ]}
    />
  );
}
