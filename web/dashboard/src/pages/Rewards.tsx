import {
  Anchor,
  Badge,
  Button,
  Card,
  Grid,
  Group,
  Image,
  ScrollArea,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Link, Route, Routes, useNavigate, useParams } from 'react-router';
import { ConfirmButton } from '../components/ConfirmButton.tsx';
import { PageHeader } from '../components/PageHeader.tsx';
import { QueryState } from '../components/QueryState.tsx';
import { formatDateTime } from '../lib/format.ts';
import { useMode } from '../mode.tsx';
import { notifyError, notifySuccess } from '../notify.ts';
import { useTRPC } from '../trpc.ts';
import { CodePool } from './rewards/CodePool.tsx';
import { type FormErrors, fieldErrorsOf, RewardForm } from './rewards/RewardForm.tsx';
import {
  configOf,
  emptyRewardForm,
  formToCreate,
  formToUpdate,
  hasPool,
  type Reward,
  rewardToForm,
} from './rewards/reward-form.ts';
import { TestFulfilment } from './rewards/TestFulfilment.tsx';
import { TypeBadge } from './rewards/TypeBadge.tsx';
import { tone } from './rewards/tone.ts';

const nf = new Intl.NumberFormat('en');

function StatusBadge({ reward }: { reward: Reward }) {
  if (!reward.active)
    return (
      <Badge variant="outline" color="gray">
        Inactive
      </Badge>
    );
  if (reward.is_claimable) return <Badge {...tone('teal')}>Claimable</Badge>;
  return <Badge {...tone('yellow')}>{reward.stock_remaining === 0 ? 'Out of stock' : 'Not claimable'}</Badge>;
}

const stockText = (r: Reward) => (r.stock_remaining === null ? 'Unlimited' : nf.format(r.stock_remaining));

export default function Rewards() {
  return (
    <Routes>
      <Route index element={<RewardList />} />
      <Route path="new" element={<CreateReward />} />
      <Route path=":id" element={<RewardDetail />} />
      <Route path=":id/edit" element={<EditReward />} />
    </Routes>
  );
}

