import {
  Anchor,
  Badge,
  Button,
  Card,
  Code,
  Group,
  Select,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { AppRouter } from '../../../../src/trpc/router.ts';
import { ConfirmButton } from '../components/ConfirmButton.tsx';
import { Nowrap } from '../components/Nowrap.tsx';
import { type Column, nextPage, PagedTable } from '../components/PagedTable.tsx';
import { PageHeader } from '../components/PageHeader.tsx';
import { formatDateTime, formatNumber } from '../lib/format.ts';
import { useMode } from '../mode.tsx';
import { notifyError, notifySuccess } from '../notify.ts';
import { useTRPC } from '../trpc.ts';
import {
  filtersFromParams,
  paramsFromFilters,
  REDEMPTION_STATUSES,
  redemptionInput,
} from './redemptions/filters.ts';
import { TypeBadge } from './rewards/TypeBadge.tsx';
import { tone } from './rewards/tone.ts';

type Redemption = inferRouterOutputs<AppRouter>['rewards']['redemptions']['list']['data'][number];

const STATUS_COLORS = { pending: 'yellow', fulfilled: 'teal', cancelled: 'gray' } as const;

/** What the redemption handed out, in one line. */
function Fulfilment({ r }: { r: Redemption }) {
  const f = r.fulfilment;
  if (f.code) return <Code>{f.code}</Code>;
  if (f.url)
    return (
      <Anchor href={f.url} target="_blank" rel="noreferrer" size="sm">
        Asset link
      </Anchor>
    );
  if (f.multiplier)
    return (
      <Text size="sm">
        ×{f.multiplier.factor} until {formatDateTime(f.multiplier.expires_at)}
      </Text>
    );
  return (
    <Text size="sm" c="dimmed">
      —
    </Text>
  );
}

function Actions({ r, physical }: { r: Redemption; physical: boolean }) {
  const trpc = useTRPC();
  const { mode } = useMode();
  const queryClient = useQueryClient();
  const done = (what: string) => () => {
    notifySuccess(`Redemption #${r.id} ${what}`);
    queryClient.invalidateQueries({ queryKey: trpc.rewards.pathKey() });
  };
  const fulfil = useMutation(
    trpc.rewards.redemptions.fulfil.mutationOptions({ onSuccess: done('fulfilled'), onError: notifyError }),
  );
  const cancel = useMutation(
    trpc.rewards.redemptions.cancel.mutationOptions({ onSuccess: done('cancelled'), onError: notifyError }),
  );
  if (r.status !== 'pending' || !physical) return null;
  return (
    <Group gap={6} wrap="nowrap" onClick={(e) => e.stopPropagation()}>
      <Button
        size="compact-sm"
        {...tone('teal')}
        aria-label={`Fulfil redemption ${r.id}`}
        loading={fulfil.isPending}
        onClick={() => fulfil.mutate({ mode, id: r.id })}
      >
        Fulfil
      </Button>
      <ConfirmButton
        size="compact-sm"
        variant="subtle"
        color="red"
        aria-label={`Cancel redemption ${r.id}`}
        title={`Cancel redemption #${r.id}?`}
        message={`${r.cost_points} points go back to ${r.participant.external_id} and the unit returns to stock. This cannot be undone.`}
        confirmLabel="Cancel redemption"
        loading={cancel.isPending}
        onConfirm={() => cancel.mutate({ mode, id: r.id })}
      >
        Cancel
      </ConfirmButton>
    </Group>
  );
}

export default function Redemptions() {
  const trpc = useTRPC();
  const { mode } = useMode();
  const [params, setParams] = useSearchParams();
  const filters = filtersFromParams(params);
  const [participant, setParticipant] = useState(filters.participant);
  const [debounced] = useDebouncedValue(participant, 300);
  const input = redemptionInput({ ...filters, participant: debounced });
  const update = (patch: Partial<typeof filters>) =>
    setParams(paramsFromFilters({ ...filters, participant: debounced, ...patch }), { replace: true });

  const rewards = useQuery(trpc.rewards.list.queryOptions({ mode, include_inactive: true }));
  const rewardById = new Map((rewards.data ?? []).map((r) => [r.id, r]));
  const list = useInfiniteQuery(
    trpc.rewards.redemptions.list.infiniteQueryOptions({ mode, ...input }, { getNextPageParam: nextPage }),
  );

  const columns: Column<Redemption>[] = [
    {
      key: 'id',
      title: 'ID',
      width: 70,
      render: (r) => (
        <Text size="sm" ff="monospace">
          #{r.id}
        </Text>
      ),
    },
    { key: 'at', title: 'Redeemed', render: (r) => <Nowrap>{formatDateTime(r.created_at)}</Nowrap> },
    {
      key: 'participant',
      title: 'Participant',
      render: (r) => (
        <Anchor
          component={Link}
          to={`/participants/${encodeURIComponent(r.participant.external_id)}`}
          size="sm"
        >
          {r.participant.external_id}
        </Anchor>
      ),
    },
    {
      key: 'reward',
      title: 'Reward',
      render: (r) => {
        const reward = rewardById.get(r.reward_id);
        return (
          <Group gap={6} wrap="nowrap">
            <Anchor component={Link} to={`/rewards/${r.reward_id}`} size="sm">
              {reward?.name ?? `Reward #${r.reward_id}`}
            </Anchor>
            <TypeBadge type={r.fulfilment.type} />
          </Group>
        );
      },
    },
    {
      key: 'cost',
      title: 'Points',
      render: (r) => (
        <Text size="sm" ff="monospace">
          {formatNumber(r.cost_points)}
        </Text>
      ),
    },
    {
      key: 'status',
      title: 'Status',
      render: (r) => (
        <Badge {...tone(STATUS_COLORS[r.status])} data-testid={`status-${r.id}`}>
          {r.status}
        </Badge>
      ),
    },
    { key: 'fulfilment', title: 'Handed out', render: (r) => <Fulfilment r={r} /> },
    {
      key: 'actions',
      title: <VisuallyHidden>Actions</VisuallyHidden>,
      render: (r) => <Actions r={r} physical={r.fulfilment.type === 'physical'} />,
    },
  ];

  return (
    <>
      <PageHeader
        title="Redemptions"
        description="Every redemption, newest first. Physical rewards wait here until you fulfil or cancel them."
      />
      <Card withBorder radius="md" padding="md" mb="md">
        <Group align="flex-end" gap="md">
          <Select
            label="Status"
            placeholder="Any status"
            clearable
            w={180}
            data={REDEMPTION_STATUSES.map((s) => ({ value: s, label: s[0]!.toUpperCase() + s.slice(1) }))}
            value={filters.status || null}
            onChange={(s) => update({ status: s ?? '' })}
          />
          <Select
            label="Reward"
            placeholder="Any reward"
            clearable
            searchable
            w={260}
            data={(rewards.data ?? []).map((r) => ({ value: String(r.id), label: r.name }))}
            value={filters.reward || null}
            onChange={(s) => update({ reward: s ?? '' })}
            nothingFoundMessage="No such reward"
          />
          <TextInput
            label="Participant"
            placeholder="External id"
            w={240}
            value={participant}
            onChange={(e) => {
              setParticipant(e.currentTarget.value);
            }}
            onBlur={() => update({ participant })}
          />
          {(filters.status || filters.reward || participant) && (
            <Button
              variant="subtle"
              onClick={() => {
                setParticipant('');
                setParams(new URLSearchParams(), { replace: true });
              }}
            >
              Clear filters
            </Button>
          )}
        </Group>
      </Card>
      <Card withBorder radius="md" padding={0}>
        <PagedTable
          query={list}
          columns={columns}
          rowKey={(r) => String(r.id)}
          label="Redemptions"
          empty={
            filters.status || filters.reward || debounced
              ? 'No redemption matches these filters.'
              : 'No redemptions yet. They appear here as participants redeem rewards.'
          }
        />
      </Card>
    </>
  );
}
