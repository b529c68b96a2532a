import { Anchor, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { nextPage, PagedTable } from '../../components/PagedTable.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { useMode } from '../../mode.tsx';
import { useTRPC } from '../../trpc.ts';
import { referralColumns } from '../referrals/ReferralList.tsx';

/**
 * A participant's referral code (made on the first read, as the API makes it) and the referrals
 * they made as advocate, newest first, with the cancel of a qualified one
 * (docs/dashboard.md#pages).
 */
export function ReferralSection({ externalId }: { externalId: string }) {
  const trpc = useTRPC();
  const { mode } = useMode();
  const code = useQuery(trpc.referrals.code.queryOptions({ mode, externalId }));
  const referrals = useInfiniteQuery(
    trpc.referrals.list.infiniteQueryOptions(
      { mode, advocate: externalId, limit: 10 },
      { getNextPageParam: nextPage },
    ),
  );
  return (
    <Stack gap="sm">
      <QueryState query={code}>
        {(c) => (
          <Group gap="sm">
            <Text size="sm">Referral code</Text>
            <Code fz="md" data-testid="referral-code">
              {c.code}
            </Code>
            <CopyButton value={c.code}>
              {({ copied, copy }) => (
                <Button size="compact-sm" variant="default" onClick={copy}>
                  {copied ? 'Copied' : 'Copy'}
                </Button>
              )}
            </CopyButton>
            <Text size="xs" c="dimmed">
              A new participant whose first event carries it becomes their referred friend.
            </Text>
          </Group>
        )}
      </QueryState>
      <PagedTable
        label={`Referrals by ${externalId}`}
        query={referrals}
        columns={referralColumns({ advocate: false })}
        rowKey={(r) => r.id}
        empty="They have referred nobody yet."
      />
      <Anchor
        component={Link}
        to={`/referrals?advocate=${encodeURIComponent(externalId)}`}
        size="sm"
        underline="always"
        w="fit-content"
      >
        Open in Referrals
      </Anchor>
    </Stack>
  );
}
