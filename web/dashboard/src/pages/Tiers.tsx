import { Alert, Button, Code, Grid, Group, Radio, Select, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ConfirmButton } from '../components/ConfirmButton.tsx';
import { FormSection } from '../components/FormSection.tsx';
import { fieldErrorOf, notifyUnlessShown } from '../components/formErrors.ts';
import { PageHeader } from '../components/PageHeader.tsx';
import { QueryState } from '../components/QueryState.tsx';
import { useMode } from '../mode.tsx';
import { notifyError, notifySuccess } from '../notify.ts';
import { useTRPC } from '../trpc.ts';
import { alertTone } from './rewards/tone.ts';
import { LevelsTable, MAX_LEVELS } from './tiers/LevelsTable.tsx';
import {
  addLevel,
  type DowngradePolicy,
  describeProgramme,
  fromForm,
  PERIOD_LABELS,
  POLICIES,
  type Programme,
  sameProgramme,
  type TierPeriod,
  type TiersForm,
  type TierWindow,
  toForm,
  WINDOWS,
} from './tiers/logic.ts';
import { PreviewResult } from './tiers/PreviewResult.tsx';

const FIELDS = [
  'qualification',
  'qualification.window',
  'qualification.duration',
  'qualification.period',
  'downgrade',
  'downgrade.policy',
  'downgrade.grace',
  'levels',
];
const LEVEL_FIELDS = ['key', 'name', 'threshold', 'earn_multiplier', 'description'];

/** An ISO 8601 duration's hint: `examples` as code, then `rest`. */
const durationHint = (examples: [string, string][], rest = '') => (
  <>
    ISO 8601, e.g.{' '}
    {examples.map(([code, meaning], i) => (
      <span key={code}>
        {i > 0 && ', '}
        <Code fz="inherit">{code}</Code> ({meaning})
      </span>
    ))}
    {rest}
  </>
);

/**
 * The programme's form over what runs (or a new one): levels, window, downgrades. "Preview change"
 * sends the form to `tiers.preview`, which checks it as the save would (its field errors show
 * beside the inputs) and answers who would be where; "Save programme" then saves exactly what was
 * previewed. Editing the form after a preview asks for a new one.
 */
