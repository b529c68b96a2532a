import {
  Anchor,
  Breadcrumbs,
  Button,
  Group,
  NumberInput,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmButton } from '../components/ConfirmButton.tsx';
import { Nowrap } from '../components/Nowrap.tsx';
import { nextPage, PagedTable } from '../components/PagedTable.tsx';
import { PageHeader } from '../components/PageHeader.tsx';
import { EmptyState, QueryState } from '../components/QueryState.tsx';
import { ToneBadge } from '../components/ToneBadge.tsx';
import { formatDateTime, formatNumber, formatPoints } from '../lib/format.ts';
import { useMode } from '../mode.tsx';
import { notifyError, notifySuccess } from '../notify.ts';
import { describeError, useTRPC } from '../trpc.ts';
import { AchievementSection } from './participant/AchievementSection.tsx';
import { expiredCredit, SOURCE_COLORS } from './participant/logic.ts';
import { PendingGrants } from './participant/PendingGrants.tsx';
import { PointLots } from './participant/PointLots.tsx';
import { ReferralSection } from './participant/ReferralSection.tsx';
import { StreakSection } from './participant/StreakSection.tsx';
import { TierSection } from './participant/TierSection.tsx';

function Section({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="md">
      <Group justify="space-between" mb="sm">
        <Title order={3} fz="md">
          {title}
        </Title>
        {actions}
      </Group>
      {children}
    </Paper>
  );
}

function Stat({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase">
        {label}
      </Text>
      <Text fz="xl" fw={650} style={{ fontVariantNumeric: 'tabular-nums' }} data-testid={`stat-${label}`}>
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed" data-testid={`stat-${label}-hint`}>
          {hint}
        </Text>
      )}
    </div>
  );
}

/** A reward's name (one cached query per reward), its id while loading or if it is gone. */
function RewardName({ id }: { id: number }) {
  const trpc = useTRPC();
  const { mode } = useMode();
  const reward = useQuery(trpc.rewards.get.queryOptions({ mode, id }, { staleTime: 60_000, retry: false }));
  return <>{reward.data?.name ?? `#${id}`}</>;
}

function AdjustForm({ externalId, onDone }: { externalId: string; onDone: () => void }) {
  const trpc = useTRPC();
  const { mode } = useMode();
  const [points, setPoints] = useState<number | string>('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const adjust = useMutation(
    trpc.participants.adjust.mutationOptions({
      onSuccess: ({ entry }) => {
        notifySuccess(`${formatPoints(entry.points)} points: balance ${formatNumber(entry.balance_after)}`);
        setPoints('');
        setReason('');
        setErrors({});
        onDone();
      },
      onError: (error) => {
        const { fields, message, type } = describeError(error);
        if (fields.length) setErrors(Object.fromEntries(fields.map((f) => [f.field, f.message])));
        else if (type === 'insufficient_points') setErrors({ points: message });
        else notifyError(error);
      },
    }),
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setErrors({});
    adjust.mutate({
      mode,
      externalId,
      points: typeof points === 'number' ? points : Number(points || Number.NaN),
      reason,
    });
  };
  return (
    <form onSubmit={submit} aria-label="Adjust points">
      <Group align="flex-start" gap="sm" wrap="wrap">
        <NumberInput
          label="Points"
          description="Negative to debit"
          withAsterisk
          allowDecimal={false}
          thousandSeparator=","
          value={points}
          onChange={setPoints}
          error={errors.points}
          w={160}
        />
        <TextInput
          label="Reason"
          description="Shown in the ledger"
          withAsterisk
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          error={errors.reason}
          style={{ flex: 1, minWidth: 220 }}
        />
        <Button type="submit" mt={46} loading={adjust.isPending}>
          Adjust points
        </Button>
      </Group>
    </form>
  );
}

