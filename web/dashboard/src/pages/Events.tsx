import {
  Alert,
  Anchor,
  Box,
  Button,
  Code,
  Drawer,
  Group,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { RunCards } from '../components/FlowRuns.tsx';
import { Nowrap } from '../components/Nowrap.tsx';
import { nextPage, PagedTable } from '../components/PagedTable.tsx';
import { PageHeader } from '../components/PageHeader.tsx';
import { EmptyState, QueryState } from '../components/QueryState.tsx';
import { ToneBadge } from '../components/ToneBadge.tsx';
import {
  EVENT_STATUS_OPTIONS,
  type EventFilters,
  eventFiltersFromSearch,
  eventFiltersToInput,
  eventFiltersToSearch,
} from '../lib/event-filters.ts';
import { formatDateTime, shortId } from '../lib/format.ts';
import { useMode } from '../mode.tsx';
import { useTRPC } from '../trpc.ts';
import { ReplayEvent } from './events/ReplayEvent.tsx';
import { alertTone } from './rewards/tone.ts';

export const EVENT_COLORS: Record<string, string> = {
  received: 'blue',
  processed: 'teal',
  failed: 'red',
  quarantined: 'orange',
};

/** One event: its state, why it was quarantined (and its replay), the payload and the flow runs. */
function EventDetail({ id, onOpen }: { id: string; onOpen: (id: string) => void }) {
  const trpc = useTRPC();
  const { mode } = useMode();
  const query = useQuery(trpc.events.get.queryOptions({ mode, id }));
  return (
    <QueryState query={query}>
      {(e) => (
        <Stack gap="md">
          <Group gap="xs">
            <ToneBadge color={EVENT_COLORS[e.status]}>{e.status}</ToneBadge>
            <Text fw={600}>{e.event_type ?? '(no type)'}</Text>
          </Group>
          {e.quarantine_reason && (
            <Alert {...alertTone('orange')} title="Quarantined">
              {e.quarantine_reason}
            </Alert>
          )}
          {e.status === 'quarantined' && <ReplayEvent key={e.id} event={e} onOpen={onOpen} />}
          {e.error && (
            <Alert {...alertTone('red')} title="Processing failed">
              {e.error}
            </Alert>
          )}
          <Box style={{ display: 'grid', gridTemplateColumns: '140px 1fr', gap: '6px 16px' }}>
            <Text size="sm" c="dimmed">
              Event id
            </Text>
            <Text size="sm" ff="monospace">
              {e.id}
            </Text>
            <Text size="sm" c="dimmed">
              Participant
            </Text>
            <Text size="sm">
              {e.participant.external_id ? (
                <Anchor
                  component={Link}
                  to={`/participants/${encodeURIComponent(e.participant.external_id)}`}
                >
                  {e.participant.external_id}
                </Anchor>
              ) : (
                '—'
              )}
            </Text>
            <Text size="sm" c="dimmed">
              Occurred
            </Text>
            <Text size="sm">{formatDateTime(e.occurred_at)}</Text>
            <Text size="sm" c="dimmed">
              Received
            </Text>
            <Text size="sm">{formatDateTime(e.received_at)}</Text>
            <Text size="sm" c="dimmed">
              Processed
            </Text>
            <Text size="sm">{formatDateTime(e.processed_at)}</Text>
            <Text size="sm" c="dimmed">
              Source
            </Text>
            <Text size="sm">{e.source}</Text>
            <Text size="sm" c="dimmed">
              Idempotency key
            </Text>
            <Text size="sm">{e.idempotency_key ?? '—'}</Text>
            {e.replay_of && (
              <>
                <Text size="sm" c="dimmed">
                  Replay of
                </Text>
                <Text size="sm" data-testid="replay-of">
                  <Anchor
                    component="button"
                    type="button"
                    size="sm"
                    ff="monospace"
                    onClick={() => onOpen(e.replay_of as string)}
                  >
                    {e.replay_of}
                  </Anchor>
                </Text>
              </>
            )}
          </Box>
          <div>
            <Title order={3} fz="sm" mb={6}>
              Payload
            </Title>
            <Code block>{JSON.stringify(e.payload, null, 2)}</Code>
          </div>
          <div>
            <Title order={3} fz="sm" mb={6}>
              Flow runs ({e.flow_runs.length})
            </Title>
            {e.flow_runs.length ? (
              <RunCards runs={e.flow_runs} />
            ) : (
              <EmptyState>No flow ran on this event.</EmptyState>
            )}
          </div>
        </Stack>
      )}
    </QueryState>
  );
}

export default function Events() {
  const trpc = useTRPC();
  const { mode } = useMode();
  const [params, setParams] = useSearchParams();
  const applied = eventFiltersFromSearch(params.toString());
  const [draft, setDraft] = useState<EventFilters>(applied);
  const [open, setOpen] = useState<string | null>(null);
  const query = useInfiniteQuery(
    trpc.events.list.infiniteQueryOptions(
      { mode, limit: 50, ...eventFiltersToInput(applied) },
      { getNextPageParam: nextPage },
    ),
  );
  const apply = (f: EventFilters) => {
    setDraft(f);
    setParams(eventFiltersToSearch(f));
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    apply(draft);
  };
  const filtered = Object.keys(eventFiltersToInput(applied)).length > 0;
  return (
    <>
      <PageHeader
        title="Events"
        description="Every event received, newest first, with its processing status."
      />
      <Paper withBorder radius="md" p="md">
        <form onSubmit={submit} aria-label="Event filters">
          <Group align="flex-end" gap="sm" mb="md" wrap="wrap">
            <Select
              label="Status"
              placeholder="Any status"
              clearable
              data={EVENT_STATUS_OPTIONS.map((s) => ({ value: s, label: s }))}
              value={draft.status || null}
              onChange={(v) => apply({ ...draft, status: (v ?? '') as EventFilters['status'] })}
              w={170}
            />
            <TextInput
              label="Event type"
              placeholder="order.completed"
              value={draft.eventType}
              onChange={(e) => setDraft({ ...draft, eventType: e.currentTarget.value })}
              w={200}
            />
            <TextInput
              label="Participant"
              placeholder="External id"
              value={draft.participant}
              onChange={(e) => setDraft({ ...draft, participant: e.currentTarget.value })}
              w={200}
            />
            <TextInput
              label="Since"
              type="date"
              value={draft.since}
              onChange={(e) => setDraft({ ...draft, since: e.currentTarget.value })}
              w={170}
            />
            <Button type="submit">Apply filters</Button>
            {filtered && (
              <Button
                variant="subtle"
                onClick={() => apply({ status: '', eventType: '', participant: '', since: '' })}
              >
                Clear
              </Button>
            )}
          </Group>
        </form>
        <PagedTable
          label="Events"
          query={query}
          rowKey={(e) => e.id}
          onRowClick={(e) => setOpen(e.id)}
          empty={filtered ? 'No event matches these filters.' : 'No events yet in this mode.'}
          columns={[
            {
              key: 'status',
              title: 'Status',
              width: 140,
              render: (e) => (
                <ToneBadge size="sm" color={EVENT_COLORS[e.status]}>
                  {e.status}
                </ToneBadge>
              ),
            },
            {
              key: 'type',
              title: 'Type',
              render: (e) => (
                <Stack gap={0}>
                  <Anchor
                    component="button"
                    type="button"
                    size="sm"
                    fw={600}
                    c="indigo.9"
                    ta="left"
                    onClick={(ev) => {
                      ev.stopPropagation();
                      setOpen(e.id);
                    }}
                  >
                    {e.event_type ?? '(no type)'}
                  </Anchor>
                  {e.quarantine_reason && (
                    <Text
                      size="xs"
                      data-testid="quarantine-reason"
                      style={{ color: 'color-mix(in srgb, var(--mantine-color-orange-9) 70%, black)' }}
                    >
                      {e.quarantine_reason}
                      {e.replayed_as && ' · replayed'}
                    </Text>
                  )}
                </Stack>
              ),
            },
            {
              key: 'participant',
              title: 'Participant',
              render: (e) => <Nowrap>{e.participant.external_id ?? '—'}</Nowrap>,
            },
            { key: 'source', title: 'Source', width: 110, render: (e) => e.source },
            {
              key: 'id',
              title: 'Id',
              width: 150,
              render: (e) => (
                <Text size="xs" ff="monospace" c="dimmed">
                  {shortId(e.id)}
                </Text>
              ),
            },
            {
              key: 'received',
              title: 'Received',
              width: 210,
              render: (e) => <Nowrap>{formatDateTime(e.received_at)}</Nowrap>,
            },
          ]}
        />
      </Paper>
      <Drawer
        opened={open !== null}
        onClose={() => setOpen(null)}
        position="right"
        size="xl"
        closeButtonProps={{ 'aria-label': 'Close event details' }}
        title="Event details"
      >
        {open && <EventDetail id={open} onOpen={setOpen} />}
      </Drawer>
    </>
  );
}
