import { Anchor, Box, Group, Paper, SimpleGrid, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { QueryState } from '../../components/QueryState.tsx';
import { ToneBadge } from '../../components/ToneBadge.tsx';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { useMode } from '../../mode.tsx';
import { useTRPC } from '../../trpc.ts';
import {
  FREQUENCIES,
  historyCounts,
  lengthText,
  type ParticipantStreak,
  PERIOD_STYLES,
  type PeriodStatus,
  periodLabel,
} from '../streaks/logic.ts';

const CELL = 16;

/** The fill of a period's cell: solid, striped or an empty outline (they differ without colour too). */
const cellStyle = (status: PeriodStatus) => {
  const { color, fill } = PERIOD_STYLES[status];
  const c = `var(--mantine-color-${color}-7)`;
  return {
    width: CELL,
    height: CELL,
    borderRadius: 3,
    border: `1.5px solid ${c}`,
    background:
      fill === 'solid'
        ? c
        : fill === 'stripes'
          ? `repeating-linear-gradient(135deg, ${c} 0 3px, var(--mantine-color-${color}-1) 3px 6px)`
          : 'transparent',
  };
};

/** The current period while not extended yet: a dashed outline, open until it ends. */
const openCellStyle = {
  width: CELL,
  height: CELL,
  borderRadius: 3,
  border: '1.5px dashed var(--mantine-color-gray-7)',
};

/**
 * The recorded periods, oldest first (up to 30, from the first extension on), as a row of cells,
 * each named for assistive technology and on hover; then the current period while it is open.
 */
export function PeriodCells({ streak }: { streak: ParticipantStreak }) {
  const unit = FREQUENCIES[streak.frequency].period;
  const open = `this ${unit} (until ${formatDateTime(streak.period_end)}): not extended yet`;
  return (
    <Box
      component="ol"
      aria-label={`${streak.name}: the last ${streak.history.length} ${unit}s, oldest first`}
      data-testid={`history-${streak.key}`}
      style={{ display: 'flex', flexWrap: 'wrap', gap: 3, listStyle: 'none', margin: 0, padding: 0 }}
    >
      {streak.history.map((h) => {
        const label = `${periodLabel(h.period_start, streak.frequency)}: ${PERIOD_STYLES[h.status].label}`;
        return (
          <li key={h.period_start} data-status={h.status} title={label} style={cellStyle(h.status)}>
            <VisuallyHidden>{label}</VisuallyHidden>
          </li>
        );
      })}
      {!streak.extended_this_period && (
        <li data-status="open" title={open} style={openCellStyle}>
          <VisuallyHidden>{open}</VisuallyHidden>
        </li>
      )}
    </Box>
  );
}

/** What the cells mean. */
function Legend() {
  const item = (key: string, style: object, label: string) => (
    <Group key={key} gap={6} wrap="nowrap">
      <span style={{ ...style, display: 'inline-block', width: 12, height: 12 }} />
      <Text size="xs" c="dimmed">
        {label}
      </Text>
    </Group>
  );
  return (
    <Group gap="md" aria-hidden="true">
      {(Object.keys(PERIOD_STYLES) as PeriodStatus[]).map((s) =>
        item(s, cellStyle(s), PERIOD_STYLES[s].label),
      )}
      {item('open', openCellStyle, 'current period, not extended yet')}
    </Group>
  );
}

function Stat({ id, label, value, hint }: { id: string; label: string; value: string; hint?: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase">
        {label}
      </Text>
      <Text fz="md" fw={650} style={{ fontVariantNumeric: 'tabular-nums' }} data-testid={id}>
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </div>
  );
}

function StreakCard({ s }: { s: ParticipantStreak }) {
  const counts = historyCounts(s.history);
  return (
    <Paper withBorder radius="sm" p="sm" data-testid={`streak-${s.key}`}>
      <Group justify="space-between" mb="xs" wrap="wrap">
        <Group gap="xs">
          <Text fw={650} size="sm">
            {s.name}
          </Text>
          <Text size="xs" c="dimmed" ff="monospace">
            {s.key}
          </Text>
          <ToneBadge size="sm" color="gray">
            {FREQUENCIES[s.frequency].label.toLowerCase()}
          </ToneBadge>
        </Group>
        <Group gap="xs">
          {s.extended_this_period && (
            <ToneBadge size="sm" color="teal" data-testid="extended-now">
              {`extended this ${FREQUENCIES[s.frequency].period}`}
            </ToneBadge>
          )}
          {s.at_risk && (
            <ToneBadge size="sm" color="red" data-testid="at-risk">
              at risk
            </ToneBadge>
          )}
        </Group>
      </Group>
      <SimpleGrid cols={{ base: 2, sm: 4 }} mb="sm">
        <Stat id={`streak-${s.key}-length`} label="Length" value={lengthText(s.length, s.frequency)} />
        <Stat id={`streak-${s.key}-longest`} label="Longest" value={lengthText(s.longest, s.frequency)} />
        <Stat id={`streak-${s.key}-freezes`} label="Freezes" value={formatNumber(s.freezes)} />
        <Stat
          id={`streak-${s.key}-expires`}
          label="Expires"
          value={s.expires_at ? formatDateTime(s.expires_at) : '—'}
          hint={s.expires_at ? 'unless extended by then' : s.length ? undefined : 'not running'}
        />
      </SimpleGrid>
      <Stack gap={6}>
        <PeriodCells streak={s} />
        <Text size="xs" c="dimmed">
          {s.history.length
            ? `Last ${s.history.length} ${FREQUENCIES[s.frequency].period}s: ${counts.extended} extended, ${counts.frozen} frozen, ${counts.missed} missed.`
            : 'Not started: no period recorded yet.'}
        </Text>
      </Stack>
    </Paper>
  );
}

/**
 * A participant's streaks (docs/dashboard.md#pages), as they stand now in the time zone
 * of their periods: length, longest, freezes, whether it is at risk, when it expires, and the
 * last 30 periods.
 */
export function StreakSection({ externalId, timezone }: { externalId: string; timezone: string }) {
  const trpc = useTRPC();
  const { mode } = useMode();
  const streaks = useQuery(trpc.streaks.participant.queryOptions({ mode, externalId }));
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed" data-testid="streak-timezone">
        Periods in {timezone}.
      </Text>
      <QueryState
        query={streaks}
        isEmpty={(s) => s.data.length === 0}
        empty={
          <>
            No streaks run in {mode} mode.{' '}
            <Anchor component={Link} to="/streaks" underline="always" inherit>
              Define one on the Streaks page
            </Anchor>
            .
          </>
        }
      >
        {(s) => (
          <Stack gap="sm">
            {s.data.map((x) => (
              <StreakCard key={x.key} s={x} />
            ))}
            <Legend />
          </Stack>
        )}
      </QueryState>
    </Stack>
  );
}
