import { Button, Grid, Stack, Table, Text, Title } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { Nowrap } from '../../components/Nowrap.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import type { PointsView } from './logic.ts';

/** Lots shown before "Show all": a long-time participant has one per credit. */
const FIRST_LOTS = 10;

const numeric = { textAlign: 'right' as const, fontVariantNumeric: 'tabular-nums' };

/**
 * A participant's open lots, in the order debits consume them (soonest expiry first, never last),
 * beside their open points grouped by expiry instant.
 */
export function PointLots({ query }: { query: UseQueryResult<PointsView, unknown> }) {
  const [all, setAll] = useState(false);
  return (
    <QueryState query={query} isEmpty={(v) => v.lots.length === 0} empty="No open points.">
      {(v) => {
        const lots = all ? v.lots : v.lots.slice(0, FIRST_LOTS);
        return (
          <Grid gap="lg">
            <Grid.Col span={{ base: 12, md: 8 }}>
              <Table aria-label="Open lots" striped verticalSpacing="xs">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Credit</Table.Th>
                    <Table.Th style={numeric}>Points</Table.Th>
                    <Table.Th style={numeric}>Remaining</Table.Th>
                    <Table.Th>Expires</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {lots.map((l) => (
                    <Table.Tr key={l.entry_id}>
                      <Table.Td>#{l.entry_id}</Table.Td>
                      <Table.Td style={numeric}>{formatNumber(l.points)}</Table.Td>
                      <Table.Td style={numeric}>{formatNumber(l.remaining)}</Table.Td>
                      <Table.Td>
                        {l.expires_at ? (
                          <Nowrap>{formatDateTime(l.expires_at)}</Nowrap>
                        ) : (
                          <Text size="sm" c="dimmed" span>
                            never
                          </Text>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
              {v.lots.length > FIRST_LOTS && (
                <Button variant="subtle" size="xs" mt="xs" onClick={() => setAll(!all)}>
                  {all ? 'Show fewer' : `Show all ${formatNumber(v.lots.length)} lots`}
                </Button>
              )}
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 4 }}>
              <Stack gap={6}>
                <Title order={4} fz="sm">
                  Expiring
                </Title>
                {v.expiring.length ? (
                  <Table aria-label="Expiring points" verticalSpacing={4}>
                    <Table.Tbody>
                      {v.expiring.map((g) => (
                        <Table.Tr key={g.expires_at}>
                          <Table.Td>
                            <Nowrap>{formatDateTime(g.expires_at)}</Nowrap>
                          </Table.Td>
                          <Table.Td style={numeric}>{formatNumber(g.points)}</Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                ) : (
                  <Text size="sm" c="dimmed">
                    None of these points expire.
                  </Text>
                )}
              </Stack>
            </Grid.Col>
          </Grid>
        );
      }}
    </QueryState>
  );
}
