import { Anchor, Button, Card, Code, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { EmptyState, QueryState } from '../../components/QueryState.tsx';
import { ToneBadge } from '../../components/ToneBadge.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useMode } from '../../mode.tsx';
import { notifyError, notifySuccess } from '../../notify.ts';
import { useTRPC } from '../../trpc.ts';
import { canReplay, DELIVERY_STATUS_COLOR, type DeliveryDetail as Detail, formatDuration } from './logic.ts';
import { Fact } from './TestResultModal.tsx';

/** One delivery: its state, every attempt (status code, error, duration, time), its body, and replay. */
export function DeliveryDetail() {
  const { id = '' } = useParams();
  const trpc = useTRPC();
  const { mode } = useMode();
  const queryClient = useQueryClient();
  const delivery = useQuery(
    trpc.webhooks.deliveries.get.queryOptions(
      { mode, id },
      // A pending delivery is still moving: follow it until it settles.
      { refetchInterval: (q) => (q.state.data?.status === 'pending' ? 1_000 : false) },
    ),
  );
  const replay = useMutation(
    trpc.webhooks.deliveries.replay.mutationOptions({
      onSuccess: () => {
        notifySuccess('Delivery queued again');
        queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.pathKey() });
      },
      onError: notifyError,
    }),
  );
  return (
    <Stack gap="md">
      <Anchor component={Link} to="/webhooks/deliveries" size="sm">
        ← Delivery log
      </Anchor>
      <QueryState query={delivery}>
        {(d: Detail) => (
          <Stack gap="md">
            <Group justify="space-between">
              <Group gap="sm">
                <Title order={3} ff="monospace" fz="lg">
                  {d.type}
                </Title>
                <ToneBadge size="lg" color={DELIVERY_STATUS_COLOR[d.status]} data-testid="delivery-status">
                  {d.status}
                </ToneBadge>
              </Group>
              <Button
                disabled={!canReplay(d.status)}
                loading={replay.isPending}
                onClick={() => replay.mutate({ mode, id: d.id })}
              >
                Replay
              </Button>
            </Group>
            <Card withBorder padding="lg">
              <SimpleGrid cols={{ base: 2, md: 4 }} spacing="lg">
                <Fact label="Delivery id" value={<Code>{d.id}</Code>} />
                <Fact label="Endpoint" value={<EndpointLink id={d.subscription_id} />} />
                <Fact label="Created" value={formatDateTime(d.created_at)} />
                <Fact
                  label={d.status === 'pending' ? 'Next attempt' : 'Last attempt'}
                  value={formatDateTime(d.status === 'pending' ? d.next_attempt_at : d.last_attempt_at)}
                />
              </SimpleGrid>
            </Card>
            <Card withBorder padding="lg">
              <Title order={4} fz="md" mb="sm">
                Attempts
              </Title>
              {d.attempts.length ? (
                <Table aria-label="Delivery attempts" striped verticalSpacing="xs">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th w={50}>#</Table.Th>
                      <Table.Th>Time</Table.Th>
                      <Table.Th>Status code</Table.Th>
                      <Table.Th>Duration</Table.Th>
                      <Table.Th>Error</Table.Th>
                      <Table.Th>Response</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {d.attempts.map((a) => (
                      // Replays restart numbering at 1: the number alone is not unique, its time is.
                      <Table.Tr key={`${a.number}:${a.attempted_at}`}>
                        <Table.Td>{a.number}</Table.Td>
                        <Table.Td>{formatDateTime(a.attempted_at)}</Table.Td>
                        <Table.Td>
                          {a.status_code === null ? (
                            '—'
                          ) : (
                            <ToneBadge color={a.status_code >= 200 && a.status_code < 300 ? 'teal' : 'red'}>
                              {a.status_code}
                            </ToneBadge>
                          )}
                        </Table.Td>
                        <Table.Td>{formatDuration(a.duration_ms)}</Table.Td>
                        <Table.Td>
                          <Text size="sm" maw={320}>
                            {a.error ?? '—'}
                          </Text>
                        </Table.Td>
                        <Table.Td>
                          <Text size="xs" ff="monospace" lineClamp={2} maw={260}>
                            {a.response_snippet || '—'}
                          </Text>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              ) : (
                <EmptyState>
                  {d.status === 'simulated' ? 'Simulated in test mode: never sent.' : 'No attempt yet.'}
                </EmptyState>
              )}
            </Card>
            <Card withBorder padding="lg">
              <Title order={4} fz="md" mb="sm">
                Body
              </Title>
              <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
                {JSON.stringify(d.payload, null, 2)}
              </Code>
            </Card>
          </Stack>
        )}
      </QueryState>
    </Stack>
  );
}

/** The endpoint's URL (or its id once deleted), linking to every delivery made to it. */
function EndpointLink({ id }: { id: string }) {
  const trpc = useTRPC();
  const { mode } = useMode();
  const sub = useQuery(trpc.webhooks.subscriptions.get.queryOptions({ mode, id }, { retry: false }));
  return (
    <Anchor
      component={Link}
      to={`/webhooks/deliveries?subscription_id=${id}`}
      size="sm"
      ff="monospace"
      style={{ wordBreak: 'break-all' }}
      title="Every delivery to this endpoint"
    >
      {sub.data?.url ?? (sub.isError ? `${id} (deleted)` : id)}
    </Anchor>
  );
}
