import {
  Button,
  Code,
  Group,
  Modal,
  Paper,
  Progress,
  Stack,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { PageHeader } from '../components/PageHeader.tsx';
import { QueryState } from '../components/QueryState.tsx';
import { ToneBadge } from '../components/ToneBadge.tsx';
import { formatNumber } from '../lib/format.ts';
import { useMode } from '../mode.tsx';
import { useTRPC } from '../trpc.ts';
import { Backfill } from './achievements/Backfill.tsx';
import { BadgeForm } from './achievements/BadgeForm.tsx';
import { type Badge, describeCriteria, formatShare } from './achievements/logic.ts';

type Dialog = { kind: 'edit'; badge: Badge | null } | { kind: 'backfill'; badge: Badge };

function BadgeTable({ badges, open }: { badges: Badge[]; open: (d: Dialog) => void }) {
  return (
    <Table.ScrollContainer minWidth={820}>
      <Table striped aria-label="Badges" verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Badge</Table.Th>
            <Table.Th>Criteria</Table.Th>
            <Table.Th style={{ textAlign: 'right' }}>Holders</Table.Th>
            <Table.Th w={180}>Rarity</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {badges.map((b) => (
            <Table.Tr key={b.key} data-badge={b.key}>
              <Table.Td>
                <Text size="sm" fw={600}>
                  {b.name}
                </Text>
                <Text size="xs" c="dimmed" ff="monospace">
                  {b.key}
                </Text>
                {b.tiers.length > 0 && (
                  <Text size="xs" c="dimmed">
                    tiers: {b.tiers.join(', ')}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                {b.criteria ? (
                  <Code style={{ whiteSpace: 'normal' }}>{describeCriteria(b.criteria)}</Code>
                ) : (
                  <ToneBadge size="sm" color="gray">
                    flows only
                  </ToneBadge>
                )}
              </Table.Td>
              <Table.Td style={{ textAlign: 'right', fontVariantNumeric: 'tabular-nums' }}>
                {formatNumber(b.holders_count)}
              </Table.Td>
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  <Progress
                    value={b.holders_percent}
                    w={90}
                    size="sm"
                    aria-label={`${b.name}: held by ${formatShare(b.holders_percent)} of participants`}
                  />
                  <Text size="sm" style={{ fontVariantNumeric: 'tabular-nums' }}>
                    {formatShare(b.holders_percent)}
                  </Text>
                </Group>
              </Table.Td>
              <Table.Td>
                <Group gap="xs" justify="flex-end" wrap="nowrap">
                  <Button
                    size="compact-sm"
                    variant="default"
                    aria-label={`Edit ${b.name}`}
                    onClick={() => open({ kind: 'edit', badge: b })}
                  >
                    Edit
                  </Button>
                  {b.criteria && (
                    <Button
                      size="compact-sm"
                      variant="default"
                      aria-label={`Backfill ${b.name}`}
                      onClick={() => open({ kind: 'backfill', badge: b })}
                    >
                      Backfill
                    </Button>
                  )}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Achievements (docs/dashboard.md#pages): the badges of this mode, their criteria and rarity; define, change, backfill. */
export default function Achievements() {
  const trpc = useTRPC();
  const { mode } = useMode();
  // After a backfill is queued, the holders are read every 2 s for half a minute while it runs.
  const [followUntil, setFollowUntil] = useState(0);
  const badges = useQuery(
    trpc.achievements.badges.queryOptions(
      { mode },
      { refetchInterval: () => (Date.now() < followUntil ? 2_000 : false) },
    ),
  );
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const close = () => setDialog(null);
  const title = !dialog
    ? ''
    : dialog.kind === 'backfill'
      ? `Backfill ${dialog.badge.name}`
      : dialog.badge
        ? `Edit ${dialog.badge.name}`
        : 'New badge';
  return (
    <>
      <PageHeader
        title="Achievements"
        description={`Badges awarded when a participant’s events reach a target, and how rare each is, in ${mode} mode.`}
        actions={<Button onClick={() => setDialog({ kind: 'edit', badge: null })}>New badge</Button>}
      />
      <Paper withBorder radius="md" p="md">
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            Rarity is the share of this mode’s participants who hold the badge (any tier).
          </Text>
          <QueryState
            query={badges}
            isEmpty={(b) => b.data.length === 0}
            empty={`No badges in ${mode} mode yet. Define one with criteria to award it as an achievement.`}
          >
            {(b) => <BadgeTable badges={b.data} open={setDialog} />}
          </QueryState>
        </Stack>
      </Paper>
      <Modal
        opened={dialog !== null}
        onClose={close}
        title={title}
        size={dialog?.kind === 'backfill' ? 'md' : 'xl'}
        centered
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {dialog?.kind === 'edit' && (
          <BadgeForm key={dialog.badge?.key ?? 'new'} stored={dialog.badge} onDone={close} />
        )}
        {dialog?.kind === 'backfill' && (
          <Backfill
            key={dialog.badge.key}
            badge={dialog.badge}
            onQueued={() => setFollowUntil(Date.now() + 30_000)}
            onDone={close}
          />
        )}
      </Modal>
    </>
  );
}
