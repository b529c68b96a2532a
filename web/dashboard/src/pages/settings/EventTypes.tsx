import { Button, Code, Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { nextPage, PagedTable } from '../../components/PagedTable.tsx';
import { ToneBadge } from '../../components/ToneBadge.tsx';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { useMode } from '../../mode.tsx';
import { notifyError, notifySuccess } from '../../notify.ts';
import { useTRPC } from '../../trpc.ts';
import type { EventType } from './logic.ts';
import { SchemaEditor } from './SchemaEditor.tsx';

/** Event types seen or defined in this mode, and their JSON Schemas: put (editor) and drop. */
export function EventTypes() {
  const trpc = useTRPC();
  const { mode } = useMode();
  const queryClient = useQueryClient();
  // null: closed; '' : a new type; else the type being edited.
  const [editing, setEditing] = useState<EventType | 'new' | null>(null);
  const list = useInfiniteQuery(
    trpc.eventTypes.list.infiniteQueryOptions({ mode, limit: 50 }, { getNextPageParam: nextPage }),
  );
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.eventTypes.list.pathKey() });
  const drop = useMutation(
    trpc.eventTypes.dropSchema.mutationOptions({
      onSuccess: (t) => {
        notifySuccess(`Schema of ${t.key} dropped: its events are no longer checked`);
        refresh();
      },
      onError: notifyError,
    }),
  );
  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="nowrap" gap="xl">
        <Text size="sm" c="dimmed">
          An event whose payload fails its type's JSON Schema (draft 2020-12) is <b>quarantined</b> and never
          processed; the reason names the failing path.
        </Text>
        <Button onClick={() => setEditing('new')} style={{ flexShrink: 0 }}>
          Add schema
        </Button>
      </Group>
      <PagedTable<EventType>
        query={list}
        label="Event types"
        rowKey={(t) => t.key}
        empty={`No event types in ${mode} mode yet: they appear with their first event, or add a schema.`}
        columns={[
          { key: 'key', title: 'Event type', render: (t) => <Code>{t.key}</Code> },
          { key: 'count', title: 'Events', render: (t) => formatNumber(t.events_count) },
          { key: 'first', title: 'First seen', render: (t) => formatDateTime(t.first_seen_at) },
          {
            key: 'schema',
            title: 'Schema',
            render: (t) =>
              t.schema ? (
                <ToneBadge color="teal">JSON Schema</ToneBadge>
              ) : (
                <ToneBadge color="gray">None</ToneBadge>
              ),
          },
          {
            key: 'actions',
            title: <VisuallyHidden>Actions</VisuallyHidden>,
            render: (t) => (
              <Group gap="xs" justify="flex-end" wrap="nowrap">
                <Button
                  size="xs"
                  variant="default"
                  aria-label={`${t.schema ? 'Edit' : 'Add'} schema of ${t.key}`}
                  onClick={() => setEditing(t)}
                >
                  {t.schema ? 'Edit schema' : 'Add schema'}
                </Button>
                {t.schema && (
                  <ConfirmButton
                    size="xs"
                    variant="light"
                    color="red"
                    aria-label={`Drop schema of ${t.key}`}
                    title="Drop this schema?"
                    message={
                      <>
                        Events of <b>{t.key}</b> are no longer checked from now on. Events already quarantined
                        stay quarantined.
                      </>
                    }
                    confirmLabel="Drop schema"
                    loading={drop.isPending && drop.variables?.key === t.key}
                    onConfirm={() => drop.mutate({ mode, key: t.key })}
                  >
                    Drop
                  </ConfirmButton>
                )}
              </Group>
            ),
          },
        ]}
      />
      {editing && (
        <SchemaEditor
          eventType={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={refresh}
        />
      )}
    </Stack>
  );
}
