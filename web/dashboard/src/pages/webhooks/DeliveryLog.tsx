import { Anchor, Group, Select, Stack, Text } from '@mantine/core';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { nextPage, PagedTable } from '../../components/PagedTable.tsx';
import { ToneBadge } from '../../components/ToneBadge.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useMode } from '../../mode.tsx';
import { useTRPC } from '../../trpc.ts';
import {
  DELIVERY_STATUS_COLOR,
  DELIVERY_STATUSES,
  type Delivery,
  describeOutcome,
  isDeliveryStatus,
} from './logic.ts';

/** The delivery log, newest first, filtered by status and endpoint (kept in the URL). */
export function DeliveryLog() {
  const trpc = useTRPC();
  const { mode } = useMode();
  const [params, setParams] = useSearchParams();
  const statusParam = params.get('status');
  const status = isDeliveryStatus(statusParam) ? statusParam : undefined;
  const subscriptionId = params.get('subscription_id') || undefined;
  const subs = useQuery(trpc.webhooks.subscriptions.list.queryOptions({ mode, limit: 200 }));
  const urlOf = new Map((subs.data?.data ?? []).map((s) => [s.id, s.url]));
  const list = useInfiniteQuery(
    trpc.webhooks.deliveries.list.infiniteQueryOptions(
      { mode, limit: 50, status, subscription_id: subscriptionId },
      { getNextPageParam: nextPage, refetchInterval: 5_000 },
    ),
  );
  const setFilter = (name: string, value: string | null) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  };

  return (
    <Stack gap="md">
      <Group gap="md" align="flex-end">
        <Select
          label="Status"
          w={200}
          data={[
            { value: '', label: 'Any status' },
            ...DELIVERY_STATUSES.map((s) => ({ value: s, label: s })),
          ]}
          value={status ?? ''}
          onChange={(v) => setFilter('status', v)}
          allowDeselect={false}
        />
        <Select
          label="Endpoint"
          w={420}
          data={[
            { value: '', label: 'Every endpoint' },
            ...(subs.data?.data ?? []).map((s) => ({ value: s.id, label: s.description || s.url })),
          ]}
          value={subscriptionId ?? ''}
          onChange={(v) => setFilter('subscription_id', v)}
          allowDeselect={false}
        />
      </Group>
      <PagedTable<Delivery>
        query={list}
        label="Webhook deliveries"
        rowKey={(d) => d.id}
        empty={status || subscriptionId ? 'No deliveries match these filters.' : 'No deliveries yet.'}
        columns={[
          {
            key: 'type',
            title: 'Event',
            render: (d) => (
              <Anchor component={Link} to={`/webhooks/deliveries/${d.id}`} ff="monospace" size="sm">
                {d.type}
              </Anchor>
            ),
          },
          {
            key: 'status',
            title: 'Status',
            render: (d) => <ToneBadge color={DELIVERY_STATUS_COLOR[d.status]}>{d.status}</ToneBadge>,
          },
          { key: 'attempts', title: 'Attempts', render: (d) => d.attempt_count },
          {
            key: 'last',
            title: 'Last attempt',
            render: (d) =>
              d.last_attempt_at ? (
                <Text size="sm" lineClamp={1} maw={320}>
                  {describeOutcome(d.last_status_code, d.last_error)}
                </Text>
              ) : d.next_attempt_at ? (
                <Text size="sm" c="dimmed">
                  due {formatDateTime(d.next_attempt_at)}
                </Text>
              ) : (
                '—'
              ),
          },
          {
            key: 'endpoint',
            title: 'Endpoint',
            render: (d) => (
              <Text size="sm" ff="monospace" lineClamp={1} maw={280}>
                {urlOf.get(d.subscription_id) ?? d.subscription_id}
              </Text>
            ),
          },
          {
            key: 'created',
            title: 'Created',
            render: (d) => (
              <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                {formatDateTime(d.created_at)}
              </Text>
            ),
          },
        ]}
      />
    </Stack>
  );
}
