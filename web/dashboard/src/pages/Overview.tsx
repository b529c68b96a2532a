import { Group, Paper, SegmentedControl, SimpleGrid, Skeleton, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { lazy, Suspense, useState } from 'react';
import { PageHeader } from '../components/PageHeader.tsx';
import { EmptyState, QueryState } from '../components/QueryState.tsx';
import { formatDay, formatNumber, formatPercent } from '../lib/format.ts';
import { useMode } from '../mode.tsx';
import { useTRPC } from '../trpc.ts';

function Stat({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <Paper withBorder p="md" radius="md">
      <Text size="xs" c="dimmed" fw={600} tt="uppercase" style={{ letterSpacing: 0.4 }}>
        {label}
      </Text>
      <Text fz={26} fw={650} mt={4} style={{ fontVariantNumeric: 'tabular-nums' }}>
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Paper>
  );
}

/** One chart in a titled card; the title names the figure for screen readers. */
const BarChart = lazy(() => import('./overview/charts.ts').then((m) => ({ default: m.BarChart })));
const LineChart = lazy(() => import('./overview/charts.ts').then((m) => ({ default: m.LineChart })));

function ChartCard({
  title,
  id,
  children,
  note,
  wide,
}: {
  title: string;
  id: string;
  children: ReactNode;
  note?: string;
  /** Spans both columns. */
  wide?: boolean;
}) {
  return (
    <Paper
      withBorder
      p="md"
      radius="md"
      component="figure"
      m={0}
      aria-labelledby={id}
      data-testid={`chart-${id}`}
      style={wide ? { gridColumn: '1 / -1' } : undefined}
    >
      <Group justify="space-between" mb="sm">
        <Title order={3} fz="sm" fw={600} id={id}>
          {title}
        </Title>
        {note && (
          <Text size="xs" c="dimmed">
            {note}
          </Text>
        )}
      </Group>
      <Suspense fallback={<Skeleton h={220} aria-label="Loading the chart" />}>{children}</Suspense>
    </Paper>
  );
}

const axis = {
  tickLine: 'none' as const,
  gridAxis: 'x' as const,
  h: 220,
  yAxisProps: { allowDecimals: false, width: 48 },
  xAxisProps: { minTickGap: 24 },
};

export default function Overview() {
  const trpc = useTRPC();
  const { mode } = useMode();
  const [days, setDays] = useState('30');
  const query = useQuery(trpc.overview.get.queryOptions({ mode, days: Number(days) }));
  return (
    <>
      <PageHeader
        title="Overview"
        description={`Activity in ${mode} mode over the last ${days} days (UTC).`}
        actions={
          <SegmentedControl
            aria-label="Period"
            size="xs"
            value={days}
            onChange={setDays}
            data={[
              { label: '7 days', value: '7' },
              { label: '30 days', value: '30' },
              { label: '90 days', value: '90' },
            ]}
          />
        }
      />
      <QueryState query={query}>
        {(o) => {
          const data = o.days.map((d) => ({
            ...d,
            label: formatDay(d.day),
            success: d.webhook_success_rate === null ? null : Math.round(d.webhook_success_rate * 1000) / 10,
          }));
          const quiet =
            o.totals.events === 0 &&
            o.totals.points_issued === 0 &&
            o.totals.redemptions === 0 &&
            o.totals.webhook_attempts === 0;
          return (
            <>
              <SimpleGrid cols={{ base: 2, md: 3, lg: 6 }} spacing="md" mb="lg" data-testid="overview-stats">
                <Stat label="Events" value={formatNumber(o.totals.events)} />
                <Stat
                  label="Quarantined"
                  value={formatNumber(o.totals.quarantined)}
                  hint={
                    o.totals.events
                      ? `${formatPercent(o.totals.quarantined / o.totals.events)} of events`
                      : undefined
                  }
                />
                <Stat label="Points issued" value={formatNumber(o.totals.points_issued)} />
                <Stat label="Points redeemed" value={formatNumber(o.totals.points_redeemed)} />
                <Stat label="Redemptions" value={formatNumber(o.totals.redemptions)} />
                <Stat
                  label="Webhook success"
                  value={formatPercent(o.totals.webhook_success_rate)}
                  hint={`${formatNumber(o.totals.webhook_succeeded)} of ${formatNumber(o.totals.webhook_attempts)} attempts`}
                />
              </SimpleGrid>
              {quiet ? (
                <EmptyState>
                  No activity yet in {mode} mode. Send events or adjust points and the charts fill in.
                </EmptyState>
              ) : (
                <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
                  <ChartCard title="Events per day" id="events-per-day">
                    <BarChart
                      {...axis}
                      data={data}
                      dataKey="label"
                      series={[{ name: 'events', label: 'Events', color: 'indigo.6' }]}
                      valueFormatter={formatNumber}
                    />
                  </ChartCard>
                  <ChartCard title="Quarantined events per day" id="quarantined-per-day">
                    <BarChart
                      {...axis}
                      data={data}
                      dataKey="label"
                      series={[{ name: 'quarantined', label: 'Quarantined', color: 'red.7' }]}
                      valueFormatter={formatNumber}
                    />
                  </ChartCard>
                  <ChartCard title="Points issued vs redeemed" id="points-per-day">
                    <BarChart
                      {...axis}
                      data={data}
                      dataKey="label"
                      withLegend
                      series={[
                        { name: 'points_issued', label: 'Issued', color: 'teal.6' },
                        { name: 'points_redeemed', label: 'Redeemed', color: 'orange.6' },
                      ]}
                      valueFormatter={formatNumber}
                    />
                  </ChartCard>
                  <ChartCard title="Redemptions by reward" id="redemptions-by-reward">
                    {o.redemptions_by_reward.length ? (
                      <BarChart
                        h={220}
                        data={o.redemptions_by_reward.slice(0, 8)}
                        dataKey="name"
                        orientation="vertical"
                        maxBarWidth={28}
                        gridAxis="y"
                        tickLine="none"
                        xAxisProps={{ allowDecimals: false }}
                        yAxisProps={{ width: 140 }}
                        series={[{ name: 'count', label: 'Redemptions', color: 'grape.6' }]}
                        valueFormatter={formatNumber}
                      />
                    ) : (
                      <EmptyState>No redemptions in this period.</EmptyState>
                    )}
                  </ChartCard>
                  <ChartCard
                    wide
                    title="Webhook delivery success rate"
                    id="webhook-success"
                    note={mode === 'test' ? 'Test mode simulates deliveries' : undefined}
                  >
                    {o.totals.webhook_attempts ? (
                      <LineChart
                        {...axis}
                        data={data}
                        dataKey="label"
                        connectNulls
                        yAxisProps={{ domain: [0, 100], width: 48 }}
                        series={[{ name: 'success', label: 'Succeeded', color: 'teal.7' }]}
                        valueFormatter={(v) => `${v}%`}
                      />
                    ) : (
                      <EmptyState>No webhook attempts in this period.</EmptyState>
                    )}
                  </ChartCard>
                </SimpleGrid>
              )}
            </>
          );
        }}
      </QueryState>
    </>
  );
}
