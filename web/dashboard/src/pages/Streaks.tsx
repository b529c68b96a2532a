import { Button, Code, Group, Modal, Paper, Stack, Switch, Table, Text, VisuallyHidden } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmButton } from '../components/ConfirmButton.tsx';
import { PageHeader } from '../components/PageHeader.tsx';
import { QueryState } from '../components/QueryState.tsx';
import { ToneBadge } from '../components/ToneBadge.tsx';
import { formatDateTime } from '../lib/format.ts';
import { useMode } from '../mode.tsx';
import { notifyError, notifySuccess } from '../notify.ts';
import { useTRPC } from '../trpc.ts';
import { describeFreezes, FREQUENCIES, type Streak } from './streaks/logic.ts';
import { StreakForm } from './streaks/StreakForm.tsx';

/** The definitions as a table: what extends each, how often, its freezes; edit and archive. */
function StreakTable({ streaks, onEdit }: { streaks: Streak[]; onEdit: (s: Streak) => void }) {
  const trpc = useTRPC();
  const { mode } = useMode();
  const queryClient = useQueryClient();
  const archive = useMutation(
    trpc.streaks.archive.mutationOptions({
      onSuccess: (s) => {
        notifySuccess(`Streak “${s.name}” archived`);
        queryClient.invalidateQueries({ queryKey: trpc.streaks.pathKey() });
      },
      onError: notifyError,
    }),
  );
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table striped aria-label="Streaks" verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Streak</Table.Th>
            <Table.Th>Event types</Table.Th>
            <Table.Th>Frequency</Table.Th>
            <Table.Th>Freezes</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {streaks.map((s) => (
            <Table.Tr key={s.key} data-streak={s.key}>
              <Table.Td>
                <Text size="sm" fw={600}>
                  {s.name}
                </Text>
                <Text size="xs" c="dimmed" ff="monospace">
                  {s.key}
                </Text>
              </Table.Td>
              <Table.Td>
                <Group gap={4}>
                  {s.event_types.map((t) => (
                    <Code key={t}>{t}</Code>
                  ))}
                </Group>
              </Table.Td>
              <Table.Td>{FREQUENCIES[s.frequency].label}</Table.Td>
              <Table.Td>
                <Text size="sm">{describeFreezes(s)}</Text>
              </Table.Td>
              <Table.Td>
                {s.archived_at ? (
                  <ToneBadge size="sm" color="gray" title={`Archived ${formatDateTime(s.archived_at)}`}>
                    archived
                  </ToneBadge>
                ) : (
                  <ToneBadge size="sm" color="teal">
                    running
                  </ToneBadge>
                )}
              </Table.Td>
              <Table.Td>
                {!s.archived_at && (
                  <Group gap="xs" justify="flex-end" wrap="nowrap">
                    <Button
                      size="compact-sm"
                      variant="default"
                      aria-label={`Edit ${s.name}`}
                      onClick={() => onEdit(s)}
                    >
                      Edit
                    </Button>
                    <ConfirmButton
                      size="compact-sm"
                      variant="default"
                      color="red.9"
                      aria-label={`Archive ${s.name}`}
                      title={`Archive “${s.name}”?`}
                      message="Events stop extending it and participants’ pages stop showing it; their lengths and history are kept. Its key stays taken."
                      confirmLabel="Archive streak"
                      loading={archive.isPending && archive.variables?.key === s.key}
                      onConfirm={() => archive.mutate({ mode, key: s.key })}
                    >
                      Archive
                    </ConfirmButton>
                  </Group>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Streaks (docs/dashboard.md#pages): the streak definitions of this mode; create, change, archive. */
export default function Streaks() {
  const trpc = useTRPC();
  const { mode } = useMode();
  const [archived, setArchived] = useState(false);
  // `undefined`: no form; `null`: a new streak; a streak: its change.
  const [editing, setEditing] = useState<Streak | null | undefined>(undefined);
  const streaks = useQuery(trpc.streaks.list.queryOptions({ mode, includeArchived: archived }));
  return (
    <>
      <PageHeader
        title="Streaks"
        description={`Consecutive days, weeks or months in which a participant did something, in ${mode} mode.`}
        actions={<Button onClick={() => setEditing(null)}>New streak</Button>}
      />
      <Paper withBorder radius="md" p="md">
        <Stack gap="sm">
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              Flow conditions read a participant’s length as <Code>{'{"streak": "<key>"}'}</Code>.
            </Text>
            <Switch
              label="Show archived"
              checked={archived}
              onChange={(e) => setArchived(e.currentTarget.checked)}
            />
          </Group>
          <QueryState
            query={streaks}
            isEmpty={(s) => s.data.length === 0}
            empty={`No streaks in ${mode} mode yet. Define one to count consecutive periods of activity.`}
          >
            {(s) => <StreakTable streaks={s.data} onEdit={setEditing} />}
          </QueryState>
        </Stack>
      </Paper>
      <Modal
        opened={editing !== undefined}
        onClose={() => setEditing(undefined)}
        title={editing ? `Edit ${editing.name}` : 'New streak'}
        size="lg"
        centered
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {editing !== undefined && (
          <StreakForm key={editing?.key ?? 'new'} stored={editing} onDone={() => setEditing(undefined)} />
        )}
      </Modal>
    </>
  );
}
