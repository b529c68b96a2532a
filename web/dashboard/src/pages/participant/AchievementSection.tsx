import { Anchor, Group, Progress, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Nowrap } from '../../components/Nowrap.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { ToneBadge } from '../../components/ToneBadge.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useMode } from '../../mode.tsx';
import { useTRPC } from '../../trpc.ts';
import type { Achievement } from '../achievements/logic.ts';

const amount = (n: number) => new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }).format(n);

function Row({ a }: { a: Achievement }) {
  const name = a.badge.tier ? `${a.badge.name} (${a.badge.tier})` : a.badge.name;
  const done = a.completed_at !== null;
  return (
    <Table.Tr data-achievement={`${a.badge.key}:${a.badge.tier ?? ''}`}>
      <Table.Td>
        <Text size="sm" fw={600}>
          {name}
        </Text>
        <Text size="xs" c="dimmed" ff="monospace">
          {a.badge.key}
        </Text>
      </Table.Td>
      <Table.Td w="40%">
        <Progress
          value={a.percent}
          color={done ? 'teal' : 'indigo'}
          size="lg"
          aria-label={`${name}: ${a.percent}%`}
        />
      </Table.Td>
      <Table.Td style={{ textAlign: 'right', fontVariantNumeric: 'tabular-nums' }}>
        <Nowrap>
          {amount(a.progress)} / {amount(a.target)}
        </Nowrap>
      </Table.Td>
      <Table.Td style={{ textAlign: 'right', fontVariantNumeric: 'tabular-nums' }}>{a.percent}%</Table.Td>
      <Table.Td>
        {done ? (
          <Group gap={6} wrap="nowrap">
            <ToneBadge size="sm" color="teal">
              completed
            </ToneBadge>
            <Text size="xs" c="dimmed">
              <Nowrap>{formatDateTime(a.completed_at)}</Nowrap>
            </Text>
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            —
          </Text>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

/**
 * A participant's achievements (docs/dashboard.md#pages): their progress toward every badge
 * with criteria, counted now, and when they completed it.
 */
export function AchievementSection({ externalId }: { externalId: string }) {
  const trpc = useTRPC();
  const { mode } = useMode();
  const achievements = useQuery(trpc.achievements.participant.queryOptions({ mode, externalId }));
  return (
    <QueryState
      query={achievements}
      isEmpty={(a) => a.data.length === 0}
      empty={
        <>
          No badge has criteria in {mode} mode.{' '}
          <Anchor component={Link} to="/achievements" underline="always" inherit>
            Define one on the Achievements page
          </Anchor>
          .
        </>
      }
    >
      {(a) => (
        <Stack gap="xs">
          <Table.ScrollContainer minWidth={640}>
            <Table aria-label="Achievements" verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Badge</Table.Th>
                  <Table.Th>Progress</Table.Th>
                  <Table.Th style={{ textAlign: 'right' }}>Done / target</Table.Th>
                  <Table.Th style={{ textAlign: 'right' }}>Percent</Table.Th>
                  <Table.Th>Completed</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {a.data.map((x) => (
                  <Row key={`${x.badge.key}:${x.badge.tier ?? ''}`} a={x} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Text size="xs" c="dimmed">
            Progress counts their processed events that match each badge’s criteria, in its window ending now.
          </Text>
        </Stack>
      )}
    </QueryState>
  );
}
