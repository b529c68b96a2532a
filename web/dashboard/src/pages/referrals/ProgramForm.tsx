import {
  Alert,
  Autocomplete,
  Button,
  Grid,
  Group,
  NumberInput,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { durationHint } from '../../components/durationHint.tsx';
import { FormSection } from '../../components/FormSection.tsx';
import { fieldErrorOf, notifyUnlessShown } from '../../components/formErrors.ts';
import { QueryState } from '../../components/QueryState.tsx';
import { useEventTypeSuggestions } from '../../components/useEventTypes.ts';
import { useMode } from '../../mode.tsx';
import { notifySuccess } from '../../notify.ts';
import { useTRPC } from '../../trpc.ts';
import { alertTone } from '../rewards/tone.ts';
import { ActionsTable } from './ActionsTable.tsx';
import {
  describeProgram,
  fromForm,
  LIMIT_PERIOD_LABELS,
  type LimitPeriod,
  type Program,
  type ProgramForm,
  sameProgram,
  shownFields,
  toForm,
} from './logic.ts';

/**
 * The programme's form over what is stored (or a new one): qualification, the two sides' actions,
 * the advocate's limit and the switch. Saving replaces the programme whole; the service checks it
 * and its field errors show beside the inputs.
 */
function ProgramEditor({ stored }: { stored: Program | null }) {
  const trpc = useTRPC();
  const { mode } = useMode();
  const queryClient = useQueryClient();
  const eventTypes = useEventTypeSuggestions();
  const badges = useQuery(trpc.flows.badges.queryOptions({ mode }, { staleTime: 60_000 }));
  const badgeKeys = [...new Set((badges.data?.data ?? []).map((b) => b.key))];
  const [form, setForm] = useState<ProgramForm>(() => toForm(stored));
  const set = <K extends keyof ProgramForm>(key: K, value: ProgramForm[K]) =>
    setForm((old) => ({ ...old, [key]: value }));
  const unchanged = sameProgram(stored, form);

  const save = useMutation(
    trpc.referrals.program.put.mutationOptions({
      onSuccess: (saved) => {
        queryClient.setQueryData(trpc.referrals.program.get.queryKey({ mode }), saved);
        // A badge an action named may have been created.
        queryClient.invalidateQueries({ queryKey: trpc.flows.badges.pathKey() });
        setForm(toForm(saved));
        notifySuccess(stored ? 'Referral programme saved' : 'Referral programme set up');
      },
      onError: (error) => notifyUnlessShown(error, shownFields(form)),
    }),
  );
  const err = (field: string) => fieldErrorOf(save.error, field);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ mode, ...fromForm(form) });
  };

  return (
    <form onSubmit={submit} aria-label="Referral programme" noValidate>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="lg">
            <FormSection
              title="Qualification"
              description="A friend joins with an advocate’s code; their referral qualifies on their first event of this type within the window."
            >
              <Autocomplete
                label="Qualifying event type"
                placeholder="e.g. order.completed"
                withAsterisk
                data={eventTypes}
                value={form.qualifying_event_type}
                onChange={(v) => set('qualifying_event_type', v)}
                error={err('qualifying_event_type')}
              />
              <TextInput
                label="Qualify within"
                description={durationHint([['P30D', '30 days']], '; after it a pending referral expires')}
                placeholder="P30D"
                withAsterisk
                value={form.qualify_within}
                onChange={(e) => set('qualify_within', e.currentTarget.value)}
                error={err('qualify_within')}
              />
              <TextInput
                label="Hold"
                description={durationHint(
                  [
                    ['P14D', '14 days'],
                    ['PT0S', 'none'],
                  ],
                  '; the advocate’s points stay pending meanwhile, and a cancel claws them back',
                )}
                placeholder="P14D"
                withAsterisk
                value={form.hold}
                onChange={(e) => set('hold', e.currentTarget.value)}
                error={err('hold')}
              />
            </FormSection>
            <FormSection
              title="Advocate limit"
              description="The most referrals an advocate can make per calendar period (in the programme’s time zone); more are blocked."
            >
              <Switch
                label="Limit referrals per advocate"
                checked={form.limited}
                onChange={(e) => set('limited', e.currentTarget.checked)}
              />
              {form.limited && (
                <Group align="flex-start" grow>
                  <Select
                    label="Period"
                    data={(Object.keys(LIMIT_PERIOD_LABELS) as LimitPeriod[]).map((p) => ({
                      value: p,
                      label: LIMIT_PERIOD_LABELS[p],
                    }))}
                    value={form.limit_period}
                    allowDeselect={false}
                    onChange={(v) => v && set('limit_period', v as LimitPeriod)}
                    error={err('advocate_limit.period')}
                  />
                  <NumberInput
                    label="Most referrals"
                    min={1}
                    allowDecimal={false}
                    allowNegative={false}
                    withAsterisk
                    value={form.limit_max}
                    onChange={(n) => set('limit_max', typeof n === 'number' ? n : '')}
                    error={err('advocate_limit.max') ?? err('advocate_limit')}
                  />
                </Group>
              )}
            </FormSection>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="lg">
            <FormSection title="Friend’s reward" description="Given at once when their referral qualifies.">
              <ActionsTable
                list="friend_actions"
                who="Friend"
                rows={form.friend_actions}
                onChange={(rows) => set('friend_actions', rows)}
                err={err}
                badges={badgeKeys}
              />
            </FormSection>
            <FormSection
              title="Advocate’s reward"
              description="Points are pending from qualification until the hold ends, then available; badges are awarded when the hold ends."
            >
              <ActionsTable
                list="advocate_actions"
                who="Advocate"
                rows={form.advocate_actions}
                onChange={(rows) => set('advocate_actions', rows)}
                err={err}
                badges={badgeKeys}
              />
              <Text size="xs" c="dimmed">
                A badge key the catalogue does not hold yet is created with the programme.
              </Text>
            </FormSection>
            <FormSection title="Status">
              <Switch
                label="Active"
                description="Off: codes attribute nothing; referrals already made go on."
                checked={form.active}
                onChange={(e) => set('active', e.currentTarget.checked)}
                error={err('active')}
              />
            </FormSection>
            <Group justify="flex-end">
              <Button
                variant="default"
                disabled={unchanged || save.isPending}
                onClick={() => {
                  setForm(toForm(stored));
                  save.reset();
                }}
              >
                Discard changes
              </Button>
              <Button type="submit" disabled={unchanged} loading={save.isPending}>
                {stored ? 'Save programme' : 'Set up programme'}
              </Button>
            </Group>
          </Stack>
        </Grid.Col>
      </Grid>
    </form>
  );
}

/** The Programme tab: what runs in this mode, or that nothing does yet, and the form. */
export function ProgramTab() {
  const trpc = useTRPC();
  const { mode } = useMode();
  const program = useQuery(trpc.referrals.program.get.queryOptions({ mode }));
  return (
    <QueryState query={program}>
      {(p) => (
        <Stack gap="lg">
          {p ? (
            <Alert
              {...alertTone(p.active ? 'teal' : 'gray')}
              title={
                p.active
                  ? `A referral programme runs in ${mode} mode`
                  : `The referral programme of ${mode} mode is paused`
              }
              data-testid="program-summary"
            >
              {describeProgram(p)}
            </Alert>
          ) : (
            <Alert
              {...alertTone('indigo')}
              title={`No referral programme in ${mode} mode yet`}
              data-testid="no-program"
            >
              Set one up below: which event qualifies a friend, what the friend and the advocate get, and how
              long the advocate’s points are held.
            </Alert>
          )}
          <ProgramEditor key={mode} stored={p} />
        </Stack>
      )}
    </QueryState>
  );
}
