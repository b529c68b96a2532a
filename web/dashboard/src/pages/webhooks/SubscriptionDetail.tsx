import { Alert, Anchor, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { QueryState } from '../../components/QueryState.tsx';
import { ToneBadge } from '../../components/ToneBadge.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useMode } from '../../mode.tsx';
import { notifyError, notifySuccess } from '../../notify.ts';
import { useTRPC } from '../../trpc.ts';
import { alertTone } from '../rewards/tone.ts';
import { EventTypesCard } from './EventTypesCard.tsx';
import { DISABLED_REASON_TEXT, SUBSCRIPTION_STATUS_COLOR, type Subscription, toggleOf } from './logic.ts';
import { RecoverDeliveries } from './RecoverDeliveries.tsx';
import { RotateSecret } from './RotateSecret.tsx';
import { Fact } from './TestResultModal.tsx';

/**
 * One endpoint (docs/webhooks.md): its state — why and when the service disabled it, with
 * Re-enable — the recover of its dead deliveries, the rotation of its signing secret, and what
 * each of its event types delivers.
 */
export function SubscriptionDetail() {
  const { id = '' } = useParams();
  const trpc = useTRPC();
  const { mode } = useMode();
  const queryClient = useQueryClient();
  const sub = useQuery(trpc.webhooks.subscriptions.get.queryOptions({ mode, id }));
  const update = useMutation(
    trpc.webhooks.subscriptions.update.mutationOptions({
      onSuccess: (s, asked) => {
        notifySuccess(
          s.status === 'paused'
            ? 'Endpoint paused'
            : sub.data?.status === 'disabled' && asked.status === 'active'
              ? 'Endpoint re-enabled'
              : 'Endpoint resumed',
        );
        queryClient.invalidateQueries({ queryKey: trpc.webhooks.subscriptions.pathKey() });
      },
      onError: notifyError,
    }),
  );
  return (
    <Stack gap="md">
      <Anchor component={Link} to="/webhooks" size="sm">
        ← Endpoints
      </Anchor>
      <QueryState query={sub}>
        {(s: Subscription) => {
          const toggle = toggleOf(s.status);
          const setStatus = (
            <Button
              variant={s.status === 'disabled' ? 'filled' : 'default'}
              loading={update.isPending}
              onClick={() => update.mutate({ mode, id: s.id, status: toggle.to })}
            >
              {toggle.label}
            </Button>
          );
          return (
            <Stack gap="md">
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                <Group gap="sm" wrap="nowrap">
                  <Title order={3} ff="monospace" fz="lg" style={{ overflowWrap: 'anywhere' }}>
                    {s.url}
                  </Title>
                  <ToneBadge
                    size="lg"
                    color={SUBSCRIPTION_STATUS_COLOR[s.status]}
                    data-testid="subscription-status"
                  >
                    {s.status}
                  </ToneBadge>
                </Group>
                <Group gap="sm" wrap="nowrap">
                  <Anchor component={Link} to={`/webhooks/deliveries?subscription_id=${s.id}`} size="sm">
                    Deliveries
                  </Anchor>
                  {s.status !== 'disabled' && setStatus}
                </Group>
              </Group>
              {s.status === 'disabled' && s.disabled_reason && (
                <Alert {...alertTone('red')} title="Disabled by the service" data-testid="disabled-notice">
                  <Stack gap="sm">
                    <Text size="sm">
                      {DISABLED_REASON_TEXT[s.disabled_reason]} Disabled on{' '}
                      <b data-testid="disabled-at">{formatDateTime(s.disabled_at)}</b>; its pending deliveries
                      were marked dead and nothing is sent to it. Re-enable it once the endpoint works, then
                      recover what it missed.
                    </Text>
                    <Group>{setStatus}</Group>
                  </Stack>
                </Alert>
              )}
              <Card withBorder padding="lg">
                <SimpleGrid cols={{ base: 2, md: 4 }} spacing="lg">
                  <Fact label="Description" value={s.description || '—'} />
                  <Fact
                    label="Events"
                    value={s.event_types.includes('*') ? 'all events' : s.event_types.join(', ')}
                  />
                  <Fact label="Created" value={formatDateTime(s.created_at)} />
                  <Fact label="Last change" value={formatDateTime(s.updated_at)} />
                </SimpleGrid>
              </Card>
              <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
                <RecoverDeliveries sub={s} />
                <RotateSecret sub={s} />
              </SimpleGrid>
              <EventTypesCard subscribed={s.event_types} />
            </Stack>
          );
        }}
      </QueryState>
    </Stack>
  );
}
