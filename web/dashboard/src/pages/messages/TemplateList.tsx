import { Anchor, Card, Text } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { type Column, nextPage, PagedTable } from '../../components/PagedTable.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useMode } from '../../mode.tsx';
import { useTRPC } from '../../trpc.ts';
import { ChannelBadge } from './ChannelBadge.tsx';
import type { Template } from './template-form.ts';

/** The templates of this mode, newest first; a row opens its editor. */
export function TemplateList() {
  const trpc = useTRPC();
  const { mode } = useMode();
  const navigate = useNavigate();
  const list = useInfiniteQuery(
    trpc.messages.templates.list.infiniteQueryOptions({ mode }, { getNextPageParam: nextPage }),
  );
  const columns: Column<Template>[] = [
    {
      key: 'key',
      title: 'Key',
      render: (t) => (
        <Anchor
          component={Link}
          to={`/messages/templates/${encodeURIComponent(t.key)}`}
          ff="monospace"
          fw={600}
          size="sm"
        >
          {t.key}
        </Anchor>
      ),
    },
    { key: 'channel', title: 'Channel', render: (t) => <ChannelBadge channel={t.channel} /> },
    {
      key: 'subject',
      title: 'Subject / first line',
      render: (t) => (
        <Text size="sm" lineClamp={1} maw={520}>
          {t.subject ?? t.body.split('\n')[0]}
        </Text>
      ),
    },
    {
      key: 'updated',
      title: 'Updated',
      render: (t) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(t.updated_at)}
        </Text>
      ),
    },
  ];
  return (
    <Card withBorder radius="md" padding={0}>
      <PagedTable
        query={list}
        columns={columns}
        rowKey={(t) => t.key}
        label="Message templates"
        onRowClick={(t) => navigate(`/messages/templates/${encodeURIComponent(t.key)}`)}
        empty="No templates yet. Create one, then name its key in a flow's send_message step."
      />
    </Card>
  );
}
