import { Code, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { formatDateTime, shortId } from '../lib/format.ts';
import { ToneBadge } from './ToneBadge.tsx';

export const RUN_COLORS: Record<string, string> = {
  completed: 'teal',
  failed: 'red',
  skipped: 'gray',
  pending: 'yellow',
};

export interface FlowRunView {
  id: string;
  flow_id: string;
  /** Null for an inactivity run (no event ran it). */
  event_id: string | null;
  participant: { external_id: string };
  status: string;
  steps: { action: string; status: string; result: Record<string, unknown> | null; error: string | null }[];
  started_at: string;
  finished_at: string | null;
}

export function StatusBadge({ status }: { status: string }) {
  return (
    <ToneBadge size="sm" color={RUN_COLORS[status] ?? 'gray'}>
      {status}
    </ToneBadge>
  );
}

/** A flow run's steps, in order: action, status, result or error. */
export function RunSteps({ run }: { run: FlowRunView }) {
  return (
    <Table aria-label={`Steps of run ${shortId(run.id)}`} verticalSpacing={4} fz="sm">
      <Table.Thead>
        <Table.Tr>
          <Table.Th w={40}>#</Table.Th>
          <Table.Th>Action</Table.Th>
          <Table.Th>Status</Table.Th>
          <Table.Th>Result</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {run.steps.map((s, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: steps are positional and never reordered
          <Table.Tr key={i}>
            <Table.Td>{i + 1}</Table.Td>
            <Table.Td>
              <Code>{s.action}</Code>
            </Table.Td>
            <Table.Td>
              <StatusBadge status={s.status} />
            </Table.Td>
            <Table.Td>
              {s.error ? (
                <Text size="sm" c="red.8">
                  {s.error}
                </Text>
              ) : s.result ? (
                <Code>{JSON.stringify(s.result)}</Code>
              ) : (
                '—'
              )}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** Runs with their steps, one card each (an event's runs, or a flow's). */
export function RunCards({ runs }: { runs: FlowRunView[] }) {
  return (
    <Stack gap="sm">
      {runs.map((r) => (
        <Paper key={r.id} withBorder radius="md" p="sm" data-testid="flow-run">
          <Group justify="space-between" mb={6}>
            <Group gap="xs">
              <StatusBadge status={r.status} />
              <Text size="sm" ff="monospace">
                {shortId(r.id, 18)}
              </Text>
            </Group>
            <Text size="xs" c="dimmed">
              {formatDateTime(r.started_at)} · {r.participant.external_id}
            </Text>
          </Group>
          <RunSteps run={r} />
        </Paper>
      ))}
    </Stack>
  );
}
