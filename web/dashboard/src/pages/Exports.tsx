import { Anchor, Button, Card, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { fieldErrorOf, notifyUnlessShown } from '../components/formErrors.ts';
import { Nowrap } from '../components/Nowrap.tsx';
import { type Column, nextPage, PagedTable } from '../components/PagedTable.tsx';
import { PageHeader } from '../components/PageHeader.tsx';
import { ToneBadge } from '../components/ToneBadge.tsx';
import { formatDateTime, formatNumber } from '../lib/format.ts';
import { useMode } from '../mode.tsx';
import { notifySuccess } from '../notify.ts';
import { useTRPC } from '../trpc.ts';
import {
  type ExportForm,
  type ExportItem,
  exportRequest,
  FORMAT_LABELS,
  FORMATS,
  formatBytes,
  isActive,
  RESOURCE_LABELS,
  RESOURCES,
  rangeError,
  STATUS_COLORS,
  sinceError,
} from './exports/logic.ts';

/** While an export is being written the list is read every 2 s; otherwise often enough that download links (valid 1 h) stay fresh. */
const POLL_ACTIVE = 2_000;
const POLL_IDLE = 15 * 60_000;

const EMPTY_FORM: ExportForm = { resource: null, format: 'csv', since: '', until: '' };
const FIELDS = ['resource', 'format', 'since', 'until'];

function RequestForm() {
  const trpc = useTRPC();
  const { mode } = useMode();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<ExportForm>(EMPTY_FORM);
  const create = useMutation(
    trpc.exports.create.mutationOptions({
      onSuccess: (e) => {
        notifySuccess(`${RESOURCE_LABELS[e.resource]} export requested`);
        setForm(EMPTY_FORM);
        queryClient.invalidateQueries({ queryKey: trpc.exports.pathKey() });
      },
      onError: (error) => notifyUnlessShown(error, FIELDS),
    }),
  );
  const untilError = rangeError(form);
  const fromError = sinceError(form);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const input = exportRequest(form);
    if (!input || untilError || fromError) return;
    create.mutate({ mode, ...input });
  };
  const err = (field: string) => fieldErrorOf(create.error, field);
  return (
    <Card withBorder radius="md" padding="md" mb="md">
      <form onSubmit={submit} aria-label="Request an export">
        <Group align="flex-end" gap="md" wrap="wrap">
          <Select
            label="Resource"
            placeholder="Choose what to export"
            required
            w={240}
            data={RESOURCES.map((r) => ({ value: r, label: RESOURCE_LABELS[r] }))}
            value={form.resource}
            onChange={(v) => setForm({ ...form, resource: v as ExportForm['resource'] })}
            error={err('resource')}
            allowDeselect={false}
          />
          <Select
            label="Format"
            required
            w={160}
            data={FORMATS.map((f) => ({ value: f, label: FORMAT_LABELS[f] }))}
            value={form.format}
            onChange={(v) => v && setForm({ ...form, format: v as ExportForm['format'] })}
            error={err('format')}
            allowDeselect={false}
          />
          <TextInput
            label="Since"
            description="From the start of the day, UTC"
            type="date"
            w={200}
            value={form.since}
            onChange={(e) => setForm({ ...form, since: e.currentTarget.value })}
            error={fromError ?? err('since')}
          />
          <TextInput
            label="Until"
            description="To the end of the day, UTC"
            type="date"
            w={200}
            value={form.until}
            onChange={(e) => setForm({ ...form, until: e.currentTarget.value })}
            error={untilError ?? err('until')}
          />
          <Button
            type="submit"
            loading={create.isPending}
            disabled={!form.resource || !!untilError || !!fromError}
          >
            Request export
          </Button>
        </Group>
      </form>
    </Card>
  );
}

const columns: Column<ExportItem>[] = [
  {
    key: 'resource',
    title: 'Resource',
    render: (e) => <Text size="sm">{RESOURCE_LABELS[e.resource]}</Text>,
  },
  { key: 'format', title: 'Format', render: (e) => <Text size="sm">{FORMAT_LABELS[e.format]}</Text> },
  {
    key: 'status',
    title: 'Status',
    render: (e) => (
      <Stack gap={2} align="flex-start">
        <ToneBadge size="sm" color={STATUS_COLORS[e.status]} data-testid={`export-status-${e.id}`}>
          {e.status}
        </ToneBadge>
        {e.error && (
          <Text size="xs" c="red.9" maw={260}>
            {e.error}
          </Text>
        )}
      </Stack>
    ),
  },
  { key: 'rows', title: 'Rows', align: 'right', render: (e) => formatNumber(e.row_count) },
  { key: 'size', title: 'Size', align: 'right', render: (e) => <Nowrap>{formatBytes(e.size_bytes)}</Nowrap> },
  { key: 'created', title: 'Requested', render: (e) => <Nowrap>{formatDateTime(e.created_at)}</Nowrap> },
  { key: 'expires', title: 'Expires', render: (e) => <Nowrap>{formatDateTime(e.expires_at)}</Nowrap> },
  {
    key: 'download',
    title: 'File',
    render: (e) =>
      e.status === 'completed' && e.download_url ? (
        <Anchor
          href={e.download_url}
          download
          size="sm"
          aria-label={`Download ${RESOURCE_LABELS[e.resource]} ${FORMAT_LABELS[e.format]} export`}
        >
          Download
        </Anchor>
      ) : (
        <Text size="sm" c="dimmed">
          —
        </Text>
      ),
  },
];

export default function Exports() {
  const trpc = useTRPC();
  const { mode } = useMode();
  const list = useInfiniteQuery(
    trpc.exports.list.infiniteQueryOptions(
      { mode },
      {
        getNextPageParam: nextPage,
        refetchInterval: (q) =>
          q.state.data?.pages.some((p) => p.data.some(isActive)) ? POLL_ACTIVE : POLL_IDLE,
      },
    ),
  );
  return (
    <>
      <PageHeader
        title="Exports"
        description="Files of every row of one kind in this mode, as CSV or JSON Lines. Each file is kept for 7 days."
      />
      <RequestForm />
      <Card withBorder radius="md" padding={0}>
        <PagedTable
          query={list}
          columns={columns}
          rowKey={(e) => e.id}
          label="Exports"
          empty="No exports yet. Request one above; it appears here while it is written."
        />
      </Card>
    </>
  );
}
