import { Anchor, Button, Grid, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { fieldErrorOf, notifyUnlessShown } from '../../components/formErrors.ts';
import { Nowrap } from '../../components/Nowrap.tsx';
import { nextPage, PagedTable } from '../../components/PagedTable.tsx';
import { ToneBadge } from '../../components/ToneBadge.tsx';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { useMode } from '../../mode.tsx';
import { notifySuccess } from '../../notify.ts';
import { useTRPC } from '../../trpc.ts';
import { type ParticipantTier, type Programme, REASON_LABELS, type TierMove } from '../tiers/logic.ts';

function TierStat({ id, label, value, hint }: { id: string; label: string; value: string; hint?: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase">
        {label}
      </Text>
      <Text fz="lg" fw={650} style={{ fontVariantNumeric: 'tabular-nums' }} data-testid={`tier-${id}`}>
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed" data-testid={`tier-${id}-hint`}>
          {hint}
        </Text>
      )}
    </div>
  );
}

/** Where the participant stands: level, since, qualifying points, the next level and what keeping this one needs. */
function Standing({ tier }: { tier: ParticipantTier }) {
  // The date as the value, its time under it: a whole timestamp wraps in a fifth of the page.
  const [day = '', time] = formatDateTime(tier.since).split(/ (.*)/);
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} data-testid="tier-standing">
      <TierStat id="level" label="Level" value={tier.name} hint={tier.key} />
      <TierStat id="since" label="Since" value={day} hint={time} />
      <TierStat id="qualifying" label="Qualifying points" value={formatNumber(tier.qualifying_points)} />
      <TierStat
        id="next"
        label="Next level"
        value={tier.next ? tier.next.name : 'Top level'}
        hint={tier.next ? `${formatNumber(tier.next.points_needed)} points needed` : 'nothing above'}
      />
      <TierStat
        id="retain"
        label="To keep it"
        value={
          tier.retain
            ? tier.retain.points_needed > 0
              ? `${formatNumber(tier.retain.points_needed)} points`
              : 'On track'
            : 'Kept'
        }
        hint={tier.retain ? `by ${formatDateTime(tier.retain.by)}` : 'this level cannot be lost'}
      />
    </SimpleGrid>
  );
}

const levelName = (ref: TierMove['from']) => ref?.name ?? 'No level';

/** The tier history, newest first. */
function History({ externalId }: { externalId: string }) {
  const trpc = useTRPC();
  const { mode } = useMode();
  const history = useInfiniteQuery(
    trpc.tiers.history.infiniteQueryOptions({ mode, externalId, limit: 10 }, { getNextPageParam: nextPage }),
  );
  return (
    <PagedTable<TierMove>
      label="Tier history"
      query={history}
      rowKey={(m) => m.id}
      empty="No tier moves yet."
      columns={[
        { key: 'at', title: 'Date', width: 200, render: (m) => <Nowrap>{formatDateTime(m.at)}</Nowrap> },
        {
          key: 'move',
          title: 'Move',
          render: (m) => (
            <Nowrap>
              {levelName(m.from)} → <b>{levelName(m.to)}</b>
            </Nowrap>
          ),
        },
        {
          key: 'reason',
          title: 'Reason',
          render: (m) => (
            <Stack gap={2} align="flex-start">
              <ToneBadge size="sm" color={REASON_LABELS[m.reason].color}>
                {REASON_LABELS[m.reason].label}
              </ToneBadge>
              {m.note && (
                <Text size="xs" c="dimmed">
                  {m.note}
                </Text>
              )}
            </Stack>
          ),
        },
        {
          key: 'points',
          title: <Nowrap>Qualifying points</Nowrap>,
          align: 'right',
          width: 150,
          render: (m) => formatNumber(m.qualifying_points),
        },
      ]}
    />
  );
}

/** An operator sets the level by hand, with a note kept in the history. */
function SetLevelForm({
  externalId,
  programme,
  current,
  onDone,
}: {
  externalId: string;
  programme: Programme;
  current: string | null;
  onDone: () => void;
}) {
  const trpc = useTRPC();
  const { mode } = useMode();
  const [key, setKey] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const set = useMutation(
    trpc.tiers.setParticipant.mutationOptions({
      onSuccess: (tier) => {
        notifySuccess(`${externalId} is now at ${tier.name}`);
        setKey(null);
        setReason('');
        onDone();
      },
      onError: (error) => notifyUnlessShown(error, ['key', 'reason']),
    }),
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    set.mutate({ mode, externalId, key: key ?? '', reason });
  };
  const err = (field: string) => fieldErrorOf(set.error, field);
  return (
    <form onSubmit={submit} aria-label="Set level" noValidate>
      <Stack gap="sm">
        <Select
          label="Level"
          placeholder="Choose a level"
          withAsterisk
          data={programme.levels.map((l) => ({
            value: l.key,
            label: l.key === current ? `${l.name} (${l.key}, current)` : `${l.name} (${l.key})`,
          }))}
          value={key}
          onChange={setKey}
          error={err('key')}
        />
        <TextInput
          label="Note"
          description="Why: kept in the tier history"
          withAsterisk
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          error={err('reason')}
        />
        <Button type="submit" loading={set.isPending} style={{ alignSelf: 'flex-end' }}>
          Set level
        </Button>
        <Text size="xs" c="dimmed">
          The downgrade rules then apply to it as to any level.
        </Text>
      </Stack>
    </form>
  );
}

/**
 * A participant's tier (docs/dashboard.md#pages): where they stand, their moves, and a
 * level set by hand. `onChanged` refreshes what a manual level moves (the participant, the history).
 */
export function TierSection({
  externalId,
  tier,
  onChanged,
}: {
  externalId: string;
  tier: ParticipantTier | null;
  onChanged: () => void;
}) {
  const trpc = useTRPC();
  const { mode } = useMode();
  const programme = useQuery(trpc.tiers.get.queryOptions({ mode }));
  return (
    <Stack gap="md">
      {tier ? (
        <Standing tier={tier} />
      ) : programme.isSuccess && !programme.data ? (
        <Text size="sm" c="dimmed" data-testid="tier-none">
          No tier programme runs in {mode} mode.{' '}
          <Anchor component={Link} to="/tiers" size="sm" underline="always">
            Start one on the Tiers page
          </Anchor>
          .
        </Text>
      ) : (
        <Text size="sm" c="dimmed" data-testid="tier-none">
          No level yet.
        </Text>
      )}
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Title order={4} fz="sm" mb={6}>
            History
          </Title>
          <History externalId={externalId} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Title order={4} fz="sm" mb={6}>
            Set level
          </Title>
          {programme.data ? (
            <SetLevelForm
              externalId={externalId}
              programme={programme.data}
              current={tier?.key ?? null}
              onDone={onChanged}
            />
          ) : (
            <Text size="sm" c="dimmed">
              No tier programme runs: there is no level to set.
            </Text>
          )}
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