function TiersEditor({ stored }: { stored: Programme | null }) {
  const trpc = useTRPC();
  const { mode } = useMode();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<TiersForm>(() => toForm(stored));
  const set = <K extends keyof TiersForm>(key: K, value: TiersForm[K]) =>
    setForm((old) => ({ ...old, [key]: value }));
  const input = { mode, ...fromForm(form) };
  const unchanged = sameProgramme(stored, form);
  const shownFields = [
    ...FIELDS,
    ...form.levels.flatMap((_, i) => LEVEL_FIELDS.map((f) => `levels.${i}.${f}`)),
  ];

  const preview = useMutation(
    trpc.tiers.preview.mutationOptions({ onError: (error) => notifyUnlessShown(error, shownFields) }),
  );
  const save = useMutation(
    trpc.tiers.put.mutationOptions({
      onSuccess: (saved) => {
        queryClient.setQueryData(trpc.tiers.get.queryKey({ mode }), saved);
        setForm(toForm(saved));
        preview.reset();
        notifySuccess('Tier programme saved: participants who qualify move up at once');
      },
      onError: (error) => notifyUnlessShown(error, shownFields),
    }),
  );
  // The preview stands for the form only while the form is what was previewed.
  const previewed =
    preview.data && JSON.stringify(preview.variables) === JSON.stringify(input) ? preview.data : null;
  const failed = save.error ?? preview.error;
  const err = (field: string) => fieldErrorOf(failed, field);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.reset();
    preview.mutate(input);
  };
  const discard = () => {
    setForm(toForm(stored));
    preview.reset();
    save.reset();
  };
  const lifetimeKeeps = form.window === 'lifetime' && form.policy !== 'none';

  return (
    <form onSubmit={submit} aria-label="Tier programme" noValidate>
      <Grid gap="lg">
        <Grid.Col span={12}>
          <FormSection
            title="Levels"
            description="In threshold order. Everyone starts at the first level (threshold 0) and reaches a level when their qualifying points reach its threshold: what they earned in the window from flows and positive adjustments, less reversals (never redemptions, expiry or pending points)."
          >
            <LevelsTable levels={form.levels} onChange={(levels) => set('levels', levels)} err={err} />
            {err('levels') && (
              <Text size="sm" c="red.9" role="alert">
                {err('levels')}
              </Text>
            )}
            <Group>
              <Button
                variant="default"
                disabled={form.levels.length >= MAX_LEVELS}
                onClick={() => set('levels', addLevel(form.levels))}
              >
                Add level
              </Button>
              <Text size="xs" c="dimmed">
                The earn multiplier (×1 to ×10) multiplies flow awards at that level.
              </Text>
            </Group>
          </FormSection>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <FormSection title="Qualification window" description="Which earned points count towards a level.">
            <Radio.Group
              label="Window"
              value={form.window}
              onChange={(v) => set('window', v as TierWindow)}
              error={err('qualification') ?? err('qualification.window')}
            >
              <Stack gap="xs" mt={6}>
                {(Object.keys(WINDOWS) as TierWindow[]).map((w) => (
                  <Radio key={w} value={w} label={WINDOWS[w].label} description={WINDOWS[w].hint} />
                ))}
              </Stack>
            </Radio.Group>
            {form.window === 'rolling' && (
              <TextInput
                label="Window length"
                description={durationHint([
                  ['P12M', '12 months'],
                  ['P90D', '90 days'],
                ])}
                placeholder="P12M"
                required
                value={form.duration}
                onChange={(e) => set('duration', e.currentTarget.value)}
                error={err('qualification.duration')}
              />
            )}
            {form.window === 'calendar' && (
              <Select
                label="Period"
                description="Levels are reviewed when a period ends."
                data={(Object.keys(PERIOD_LABELS) as TierPeriod[]).map((p) => ({
                  value: p,
                  label: PERIOD_LABELS[p],
                }))}
                value={form.period}
                allowDeselect={false}
                onChange={(v) => v && set('period', v as TierPeriod)}
                error={err('qualification.period')}
              />
            )}
          </FormSection>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <FormSection
            title="Downgrades"
            description="What happens to a participant whose qualifying points fall below their level’s threshold."
          >
            <Radio.Group
              label="Policy"
              value={form.policy}
              onChange={(v) => set('policy', v as DowngradePolicy)}
              error={err('downgrade') ?? err('downgrade.policy')}
            >
              <Stack gap="xs" mt={6}>
                {(Object.keys(POLICIES) as DowngradePolicy[]).map((p) => (
                  <Radio key={p} value={p} label={POLICIES[p].label} description={POLICIES[p].hint} />
                ))}
              </Stack>
            </Radio.Group>
            {form.policy !== 'none' && (
              <TextInput
                label="Grace"
                description={durationHint(
                  [['P30D', '30 days']],
                  '; how long they keep the level first. Empty: none',
                )}
                placeholder="None"
                value={form.grace}
                onChange={(e) => set('grace', e.currentTarget.value)}
                error={err('downgrade.grace')}
              />
            )}
            {lifetimeKeeps && (
              <Text size="xs" c="dimmed">
                With a lifetime window qualifying points never fall, so nobody is downgraded.
              </Text>
            )}
          </FormSection>
        </Grid.Col>
        <Grid.Col span={12}>
          <FormSection
            title="Preview and save"
            description="See who would move before anything changes. Saving moves everyone who qualifies up at once; downgrades wait for the next evaluation."
          >
            {previewed ? (
              <PreviewResult
                preview={previewed}
                proposed={input.levels.map((l) => ({ key: l.key, name: l.name }))}
                running={stored}
              />
            ) : (
              <Text size="sm" c="dimmed" data-testid="preview-hint">
                {unchanged
                  ? 'The form is the running programme: change it to preview a change.'
                  : 'Preview the change to see the participants per level now and after it, and who moves.'}
              </Text>
            )}
            <Group justify="flex-end">
              <Button
                variant="default"
                disabled={(unchanged && stored !== null) || preview.isPending || save.isPending}
                onClick={discard}
              >
                Discard changes
              </Button>
              <Button
                type="submit"
                variant={previewed ? 'default' : 'filled'}
                disabled={unchanged}
                loading={preview.isPending}
              >
                Preview change
              </Button>
              <Button
                disabled={!previewed}
                loading={save.isPending}
                onClick={() => preview.variables && save.mutate(preview.variables)}
              >
                Save programme
              </Button>
            </Group>
          </FormSection>
        </Grid.Col>
      </Grid>
    </form>
  );
}

/** Tiers (docs/dashboard.md#pages): the running tier programme of this mode, its change with a preview, its end. */
export default function Tiers() {
  const trpc = useTRPC();
  const { mode } = useMode();
  const queryClient = useQueryClient();
  const tiers = useQuery(trpc.tiers.get.queryOptions({ mode }));
  const end = useMutation(
    trpc.tiers.delete.mutationOptions({
      onSuccess: () => {
        queryClient.setQueryData(trpc.tiers.get.queryKey({ mode }), null);
        notifySuccess('Tier programme ended: every participant loses their level');
      },
      onError: notifyError,
    }),
  );
  return (
    <>
      <PageHeader
        title="Tiers"
        description={`Levels participants reach by the points they earn, in ${mode} mode.`}
        actions={
          tiers.data && (
            <ConfirmButton
              variant="outline"
              color="red.9"
              title="End the tier programme?"
              message={`Every participant in ${mode} mode loses their level, recorded in their tier history as a programme change.`}
              confirmLabel="End programme"
              loading={end.isPending}
              onConfirm={() => end.mutate({ mode })}
            >
              End programme
            </ConfirmButton>
          )
        }
      />
      <QueryState query={tiers}>
        {(p) => (
          <Stack gap="lg">
            {p ? (
              <Alert
                {...alertTone('teal')}
                title={`A tier programme runs in ${mode} mode`}
                data-testid="running"
              >
                {describeProgramme(p)}
              </Alert>
            ) : (
              <Alert {...alertTone('indigo')} title={`No tier programme runs in ${mode} mode`}>
                Define the levels, the window and the downgrades below, preview who would reach each level,
                then save to start it.
              </Alert>
            )}
            <TiersEditor key={`${mode}:${p ? 'running' : 'none'}`} stored={p} />
          </Stack>
        )}
      </QueryState>
    </>
  );
}
