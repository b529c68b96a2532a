import { Alert, Badge, Card, Code, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { type Column, nextPage, PagedTable } from '../../components/PagedTable.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useMode } from '../../mode.tsx';
import { useTRPC } from '../../trpc.ts';
import { alertTone, tone } from '../rewards/tone.ts';
import { ChannelBadge } from './ChannelBadge.tsx';
import {
  isMessageStatus,
  MESSAGE_STATUSES,
  type MessageStatus,
  STATUS_COLORS,
  statusLabel,
} from './status.ts';
import type { Message } from './template-form.ts';

/** Every message rendered from a template, newest first, filtered by status and template key. */
export function MessageLog() {
  const trpc = useTRPC();
  const { mode } = useMode();
  const [status, setStatus] = useState<MessageStatus | null>(null);
  const [template, setTemplate] = useState('');
  const [debounced] = useDebouncedValue(template.trim(), 300);
  const [open, setOpen] = useState<Message | null>(null);
  const list = useInfiniteQuery(
    trpc.messages.list.infiniteQueryOptions(
      { mode, ...(status ? { status } : {}), ...(debounced ? { template: debounced } : {}) },
      { getNextPageParam: nextPage },
    ),
  );
  const columns: Column<Message>[] = [
    {
      key: 'at',
      title: 'Queued',
      render: (m) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(m.created_at)}
        </Text>
      ),
    },
    {
      key: 'template',
      title: 'Template',
      render: (m) => (
        <Text size="sm" ff="monospace">
          {m.template}
        </Text>
      ),
    },
    { key: 'channel', title: 'Channel', render: (m) => <ChannelBadge channel={m.channel} /> },
    {
      key: 'to',
      title: 'To',
      render: (m) => (
        <Stack gap={0}>
          <Text size="sm">{m.to ?? '—'}</Text>
          {m.participant && (
            <Text size="xs" c="dimmed">
              {m.participant.external_id}
            </Text>
          )}
        </Stack>
      ),
    },
    {
      key: 'status',
      title: 'Status',
      render: (m) => <Badge {...tone(STATUS_COLORS[m.status])}>{m.status}</Badge>,
    },
    {
      key: 'error',
      title: 'Error',
      render: (m) => (
        <Text size="sm" lineClamp={1} maw={280} title={m.error ?? undefined}>
          {m.error ?? ''}
        </Text>
      ),
    },
  ];
  return (
    <>
      <Card withBorder radius="md" padding="md" mb="md">
        <Group align="flex-end">
          <Select
            label="Status"
            placeholder="Any status"
            clearable
            w={180}
            data={MESSAGE_STATUSES.map((s) => ({ value: s, label: statusLabel(s) }))}
            value={status}
            onChange={(s) => setStatus(isMessageStatus(s) ? s : null)}
          />
          <TextInput
            label="Template key"
            placeholder="e.g. welcome"
            w={240}
            value={template}
            onChange={(e) => setTemplate(e.currentTarget.value)}
          />
        </Group>
      </Card>
      <Card withBorder radius="md" padding={0}>
        <PagedTable
          query={list}
          columns={columns}
          rowKey={(m) => m.id}
          label="Message log"
          onRowClick={setOpen}
          empty={
            status || debounced
              ? 'No message matches these filters.'
              : 'No messages yet. Flows with a send_message step fill this log.'
          }
        />
      </Card>
      <Modal
        opened={open !== null}
        onClose={() => setOpen(null)}
        title="Message"
        size="lg"
        centered
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {open && <MessageDetail message={open} />}
      </Modal>
    </>
  );
}

/** One message as it was rendered: where it went, its outcome, subject and body. */
function MessageDetail({ message: m }: { message: Message }) {
  return (
    <Stack gap="sm">
      <Group gap="xs">
        <ChannelBadge channel={m.channel} />
        <Badge {...tone(STATUS_COLORS[m.status])}>{m.status}</Badge>
        <Text size="sm">
          to {m.to ?? '—'} · {formatDateTime(m.created_at)} · {m.attempts} attempt
          {m.attempts === 1 ? '' : 's'}
        </Text>
      </Group>
      {m.error && (
        <Alert {...alertTone('red')} title="Error">
          {m.error}
        </Alert>
      )}
      {m.subject && (
        <Text size="sm">
          <b>Subject:</b> {m.subject}
        </Text>
      )}
      <Code block style={{ whiteSpace: 'pre-wrap', maxHeight: 360, overflow: 'auto' }}>
        {m.body}
      </Code>
    </Stack>
  );
}
