import { SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { ToneBadge } from '../../components/ToneBadge.tsx';
import { formatNumber, formatPoints } from '../../lib/format.ts';
import { type Preview, type Programme, previewRows } from './logic.ts';

const numeric = { textAlign: 'right' as const, fontVariantNumeric: 'tabular-nums' };

/** What a proposed programme would do: participants per level now and after, and who moves where. */
export function PreviewResult({
  preview,
  proposed,
  running,
}: {
  preview: Preview;
  proposed: { key: string; name: string }[];
  running: Programme | null;
}) {
  const { rows, levelName } = previewRows(preview, proposed, running);
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg" data-testid="tier-preview">
      <Stack gap={6}>
        <Title order={4} fz="sm">
          Participants per level
        </Title>
        <Table aria-label="Participants per level" verticalSpacing={4} striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Level</Table.Th>
              <Table.Th style={numeric}>Now</Table.Th>
              <Table.Th style={numeric}>After</Table.Th>
              <Table.Th style={numeric}>Change</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.key ?? '(none)'} data-level={r.key ?? ''}>
                <Table.Td>
                  <Text size="sm" span fw={r.key ? 600 : 400} c={r.key ? undefined : 'dimmed'}>
                    {r.name}
                  </Text>{' '}
                  {r.key && (
                    <Text size="xs" c="dimmed" span>
                      {r.key}
                    </Text>
                  )}{' '}
                  {r.removed && (
                    <ToneBadge size="xs" color="red">
                      removed
                    </ToneBadge>
                  )}
                </Table.Td>
                <Table.Td style={numeric}>{formatNumber(r.now)}</Table.Td>
                <Table.Td style={numeric}>{formatNumber(r.after)}</Table.Td>
                <Table.Td style={numeric}>
                  <Text size="sm" span c={r.after > r.now ? 'teal.9' : r.after < r.now ? 'red.9' : 'dimmed'}>
                    {formatPoints(r.after - r.now)}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
      <Stack gap={6}>
        <Title order={4} fz="sm">
          Moves
        </Title>
        {preview.moves.length ? (
          <Table aria-label="Moves" verticalSpacing={4} striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>From</Table.Th>
                <Table.Th>To</Table.Th>
                <Table.Th style={numeric}>Participants</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {preview.moves.map((m) => (
                <Table.Tr key={`${m.from}>${m.to}`}>
                  <Table.Td>{levelName(m.from)}</Table.Td>
                  <Table.Td>{levelName(m.to)}</Table.Td>
                  <Table.Td style={numeric}>{formatNumber(m.count)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : (
          <Text size="sm" c="dimmed">
            Nobody changes level.
          </Text>
        )}
      </Stack>
    </SimpleGrid>
  );
}