export default function ParticipantDetail() {
  const { externalId = '' } = useParams();
  const trpc = useTRPC();
  const { mode } = useMode();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const id = { mode, externalId };
  const participant = useQuery(trpc.participants.get.queryOptions(id));
  const summary = useQuery(trpc.participants.summary.queryOptions(id));
  const badges = useQuery(trpc.participants.badges.queryOptions(id));
  const ledger = useInfiniteQuery(
    trpc.participants.ledger.infiniteQueryOptions({ ...id, limit: 20 }, { getNextPageParam: nextPage }),
  );
  const redemptions = useInfiniteQuery(
    trpc.participants.redemptions.infiniteQueryOptions({ ...id, limit: 10 }, { getNextPageParam: nextPage }),
  );
  const lots = useQuery(trpc.points.lots.queryOptions(id));
  const program = useQuery(trpc.points.program.queryOptions({ mode }, { staleTime: 60_000 }));
  // Streak periods are taken in the participant's own time zone, else the programme's.
  const timezone = participant.data?.timezone
    ? participant.data.timezone
    : program.data
      ? `${program.data.timezone} (the programme’s: none set for ${externalId})`
      : null;
  // Every change of points moves the balance, the ledger and the lots; a pending grant's too; a
  // credit may move the tier up.
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.participants.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.points.lots.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.points.pending.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.tiers.history.pathKey() }),
    ]);
  const reverse = useMutation(
    trpc.participants.reverse.mutationOptions({
      onSuccess: (entry) => {
        notifySuccess(`Entry #${entry.reverses_entry_id} reversed (${formatPoints(entry.points)})`);
        refresh();
      },
      onError: notifyError,
    }),
  );
  const erase = useMutation(
    trpc.participants.erase.mutationOptions({
      onSuccess: () => {
        notifySuccess(`${externalId} erased`);
        queryClient.removeQueries({ queryKey: trpc.participants.pathKey() });
        navigate('/participants');
      },
      onError: notifyError,
    }),
  );
  const reversed = new Set(
    (ledger.data?.pages ?? [])
      .flatMap((p) => p.data.map((e) => e.reverses_entry_id))
      .filter((x) => x !== null),
  );

  return (
    <>
      <Breadcrumbs mb="xs" fz="sm">
        <Anchor component={Link} to="/participants">
          Participants
        </Anchor>
        <Text size="sm">{externalId}</Text>
      </Breadcrumbs>
      <PageHeader
        title={externalId}
        description={
          participant.data ? (
            <>
              {[participant.data.name, participant.data.email, participant.data.phone]
                .filter(Boolean)
                .join(' · ') || 'No name or contact details'}
              <br />
              <span data-testid="participant-timezone">Time zone: {timezone ?? '…'}</span>
            </>
          ) : undefined
        }
        actions={
          participant.data && (
            <ConfirmButton
              variant="outline"
              color="red.9"
              title="Erase this participant?"
              message={`Their personal data is cleared and ${externalId} is replaced by a pseudonym. Ledger amounts are kept. This cannot be undone.`}
              confirmLabel="Erase participant"
              loading={erase.isPending}
              onConfirm={() => erase.mutate(id)}
            >
              Erase participant
            </ConfirmButton>
          )
        }
      />
      <QueryState query={participant}>
        {(p) => (
          <Stack gap="md">
            <Paper withBorder radius="md" p="md">
              <QueryState query={summary}>
                {(s) => (
                  <SimpleGrid cols={{ base: 2, sm: 4, lg: 8 }}>
                    <Stat label="Balance" value={formatNumber(s.balance)} />
                    <Stat label="Pending" value={formatNumber(s.pending_points)} />
                    <Stat
                      label="Next expiry"
                      value={s.next_expiry ? formatNumber(s.next_expiry.points) : '—'}
                      hint={s.next_expiry ? `on ${formatDateTime(s.next_expiry.expires_at)}` : 'none'}
                    />
                    <Stat label="Lifetime points" value={formatNumber(s.lifetime_points)} />
                    <Stat label="Rank" value={s.rank ? `#${formatNumber(s.rank)}` : '—'} />
                    <Stat label="Events" value={formatNumber(s.events_count)} />
                    <Stat label="Badges" value={formatNumber(s.badges_count)} />
                    <Stat label="Redemptions" value={formatNumber(s.redemptions_count)} />
                  </SimpleGrid>
                )}
              </QueryState>
            </Paper>
            <Section title="Tier">
              <TierSection externalId={externalId} tier={p.tier} onChanged={refresh} />
            </Section>
            <Section title="Streaks">
              <StreakSection externalId={externalId} timezone={timezone ?? '…'} />
            </Section>
            <Section title="Achievements">
              <AchievementSection externalId={externalId} />
            </Section>
            <Section title="Referrals">
              <ReferralSection externalId={externalId} />
            </Section>
            <Section title="Adjust points">
              <AdjustForm externalId={externalId} onDone={refresh} />
            </Section>
            <Section title="Points">
              <PointLots query={lots} />
            </Section>
            <Section title="Pending points">
              <PendingGrants externalId={externalId} onSettled={refresh} />
            </Section>
            <Section title="Ledger">
              <PagedTable
                label="Ledger"
                query={ledger}
                rowKey={(e) => String(e.id)}
                empty="No ledger entries yet."
                columns={[
                  { key: 'id', title: 'Entry', width: 80, render: (e) => `#${e.id}` },
                  {
                    key: 'when',
                    title: 'Date',
                    width: 200,
                    render: (e) => <Nowrap>{formatDateTime(e.created_at)}</Nowrap>,
                  },
                  {
                    key: 'source',
                    title: 'Source',
                    width: 120,
                    render: (e) => (
                      <ToneBadge color={SOURCE_COLORS[e.source] ?? 'gray'} size="sm">
                        {e.source}
                      </ToneBadge>
                    ),
                  },
                  {
                    key: 'reason',
                    title: 'Reason',
                    render: (e) => {
                      const note = expiredCredit(e.source, e.reference);
                      return (
                        <>
                          <Group gap={6} wrap="nowrap">
                            <Text size="sm">{e.reason ?? '—'}</Text>
                            {e.reverses_entry_id !== null && (
                              <Text size="xs" c="dimmed">
                                reverses #{e.reverses_entry_id}
                              </Text>
                            )}
                            {note && (
                              <Text size="xs" c="dimmed">
                                {note}
                              </Text>
                            )}
                            {reversed.has(e.id) && (
                              <ToneBadge size="sm" color="gray">
                                Reversed
                              </ToneBadge>
                            )}
                            {e.capped_points > 0 && (
                              <ToneBadge
                                size="sm"
                                color="gray"
                                data-testid="capped"
                                title={`${formatNumber(e.capped_points)} points cut by an earning cap`}
                              >
                                {`${formatNumber(e.capped_points)} capped`}
                              </ToneBadge>
                            )}
                          </Group>
                          {e.points > 0 && e.expires_at && (
                            <Text size="xs" c="dimmed" data-testid="entry-expires">
                              expires {formatDateTime(e.expires_at)}
                            </Text>
                          )}
                        </>
                      );
                    },
                  },
                  {
                    key: 'points',
                    title: 'Points',
                    align: 'right',
                    width: 110,
                    render: (e) => (
                      <Text size="sm" fw={600} c={e.points < 0 ? 'red.9' : 'teal.9'} inherit>
                        {formatPoints(e.points)}
                      </Text>
                    ),
                  },
                  {
                    key: 'balance',
                    title: 'Balance after',
                    align: 'right',
                    width: 130,
                    render: (e) => formatNumber(e.balance_after),
                  },
                  {
                    key: 'actions',
                    title: <span className="sr-only-actions">Actions</span>,
                    width: 110,
                    align: 'right',
                    render: (e) =>
                      e.source === 'reversal' || e.source === 'expiry' || reversed.has(e.id) ? null : (
                        <ConfirmButton
                          size="compact-xs"
                          variant="default"
                          color="red.9"
                          aria-label={`Reverse entry #${e.id}`}
                          title={`Reverse entry #${e.id}?`}
                          message={`A reversal entry of ${formatPoints(-e.points)} points is posted. Entries are never edited or deleted.`}
                          confirmLabel="Reverse entry"
                          loading={reverse.isPending && reverse.variables?.entryId === String(e.id)}
                          onConfirm={() => reverse.mutate({ ...id, entryId: String(e.id) })}
                        >
                          Reverse
                        </ConfirmButton>
                      ),
                  },
                ]}
              />
            </Section>
            <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
              <Section title="Badges">
                <QueryState query={badges} isEmpty={(b) => b.data.length === 0} empty="No badges yet.">
                  {(b) => (
                    <Table aria-label="Badges" verticalSpacing="xs">
                      <Table.Thead>
                        <Table.Tr>
                          <Table.Th>Badge</Table.Th>
                          <Table.Th>Tier</Table.Th>
                          <Table.Th>Awarded</Table.Th>
                        </Table.Tr>
                      </Table.Thead>
                      <Table.Tbody>
                        {b.data.map((x) => (
                          <Table.Tr key={`${x.key}:${x.tier}`}>
                            <Table.Td>
                              <Text size="sm" fw={600}>
                                {x.name}
                              </Text>
                              <Text size="xs" c="dimmed">
                                {x.key}
                              </Text>
                            </Table.Td>
                            <Table.Td>{x.tier ?? '—'}</Table.Td>
                            <Table.Td>{formatDateTime(x.awarded_at)}</Table.Td>
                          </Table.Tr>
                        ))}
                      </Table.Tbody>
                    </Table>
                  )}
                </QueryState>
              </Section>
              <Section title="Redemptions">
                <PagedTable
                  label="Redemptions"
                  query={redemptions}
                  rowKey={(r) => String(r.id)}
                  empty="No redemptions yet."
                  columns={[
                    { key: 'id', title: 'Id', render: (r) => `#${r.id}` },
                    { key: 'reward', title: 'Reward', render: (r) => <RewardName id={r.reward_id} /> },
                    {
                      key: 'status',
                      title: 'Status',
                      render: (r) => <ToneBadge size="sm">{r.status}</ToneBadge>,
                    },
                    {
                      key: 'cost',
                      title: 'Cost',
                      align: 'right',
                      render: (r) => formatNumber(r.cost_points),
                    },
                    {
                      key: 'when',
                      title: 'Date',
                      render: (r) => <Nowrap>{formatDateTime(r.created_at)}</Nowrap>,
                    },
                  ]}
                />
              </Section>
            </SimpleGrid>
            {participant.isError && <EmptyState>Participant not found.</EmptyState>}
          </Stack>
        )}
      </QueryState>
    </>
  );
}
