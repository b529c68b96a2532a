import { Alert, Anchor, Button, Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { nextPage, PagedTable } from '../../components/PagedTable.tsx';
import { ToneBadge } from '../../components/ToneBadge.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useMode } from '../../mode.tsx';
import { notifyError, notifySuccess } from '../../notify.ts';
import { useTRPC } from '../../trpc.ts';
import {
  DISABLED_REASON_TEXT,
  SUBSCRIPTION_STATUS_COLOR,
  type Subscription,
  type TestResult,
  toggleOf,
} from './logic.ts';
import { SubscriptionForm } from './SubscriptionForm.tsx';
import { TestResultModal } from './TestResultModal.tsx';

/**
 * The endpoints that receive webhooks, with their actions (send test, pause/resume or re-enable,
 * delete); each URL opens the endpoint's page (recover, secret rotation, why it was disabled).
 */
export function Subscriptions() {
  const trpc = useTRPC();
  const { mode } = useMode();
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Subscription | null>(null);
  const [tested, setTested] = useState<{ sub: Subscription; result: TestResult } | null>(null);
  const list = useInfiniteQuery(
    trpc.webhooks.subscriptions.list.infiniteQueryOptions(
      { mode, limit: 50 },
      { getNextPageParam: nextPage },
    ),
  );
  const wasDisabled = (id: string) =>
    list.data?.pages.some((page) => page.data.some((x) => x.id === id && x.status === 'disabled')) ?? false;
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: trpc.webhooks.subscriptions.list.pathKey() });
  const update = useMutation(
    trpc.webhooks.subscriptions.update.mutationOptions({
      onSuccess: (s, asked) => {
        notifySuccess(
          s.status === 'paused'
            ? 'Endpoint paused'
            : wasDisabled(asked.id)
              ? 'Endpoint re-enabled'
              : 'Endpoint resumed',
        );
        refresh();
      },
      onError: notifyError,
    }),
  );
  const remove = useMutation(
    trpc.webhooks.subscriptions.delete.mutationOptions({
      onSuccess: () => {
        notifySuccess('Endpoint deleted');
        refresh();
      },
      onError: notifyError,
    }),
  );
  const sendTest = useMutation(
    trpc.webhooks.subscriptions.sendTest.mutationOptions({ onError: notifyError }),
  );

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="nowrap" gap="xl">
        <Text size="sm" c="dimmed">
          Each endpoint gets a signing secret: verify the <code>X-Svc-Signature</code> header with it.
        </Text>
        <Button onClick={() => setCreating(true)} style={{ flexShrink: 0 }}>
          Add endpoint
        </Button>
      </Group>
      {mode === 'test' && (
        <Alert color="orange" variant="light" title="Test mode">
          Test-mode results are logged as <b>simulated</b> deliveries and never POSTed. “Send test” always
          sends a real request.
        </Alert>
      )}
      <PagedTable<Subscription>
        query={list}
        label="Webhook endpoints"
        rowKey={(s) => s.id}
        empty="No webhook endpoints yet. Add one to receive signed POSTs when things happen."
        columns={[
          {
            key: 'url',
            title: 'Endpoint',
            render: (s) => (
              <Stack gap={2}>
                <Anchor
                  component={Link}
                  to={`endpoints/${s.id}`}
                  size="sm"
                  ff="monospace"
                  miw={280}
                  style={{ overflowWrap: 'anywhere' }}
                >
                  {s.url}
                </Anchor>
                {s.description && (
                  <Text size="xs" c="dimmed">
                    {s.description}
                  </Text>
                )}
              </Stack>
            ),
          },
          {
            key: 'events',
            title: 'Events',
            width: 190,
            render: (s) => (
              <Group gap={4}>
                {s.event_types.map((t) => (
                  <ToneBadge key={t} color="indigo" tt="none">
                    {t === '*' ? 'all events' : t}
                  </ToneBadge>
                ))}
              </Group>
            ),
          },
          {
            key: 'status',
            title: 'Status',
            width: 100,
            render: (s) =>
              s.status === 'disabled' && s.disabled_reason ? (
                <ToneBadge
                  color={SUBSCRIPTION_STATUS_COLOR.disabled}
                  title={DISABLED_REASON_TEXT[s.disabled_reason]}
                >
                  {s.disabled_reason === 'gone' ? 'disabled: gone' : 'disabled: failing'}
                </ToneBadge>
              ) : (
                <ToneBadge color={SUBSCRIPTION_STATUS_COLOR[s.status]}>{s.status}</ToneBadge>
              ),
          },
          {
            key: 'created',
            title: 'Created',
            // May break after the day: the row's buttons need the width more.
            render: (s) => <Text size="sm">{formatDateTime(s.created_at)}</Text>,
          },
          {
            key: 'actions',
            title: <VisuallyHidden>Actions</VisuallyHidden>,
            render: (s) => {
              const name = s.description || s.url;
              const toggle = toggleOf(s.status);
              return (
                <Group gap="xs" wrap="nowrap" justify="flex-end">
                  <Anchor component={Link} to={`deliveries?subscription_id=${s.id}`} size="sm" mr="xs">
                    Deliveries
                  </Anchor>
                  <Button
                    size="xs"
                    variant="default"
                    aria-label={`Send test to ${name}`}
                    loading={sendTest.isPending && sendTest.variables?.id === s.id}
                    onClick={() =>
                      sendTest.mutate(
                        { mode, id: s.id },
                        { onSuccess: (result) => setTested({ sub: s, result }) },
                      )
                    }
                  >
                    Send test
                  </Button>
                  <Button
                    size="xs"
                    variant="default"
                    aria-label={`Edit ${name}`}
                    onClick={() => setEditing(s)}
                  >
                    Edit
                  </Button>
                  <Button
                    size="xs"
                    variant="default"
                    aria-label={`${toggle.label} ${name}`}
                    loading={update.isPending && update.variables?.id === s.id}
                    onClick={() => update.mutate({ mode, id: s.id, status: toggle.to })}
                  >
                    {toggle.label}
                  </Button>
                  <ConfirmButton
                    size="xs"
                    color="red"
                    variant="light"
                    aria-label={`Delete ${name}`}
                    title="Delete this endpoint?"
                    message={
                      <>
                        <b>{s.url}</b> stops receiving webhooks at once, and its pending deliveries become
                        dead. This cannot be undone.
                      </>
                    }
                    confirmLabel="Delete endpoint"
                    loading={remove.isPending && remove.variables?.id === s.id}
                    onConfirm={() => remove.mutate({ mode, id: s.id })}
                  >
                    Delete
                  </ConfirmButton>
                </Group>
              );
            },
          },
        ]}
      />
      {creating && <SubscriptionForm opened onClose={() => setCreating(false)} onCreated={refresh} />}
      {editing && (
        <SubscriptionForm opened editing={editing} onClose={() => setEditing(null)} onCreated={refresh} />
      )}
      <TestResultModal tested={tested} onClose={() => setTested(null)} />
    </Stack>
  );
}
