import {
  Button,
  Group,
  NumberInput,
  SegmentedControl,
  SimpleGrid,
  Stack,
  TagsInput,
  Text,
  TextInput,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { fieldErrorOf, notifyUnlessShown } from '../../components/formErrors.ts';
import { useEventTypeSuggestions } from '../../components/useEventTypes.ts';
import { useMode } from '../../mode.tsx';
import { notifySuccess } from '../../notify.ts';
import { useTRPC } from '../../trpc.ts';
import {
  createBody,
  type StreakForm as Form,
  FREQUENCIES,
  type Frequency,
  type Streak,
  toForm,
  updateBody,
} from './logic.ts';

const FIELDS = [
  'key',
  'name',
  'event_types',
  'frequency',
  'freezes',
  'freezes.initial',
  'freezes.max',
  'freezes.earn_every',
];

/**
 * A streak's definition: a new one (key and frequency chosen once) or a change of a stored one
 * (name, event types, freezes). The service checks it; its field errors show beside the inputs.
 */
export function StreakForm({ stored, onDone }: { stored: Streak | null; onDone: () => void }) {
  const trpc = useTRPC();
  const { mode } = useMode();
  const queryClient = useQueryClient();
  const suggestions = useEventTypeSuggestions();
  const [form, setForm] = useState<Form>(() => toForm(stored));
  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((old) => ({ ...old, [key]: value }));
  const saved = (s: Streak, verb: string) => {
    notifySuccess(`Streak “${s.name}” ${verb}`);
    queryClient.invalidateQueries({ queryKey: trpc.streaks.pathKey() });
    onDone();
  };
  const create = useMutation(
    trpc.streaks.create.mutationOptions({
      onSuccess: (s) => saved(s, 'created'),
      onError: (error) => notifyUnlessShown(error, FIELDS),
    }),
  );
  const update = useMutation(
    trpc.streaks.update.mutationOptions({
      onSuccess: (s) => saved(s, 'saved'),
      onError: (error) => notifyUnlessShown(error, FIELDS),
    }),
  );
  const failed = stored ? update.error : create.error;
  const err = (field: string) => fieldErrorOf(failed, field);
  // An event type's own error (`event_types.2`) shows on the one input that lists them.
  const typesError =
    err('event_types') ?? form.eventTypes.map((_, i) => err(`event_types.${i}`)).find((m) => m !== undefined);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (stored) update.mutate({ mode, key: stored.key, ...updateBody(form) });
    else create.mutate({ mode, ...createBody(form) });
  };
  const numberInput = (
    field: 'freezesInitial' | 'freezesMax' | 'earnEvery',
    label: string,
    description: string,
    name: string,
    max: number,
  ) => (
    <NumberInput
      label={label}
      description={description}
      allowDecimal={false}
      allowNegative={false}
      min={field === 'earnEvery' ? 1 : 0}
      max={max}
      value={form[field]}
      onChange={(v) => set(field, typeof v === 'number' ? v : v === '' ? '' : Number(v))}
      error={err(name)}
      placeholder={field === 'earnEvery' ? 'Never' : undefined}
    />
  );
  return (
    <form onSubmit={submit} aria-label={stored ? `Edit streak ${stored.key}` : 'New streak'} noValidate>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label="Key"
            description={stored ? 'Fixed once created' : 'Used by the API and in flow conditions'}
            placeholder="daily-workout"
            withAsterisk={!stored}
            disabled={!!stored}
            value={form.key}
            onChange={(e) => set('key', e.currentTarget.value)}
            error={err('key')}
          />
          <TextInput
            label="Name"
            description="Shown to operators and participants"
            placeholder="Daily workout"
            withAsterisk
            value={form.name}
            onChange={(e) => set('name', e.currentTarget.value)}
            error={err('name')}
          />
        </SimpleGrid>
        <TagsInput
          label="Event types"
          description="An event of any of these types extends the streak, once per period. Press Enter after each."
          placeholder={form.eventTypes.length ? undefined : 'workout.completed'}
          withAsterisk
          data={suggestions}
          value={form.eventTypes}
          onChange={(v) => set('eventTypes', v)}
          error={typesError}
          splitChars={[',', ' ']}
          clearable
        />
        <Stack gap={4}>
          <Text size="sm" fw={500} id="streak-frequency-label">
            Frequency
            {!stored && (
              <span aria-hidden="true" style={{ color: 'var(--mantine-color-error)' }}>
                {' '}
                *
              </span>
            )}
          </Text>
          <SegmentedControl
            aria-labelledby="streak-frequency-label"
            disabled={!!stored}
            value={form.frequency}
            onChange={(v) => set('frequency', v as Frequency)}
            data={(Object.keys(FREQUENCIES) as Frequency[]).map((f) => ({
              value: f,
              label: FREQUENCIES[f].label,
            }))}
            w="fit-content"
          />
          <Text
            size="xs"
            c={err('frequency') ? 'red.9' : 'dimmed'}
            role={err('frequency') ? 'alert' : undefined}
          >
            {err('frequency') ??
              (stored
                ? 'Fixed once created (periods would change meaning): archive this streak and define another.'
                : FREQUENCIES[form.frequency].hint)}
          </Text>
        </Stack>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {numberInput('freezesInitial', 'Freezes to start with', '0 to 10', 'freezes.initial', 10)}
          {numberInput('freezesMax', 'Most freezes held', '0 to 10; 0: no freezes', 'freezes.max', 10)}
          {numberInput(
            'earnEvery',
            'Earn a freeze every',
            `extended ${FREQUENCIES[form.frequency].period}s; blank: never`,
            'freezes.earn_every',
            1000,
          )}
        </SimpleGrid>
        {err('freezes') && (
          <Text size="sm" c="red.9" role="alert">
            {err('freezes')}
          </Text>
        )}
        <Text size="xs" c="dimmed">
          A freeze covers one missed period: the streak stays alive without growing. Freezes are used
          automatically, one per missed period.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending || update.isPending}>
            {stored ? 'Save streak' : 'Create streak'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
