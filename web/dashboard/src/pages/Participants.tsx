import { Anchor, Paper, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Nowrap } from '../components/Nowrap.tsx';
import { nextPage, PagedTable } from '../components/PagedTable.tsx';
import { PageHeader } from '../components/PageHeader.tsx';
import { formatDateTime, formatNumber } from '../lib/format.ts';
import { useMode } from '../mode.tsx';
import { useTRPC } from '../trpc.ts';

export const participantPath = (externalId: string) => `/participants/${encodeURIComponent(externalId)}`;

export default function Participants() {
  const trpc = useTRPC();
  const { mode } = useMode();
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const [term] = useDebouncedValue(search.trim(), 250);
  const query = useInfiniteQuery(
    trpc.participants.list.infiniteQueryOptions(
      { mode, limit: 25, ...(term ? { search: term } : {}) },
      { getNextPageParam: nextPage },
    ),
  );
  return (
    <>
      <PageHeader title="Participants" description="Everyone who has earned, spent or been sent an event." />
      <Paper withBorder radius="md" p="md">
        <TextInput
          label="Search participants"
          placeholder="External id, e-mail or name"
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          mb="md"
          maw={420}
        />
        <PagedTable
          label="Participants"
          query={query}
          rowKey={(p) => p.external_id}
          onRowClick={(p) => navigate(participantPath(p.external_id))}
          empty={term ? `No participant matches “${term}”.` : 'No participants yet in this mode.'}
          columns={[
            {
              key: 'id',
              title: 'External id',
              render: (p) => (
                <Anchor component={Link} to={participantPath(p.external_id)} fw={600} size="sm" c="indigo.9">
                  {p.external_id}
                </Anchor>
              ),
            },
            { key: 'name', title: 'Name', render: (p) => p.name ?? '—' },
            { key: 'email', title: 'E-mail', render: (p) => p.email ?? '—' },
            { key: 'balance', title: 'Balance', align: 'right', render: (p) => formatNumber(p.balance) },
            {
              key: 'lifetime',
              title: 'Lifetime points',
              align: 'right',
              render: (p) => formatNumber(p.lifetime_points),
            },
            {
              key: 'created',
              title: 'Created',
              render: (p) => <Nowrap>{formatDateTime(p.created_at)}</Nowrap>,
            },
          ]}
        />
      </Paper>
    </>
  );
}
