import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Select,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { Nowrap } from '../../components/Nowrap.tsx';
import { type Column, nextPage, PagedTable } from '../../components/PagedTable.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useMode } from '../../mode.tsx';
import { notifyError, notifySuccess } from '../../notify.ts';
import { useTRPC } from '../../trpc.ts';
import { alertTone, tone } from '../rewards/tone.ts';
import {
  filtersFromParams,
  listInput,
  paramsFromFilters,
  REASON_LABELS,
  REFERRAL_STATUSES,
  type Referral,
  STATUS_STYLES,
} from './logic.ts';

const participantLink = (externalId: string) => (
  <Anchor component={Link} to={`/participants/${encodeURIComponent(externalId)}`} size="sm">
    {externalId}
  </Anchor>
);

/** A badge's label is never cut to an ellipsis (`clawed back` stays whole): its column makes room. */
const unclipped = {
  root: { overflow: 'visible', maxWidth: 'none', flexShrink: 0 },
  label: { overflow: 'visible', textOverflow: 'clip' },
} as const;

/** A referral's status as a badge whose text is the status; the hint says what it means. */
export function StatusBadge({ r }: { r: Referral }) {
  const s = STATUS_STYLES[r.status];
  const at = r.clawed_back_at ? ` (${formatDateTime(r.clawed_back_at)})` : '';
  return (
    <Badge
      size="sm"
      {...tone(s.color)}
      styles={unclipped}
      title={`${s.hint}${at}`}
      data-testid={`status-${r.id}`}
    >
      {s.label}
    </Badge>
  );
}

/** Cancel for a `qualified` referral, after saying what it does to the advocate's pending points. */
export function CancelReferral({ r }: { r: Referral }) {
  const trpc = useTRPC();
  const { mode } = useMode();
  const queryClient = useQueryClient();
  const cancel = useMutation(
    trpc.referrals.cancel.mutationOptions({
      onSuccess: (done) => {
        notifySuccess(
          `Referral of ${done.friend.external_id} cancelled: ${done.advocate.external_id}’s pending points clawed back`,
        );
        queryClient.invalidateQueries({ queryKey: trpc.referrals.pathKey() });
        // The advocate's pending points and balance changed.
        queryClient.invalidateQueries({ queryKey: trpc.participants.pathKey() });
        queryClient.invalidateQueries({ queryKey: trpc.points.pathKey() });
      },
      onError: notifyError,
    }),
  );
  if (r.status !== 'qualified') return null;
  return (
    <ConfirmButton
      size="compact-sm"
      variant="default"
      color="red.9"
      aria-label={`Cancel the referral of ${r.friend.external_id}`}
      title={`Cancel the referral of ${r.friend.external_id}?`}
      message={
        <>
          {r.advocate.external_id}’s points for this referral are still pending (until{' '}
          {formatDateTime(r.reward_available_at)}). Cancelling claws them back: they are cancelled and never
          become spendable, and no advocate badge is awarded. The referral becomes <b>clawed back</b>. What{' '}
          {r.friend.external_id} was given stays. This cannot be undone.
        </>
      }
      confirmLabel="Cancel referral"
      loading={cancel.isPending}
      onConfirm={() => cancel.mutate({ mode, id: r.id })}
    >
      Cancel
    </ConfirmButton>
  );
}

const dash = (
  <Text size="sm" c="dimmed" component="span">
    —
  </Text>
);
/** A time as its day over its time of day: eight columns of full timestamps would not fit. */
const when = (iso: string | null) => {
  if (!iso) return dash;
  const full = formatDateTime(iso);
  const cut = full.indexOf(' ');
  return (
    <span title={full}>
      <Nowrap>{full.slice(0, cut)}</Nowrap>
      <Text size="xs" c="dimmed" component="span" display="block">
        <Nowrap>{full.slice(cut + 1)}</Nowrap>
      </Text>
    </span>
  );
};

/** The columns of a referral table; `advocate: false` leaves out the advocate (a participant's own list). */
export function referralColumns({ advocate = true } = {}): Column<Referral>[] {
  return [
    ...(advocate
      ? [
          {
            key: 'advocate',
            title: 'Advocate',
            render: (r: Referral) => participantLink(r.advocate.external_id),
          },
        ]
      : []),
    { key: 'friend', title: 'Friend', render: (r) => participantLink(r.friend.external_id) },
    { key: 'status', title: 'Status', render: (r) => <StatusBadge r={r} /> },
    {
      key: 'reason',
      title: 'Reason',
      render: (r) => (r.reason ? <Text size="sm">{REASON_LABELS[r.reason]}</Text> : dash),
    },
    { key: 'created', title: 'Created', render: (r) => when(r.created_at) },
    { key: 'qualified', title: 'Qualified', render: (r) => when(r.qualified_at) },
    { key: 'available', title: 'Reward available', render: (r) => when(r.reward_available_at) },
    { key: 'rewarded', title: 'Rewarded', render: (r) => when(r.rewarded_at) },
    {
      key: 'actions',
      title: <VisuallyHidden>Actions</VisuallyHidden>,
      render: (r) => <CancelReferral r={r} />,
    },
  ];
}

/** The Referrals tab: every referral of this mode, newest first, by status and advocate; cancel a qualified one. */
export function ReferralList() {
  const trpc = useTRPC();
  const { mode } = useMode();
  const [params, setParams] = useSearchParams();
  const filters = filtersFromParams(params);
  const [advocate, setAdvocate] = useState(filters.advocate);
  const [debounced] = useDebouncedValue(advocate, 300);
  const input = listInput({ ...filters, advocate: debounced });
  const update = (patch: Partial<typeof filters>) =>
    setParams(paramsFromFilters({ ...filters, advocate: debounced, ...patch }), { replace: true });
  const program = useQuery(trpc.referrals.program.get.queryOptions({ mode }));
  const list = useInfiniteQuery(
    trpc.referrals.list.infiniteQueryOptions({ mode, ...input }, { getNextPageParam: nextPage }),
  );
  const filtered = !!(filters.status || debounced);
  return (
    <>
      {program.data === null && (
        <Alert
          {...alertTone('indigo')}
          title={`No referral programme in ${mode} mode yet`}
          mb="md"
          data-testid="no-program"
        >
          <Group justify="space-between" align="center">
            <Text size="sm">Codes attribute nothing until a programme is set up.</Text>
            <Button component={Link} to="/referrals/program" size="xs">
              Set up the programme
            </Button>
          </Group>
        </Alert>
      )}
      <Card withBorder radius="md" padding="md" mb="md">
        <Group align="flex-end" gap="md">
          <Select
            label="Status"
            placeholder="Any status"
            clearable
            w={200}
            data={REFERRAL_STATUSES.map((s) => ({ value: s, label: STATUS_STYLES[s].label }))}
            value={filters.status || null}
            onChange={(s) => update({ status: (s ?? '') as typeof filters.status })}
          />
          <TextInput
            label="Advocate"
            placeholder="External id"
            w={240}
            value={advocate}
            onChange={(e) => setAdvocate(e.currentTarget.value)}
            onBlur={() => update({ advocate })}
            onKeyDown={(e) => e.key === 'Enter' && update({ advocate })}
          />
          {(filters.status || advocate) && (
            <Button
              variant="subtle"
              onClick={() => {
                setAdvocate('');
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
          columns={referralColumns()}
          rowKey={(r) => r.id}
          label="Referrals"
          empty={
            filtered
              ? 'No referral matches these filters.'
              : 'No referrals yet. One is made when a new participant’s first event carries an advocate’s code.'
          }
        />
      </Card>
    </>
  );
}