function RewardList() {
  const trpc = useTRPC();
  const { mode } = useMode();
  const navigate = useNavigate();
  const [inactive, setInactive] = useState(true);
  const rewards = useQuery(trpc.rewards.list.queryOptions({ mode, include_inactive: inactive }));
  return (
    <>
      <PageHeader
        title="Rewards"
        description="The catalogue participants redeem points for. Archived rewards are hidden."
        actions={
          <Button component={Link} to="/rewards/new">
            New reward
          </Button>
        }
      />
      <Card withBorder padding={0} radius="md">
        <Group px="md" py="sm" justify="space-between">
          <Text size="sm" c="dimmed">
            {rewards.data ? `${rewards.data.length} reward${rewards.data.length === 1 ? '' : 's'}` : ' '}
          </Text>
          <Switch
            label="Show inactive"
            checked={inactive}
            onChange={(e) => setInactive(e.currentTarget.checked)}
          />
        </Group>
        <QueryState
          query={rewards}
          isEmpty={(d) => d.length === 0}
          empty="No rewards yet. Create one to fill the catalogue."
        >
          {(data) => (
            <ScrollArea>
              <Table highlightOnHover verticalSpacing="sm" horizontalSpacing="md" aria-label="Rewards">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>Type</Table.Th>
                    <Table.Th ta="right">Cost</Table.Th>
                    <Table.Th ta="right">Stock</Table.Th>
                    <Table.Th>Window</Table.Th>
                    <Table.Th>Status</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.map((r) => (
                    <Table.Tr
                      key={r.id}
                      style={{ cursor: 'pointer' }}
                      onClick={() => navigate(`/rewards/${r.id}`)}
                    >
                      <Table.Td>
                        <Anchor
                          component={Link}
                          to={`/rewards/${r.id}`}
                          fw={600}
                          onClick={(e) => e.stopPropagation()}
                        >
                          {r.name}
                        </Anchor>
                        {r.subtitle && (
                          <Text size="xs" c="dimmed">
                            {r.subtitle}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>
                        <TypeBadge type={r.type} />
                      </Table.Td>
                      <Table.Td ta="right" ff="monospace">
                        {nf.format(r.cost_points)}
                      </Table.Td>
                      <Table.Td ta="right" ff="monospace">
                        {stockText(r)}
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">
                          {r.starts_at || r.ends_at
                            ? `${formatDateTime(r.starts_at)} → ${formatDateTime(r.ends_at)}`
                            : 'Always'}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <StatusBadge reward={r} />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea>
          )}
        </QueryState>
      </Card>
    </>
  );
}

function CreateReward() {
  const trpc = useTRPC();
  const { mode } = useMode();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [errors, setErrors] = useState<FormErrors>({});
  const create = useMutation(
    trpc.rewards.create.mutationOptions({
      onSuccess: (r) => {
        notifySuccess(`Reward “${r.name}” created`);
        queryClient.invalidateQueries({ queryKey: trpc.rewards.pathKey() });
        navigate(`/rewards/${r.id}`);
      },
      onError: (e) => {
        setErrors(fieldErrorsOf(e));
        notifyError(e);
      },
    }),
  );
  return (
    <>
      <PageHeader
        title="New reward"
        description={
          <Anchor component={Link} to="/rewards">
            ← All rewards
          </Anchor>
        }
      />
      <RewardForm
        initial={emptyRewardForm()}
        creating
        submitting={create.isPending}
        errors={errors}
        onCancel={() => navigate('/rewards')}
        onSubmit={(v) => {
          const { input, errors: local } = formToCreate(v);
          setErrors(local);
          if (Object.keys(local).length === 0) create.mutate({ mode, ...input });
        }}
      />
    </>
  );
}

function useRewardId() {
  const { id } = useParams();
  return Number(id);
}

function EditReward() {
  const id = useRewardId();
  const trpc = useTRPC();
  const { mode } = useMode();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const reward = useQuery(trpc.rewards.get.queryOptions({ mode, id }));
  const [errors, setErrors] = useState<FormErrors>({});
  const update = useMutation(
    trpc.rewards.update.mutationOptions({
      onSuccess: (r) => {
        notifySuccess(`Reward “${r.name}” saved`);
        queryClient.invalidateQueries({ queryKey: trpc.rewards.pathKey() });
        navigate(`/rewards/${r.id}`);
      },
      onError: (e) => {
        setErrors(fieldErrorsOf(e));
        notifyError(e);
      },
    }),
  );
  return (
    <QueryState query={reward}>
      {(r) => (
        <>
          <PageHeader
            title={`Edit ${r.name}`}
            description={
              <Anchor component={Link} to={`/rewards/${r.id}`}>
                ← Back to the reward
              </Anchor>
            }
          />
          <RewardForm
            initial={rewardToForm(r)}
            creating={false}
            submitting={update.isPending}
            errors={errors}
            onCancel={() => navigate(`/rewards/${r.id}`)}
            onSubmit={(v) => {
              const { input, errors: local } = formToUpdate(v);
              setErrors(local);
              if (Object.keys(local).length === 0) update.mutate({ mode, id: r.id, ...input });
            }}
            extra={(v) =>
              v.type === 'external' ? (
                <TestFulfilment rewardId={r.id} config={configOf(v).config} disabled={!v.endpoint_url} />
              ) : null
            }
          />
        </>
      )}
    </QueryState>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" fw={600} tt="uppercase" c="dark.6">
        {label}
      </Text>
      <Text component="div" size="sm" mt={2}>
        {children}
      </Text>
    </div>
  );
}

function RewardDetail() {
  const id = useRewardId();
  const trpc = useTRPC();
  const { mode } = useMode();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const reward = useQuery(trpc.rewards.get.queryOptions({ mode, id }));
  const archive = useMutation(
    trpc.rewards.archive.mutationOptions({
      onSuccess: (r) => {
        notifySuccess(`Reward “${r.name}” archived`);
        queryClient.invalidateQueries({ queryKey: trpc.rewards.pathKey() });
        navigate('/rewards');
      },
      onError: notifyError,
    }),
  );
  return (
    <QueryState query={reward}>
      {(r) => (
        <>
          <Anchor component={Link} to="/rewards" size="sm">
            ← All rewards
          </Anchor>
          <PageHeader
            title={r.name}
            description={
              <Group gap="xs" component="span">
                <TypeBadge type={r.type} />
                <StatusBadge reward={r} />
                {r.subtitle && <span>{r.subtitle}</span>}
              </Group>
            }
            actions={
              <>
                <Button variant="default" component={Link} to={`/redemptions?reward=${r.id}`}>
                  Redemptions
                </Button>
                <Button variant="default" component={Link} to={`/rewards/${r.id}/edit`}>
                  Edit
                </Button>
                <ConfirmButton
                  {...tone('red')}
                  title="Archive this reward?"
                  message="It leaves the catalogue at once and cannot be redeemed any more. Past redemptions keep their history."
                  confirmLabel="Archive"
                  loading={archive.isPending}
                  onConfirm={() => archive.mutate({ mode, id: r.id })}
                >
                  Archive
                </ConfirmButton>
              </>
            }
          />
          <Grid gap="lg">
            <Grid.Col span={{ base: 12, md: 8 }}>
              <Stack gap="lg">
                {hasPool(r.type) && (
                  <Card withBorder padding="lg" radius="md">
                    <Group justify="space-between" mb="sm">
                      <Title order={3} fz="md">
                        Code pool
                      </Title>
                      <Badge {...tone('indigo')} size="lg" data-testid="pool-stock">
                        {stockText(r)} codes available
                      </Badge>
                    </Group>
                    <CodePool rewardId={r.id} />
                  </Card>
                )}
                {r.type === 'external' && (
                  <Card withBorder padding="lg" radius="md">
                    <Title order={3} fz="md" mb={4}>
                      Fulfilment endpoint
                    </Title>
                    <Text size="sm" ff="monospace" mb="md" style={{ wordBreak: 'break-all' }}>
                      {String(r.config.method ?? 'POST')} {String(r.config.endpoint_url ?? '')}
                    </Text>
                    <TestFulfilment rewardId={r.id} />
                  </Card>
                )}
                <RecentRedemptions rewardId={r.id} />
                <Card withBorder padding="lg" radius="md">
                  <Title order={3} fz="md" mb="sm">
                    Description
                  </Title>
                  <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} c={r.description ? undefined : 'dimmed'}>
                    {r.description || 'No description.'}
                  </Text>
                </Card>
              </Stack>
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 4 }}>
              <Card withBorder padding="lg" radius="md">
                {r.image_url && (
                  <Image src={r.image_url} alt="" radius="sm" mb="md" mah={160} fit="contain" />
                )}
                <SimpleGrid cols={2} spacing="md" verticalSpacing="md">
                  <Fact label="Cost">{nf.format(r.cost_points)} points</Fact>
                  <Fact label="Stock left">{stockText(r)}</Fact>
                  <Fact label="Starts">{r.starts_at ? formatDateTime(r.starts_at) : 'Now'}</Fact>
                  <Fact label="Ends">{r.ends_at ? formatDateTime(r.ends_at) : 'Never'}</Fact>
                  {r.type === 'points_multiplier' && (
                    <>
                      <Fact label="Factor">×{String(r.config.factor)}</Fact>
                      <Fact label="Lasts">{String(r.config.duration_hours)} h</Fact>
                    </>
                  )}
                  {r.type === 'digital_asset' && (r.config.asset_code || r.config.asset_url) ? (
                    <>
                      <Fact label="Asset code">{String(r.config.asset_code ?? '—')}</Fact>
                      <Fact label="Asset URL">{String(r.config.asset_url ?? '—')}</Fact>
                    </>
                  ) : null}
                  <Fact label="Created">{formatDateTime(r.created_at)}</Fact>
                  <Fact label="Updated">{formatDateTime(r.updated_at)}</Fact>
                </SimpleGrid>
              </Card>
            </Grid.Col>
          </Grid>
        </>
      )}
    </QueryState>
  );
}

const REDEMPTION_COLORS: Record<string, string> = { pending: 'yellow', fulfilled: 'teal', cancelled: 'gray' };

/** The reward's five latest redemptions, with a link to all of them. */
function RecentRedemptions({ rewardId }: { rewardId: number }) {
  const trpc = useTRPC();
  const { mode } = useMode();
  const recent = useQuery(
    trpc.rewards.redemptions.list.queryOptions({ mode, reward_id: rewardId, limit: 5 }),
  );
  return (
    <Card withBorder padding="lg" radius="md">
      <Group justify="space-between" mb="xs">
        <Title order={3} fz="md">
          Latest redemptions
        </Title>
        <Anchor component={Link} to={`/redemptions?reward=${rewardId}`} size="sm">
          See all
        </Anchor>
      </Group>
      <QueryState query={recent} isEmpty={(d) => d.data.length === 0} empty="Not redeemed yet.">
        {(d) => (
          <Table verticalSpacing={6} aria-label="Latest redemptions of this reward">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>ID</Table.Th>
                <Table.Th>Participant</Table.Th>
                <Table.Th>When</Table.Th>
                <Table.Th>Status</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {d.data.map((x) => (
                <Table.Tr key={x.id}>
                  <Table.Td ff="monospace">#{x.id}</Table.Td>
                  <Table.Td>
                    <Anchor
                      component={Link}
                      to={`/participants/${encodeURIComponent(x.participant.external_id)}`}
                      size="sm"
                    >
                      {x.participant.external_id}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{formatDateTime(x.created_at)}</Table.Td>
                  <Table.Td>
                    <Badge {...tone(REDEMPTION_COLORS[x.status] ?? 'gray')}>{x.status}</Badge>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </QueryState>
    </Card>
  );
}
