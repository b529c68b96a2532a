import {
  Autocomplete,
  Button,
  Code,
  Group,
  NumberInput,
  Radio,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useEventTypeSuggestions } from '../../components/useEventTypes.ts';
import { useMode } from '../../mode.tsx';
import { notifyError, notifySuccess } from '../../notify.ts';
import { describeError, useTRPC } from '../../trpc.ts';
import {
  AGGREGATES,
  type Aggregate,
  type Badge,
  type BadgeForm as Form,
  inputOf,
  toBody,
  toForm,
} from './logic.ts';

const mono = { input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } };
const WHERE_EXAMPLE = '{ ">=": [{ "var": "payload.amount" }, 50] }';

/**
 * A badge and its criteria: a new one (key chosen once) or a stored one replaced as a whole. The
 * service checks it; its field errors show beside their inputs (a `where` error with its path).
 */
export function BadgeForm({ stored, onDone }: { stored: Badge | null; onDone: () => void }) {
  const trpc = useTRPC();
  const { mode } = useMode();
  const queryClient = useQueryClient();
  const suggestions = useEventTypeSuggestions();
  const [form, setForm] = useState<Form>(() => toForm(stored));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((old) => ({ ...old, [key]: value }));
  const define = useMutation(
    trpc.achievements.define.mutationOptions({
      onSuccess: ({ badge, created }) => {
        notifySuccess(`Badge “${badge.name}” ${created ? 'created' : 'saved'}`);
        queryClient.invalidateQueries({ queryKey: trpc.achievements.pathKey() });
        queryClient.invalidateQueries({ queryKey: trpc.flows.badges.pathKey() });
        onDone();
      },
      onError: (error) => {
        const shown: Record<string, string> = {};
        let unshown = describeError(error).fields.length === 0;
        for (const f of describeError(error).fields) {
          const input = inputOf(f.field);
          if (!input) {
            unshown = true;
            continue;
          }
          const message = f.field === input ? f.message : `${f.field.slice(input.length + 1)}: ${f.message}`;
          shown[input] = shown[input] ? `${shown[input]}; ${message}` : message;
        }
        setErrors(shown);
        if (unshown) notifyError(error);
      },
    }),
  );
  const err = (field: string) => errors[field];
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const { body, errors: local } = toBody(form);
    setErrors(local);
    if (Object.keys(local).length === 0) define.mutate({ mode, ...body });
  };
  // A tier chosen before it was removed from the list is kept visible, so the service can name it.
  const tierChoices = [...new Set([...form.tiers, ...(form.tier ? [form.tier] : [])])];
  return (
    <form onSubmit={submit} aria-label={stored ? `Edit badge ${stored.key}` : 'New badge'} noValidate>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label="Key"
            description={stored ? 'Fixed once created' : 'Used by flows’ award_badge and the API'}
            placeholder="big-spender"
            withAsterisk={!stored}
            disabled={!!stored}
            value={form.key}
            onChange={(e) => set('key', e.currentTarget.value)}
            error={err('key')}
          />
          <TextInput
            label="Name"
            placeholder="Big spender"
            withAsterisk
            value={form.name}
            onChange={(e) => set('name', e.currentTarget.value)}
            error={err('name')}
          />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label="Description"
            value={form.description}
            onChange={(e) => set('description', e.currentTarget.value)}
            error={err('description')}
          />
          <TextInput
            label="Image URL"
            placeholder="https://…"
            value={form.imageUrl}
            onChange={(e) => set('imageUrl', e.currentTarget.value)}
            error={err('image_url')}
          />
        </SimpleGrid>
        <TagsInput
          label="Tiers"
          description="Optional levels of the badge (bronze, silver, …). Press Enter after each."
          value={form.tiers}
          onChange={(v) => set('tiers', v)}
          error={err('tiers')}
          splitChars={[',']}
          clearable
        />
        <Switch
          label="Award it as an achievement"
          description="When a processed event brings a participant to the target, the badge is awarded once. Off: flows award it."
          checked={form.achievement}
          onChange={(e) => set('achievement', e.currentTarget.checked)}
        />
        {form.achievement && (
          <Stack gap="sm" pl="md" style={{ borderLeft: '3px solid var(--mantine-color-indigo-2)' }}>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Autocomplete
                label="Event type"
                description="The events counted"
                placeholder="order.completed"
                withAsterisk
                data={suggestions}
                value={form.eventType}
                onChange={(v) => set('eventType', v)}
                error={err('criteria.event_type')}
              />
              <Stack gap={4}>
                <Text size="sm" fw={500} id="badge-aggregate-label">
                  Progress
                </Text>
                <SegmentedControl
                  aria-labelledby="badge-aggregate-label"
                  value={form.aggregate}
                  onChange={(v) => set('aggregate', v as Aggregate)}
                  data={(Object.keys(AGGREGATES) as Aggregate[]).map((a) => ({
                    value: a,
                    label: AGGREGATES[a].label,
                  }))}
                  w="fit-content"
                />
                <Text size="xs" c={err('criteria.aggregate') ? 'red.9' : 'dimmed'}>
                  {err('criteria.aggregate') ?? AGGREGATES[form.aggregate].hint}
                </Text>
              </Stack>
            </SimpleGrid>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              {form.aggregate === 'sum' && (
                <TextInput
                  label="Field"
                  description={
                    <>
                      A payload path: <Code fz="inherit">amount</Code>, <Code fz="inherit">order.total</Code>
                    </>
                  }
                  placeholder="amount"
                  withAsterisk
                  value={form.field}
                  onChange={(e) => set('field', e.currentTarget.value)}
                  error={err('criteria.field')}
                />
              )}
              <NumberInput
                label="Target"
                description={form.aggregate === 'count' ? 'Events needed' : 'Total needed'}
                withAsterisk
                min={0}
                allowDecimal={form.aggregate === 'sum'}
                allowNegative={false}
                thousandSeparator=","
                value={form.target}
                onChange={(v) => set('target', typeof v === 'number' ? v : v === '' ? '' : Number(v))}
                error={err('criteria.target')}
              />
            </SimpleGrid>
            <Radio.Group
              label="Window"
              value={form.windowKind}
              onChange={(v) => set('windowKind', v as Form['windowKind'])}
              error={form.windowKind === 'all_time' ? err('criteria.window') : undefined}
            >
              <Group gap="lg" mt={6}>
                <Radio value="all_time" label="All time" />
                <Radio value="duration" label="The last …" />
              </Group>
            </Radio.Group>
            {form.windowKind === 'duration' && (
              <TextInput
                label="Window length"
                description={
                  <>
                    ISO 8601, e.g. <Code fz="inherit">P30D</Code> (30 days), <Code fz="inherit">P1Y</Code> (a
                    year): only events in that long a time ending at each event count
                  </>
                }
                placeholder="P30D"
                withAsterisk
                value={form.duration}
                onChange={(e) => set('duration', e.currentTarget.value)}
                error={err('criteria.window')}
              />
            )}
            <Textarea
              label="Only events where (JSON Logic)"
              description={
                <>
                  Optional. Over <Code fz="inherit">payload.…</Code> and <Code fz="inherit">event.type</Code>,
                  e.g. <Code fz="inherit">{WHERE_EXAMPLE}</Code>
                </>
              }
              autosize
              minRows={2}
              maxRows={10}
              spellCheck={false}
              styles={mono}
              value={form.where}
              onChange={(e) => set('where', e.currentTarget.value)}
              error={err('criteria.where')}
            />
            <Select
              label="Tier awarded"
              description={form.tiers.length ? 'One of the badge’s tiers' : 'Add tiers above to award one'}
              placeholder="No tier"
              clearable
              data={tierChoices}
              value={form.tier}
              onChange={(v) => set('tier', v)}
              error={err('criteria.tier')}
            />
            {err('criteria') && (
              <Text size="sm" c="red.9" role="alert">
                {err('criteria')}
              </Text>
            )}
            <Text size="xs" c="dimmed">
              New or changed criteria apply to events processed from now on. Backfill the badge afterwards to
              award it to those who already meet them.
            </Text>
          </Stack>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={define.isPending}>
            {stored ? 'Save badge' : 'Create badge'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
