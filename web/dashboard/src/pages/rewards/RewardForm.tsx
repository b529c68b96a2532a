import {
  Alert,
  Button,
  Grid,
  Group,
  JsonInput,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { FormSection } from '../../components/FormSection.tsx';
import { useMode } from '../../mode.tsx';
import { describeError, useTRPC } from '../../trpc.ts';
import {
  HTTP_METHODS,
  hasPool,
  hasUnitStock,
  minTierOptions,
  REWARD_TYPES,
  type RewardFormValues,
  type RewardType,
} from './reward-form.ts';
import { alertTone } from './tone.ts';

export type FormErrors = Partial<Record<keyof RewardFormValues | string, string>>;

/** Service field errors (`config.endpoint_url`, `cost_points`) by form field. */
export function fieldErrorsOf(error: unknown): FormErrors {
  const out: FormErrors = {};
  for (const f of describeError(error).fields) {
    const [first, second] = f.field.split('.');
    const key = first === 'config' && second ? second : (first ?? f.field);
    out[key] ??= f.message;
  }
  return out;
}

/**
 * The reward editor: common fields, then the fields of the chosen type (the type is fixed once
 * saved). `extra` renders under the type's settings (the edit page's "Test endpoint").
 */
export function RewardForm({
  initial,
  creating,
  submitting,
  errors,
  onSubmit,
  onCancel,
  extra,
}: {
  initial: RewardFormValues;
  creating: boolean;
  submitting: boolean;
  errors: FormErrors;
  onSubmit: (values: RewardFormValues) => void;
  onCancel: () => void;
  extra?: (values: RewardFormValues) => ReactNode;
}) {
  const [v, setV] = useState(initial);
  const set = <K extends keyof RewardFormValues>(key: K, value: RewardFormValues[K]) =>
    setV((old) => ({ ...old, [key]: value }));
  const type = REWARD_TYPES.find((t) => t.value === v.type);
  const unknownErrors = Object.entries(errors).filter(
    ([k]) => !(k in v) && k !== '(input)' && k !== 'config',
  );
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit(v);
      }}
      aria-label={creating ? 'New reward' : 'Edit reward'}
    >
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="lg">
            <FormSection title="Details">
              <TextInput
                label="Name"
                required
                value={v.name}
                onChange={(e) => set('name', e.currentTarget.value)}
                error={errors.name}
                description="Unique per workspace and mode."
              />
              <TextInput
                label="Subtitle"
                value={v.subtitle}
                onChange={(e) => set('subtitle', e.currentTarget.value)}
                error={errors.subtitle}
              />
              <Textarea
                label="Description"
                autosize
                minRows={3}
                value={v.description}
                onChange={(e) => set('description', e.currentTarget.value)}
                error={errors.description}
              />
              <TextInput
                label="Image URL"
                placeholder="https://…"
                value={v.image_url}
                onChange={(e) => set('image_url', e.currentTarget.value)}
                error={errors.image_url}
              />
            </FormSection>
            <FormSection title={`${type?.label ?? 'Type'} settings`} description={type?.hint}>
              <TypeFields values={v} set={set} errors={errors} />
              {extra?.(v)}
            </FormSection>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="lg">
            <FormSection title="Type and price">
              <Select
                label="Type"
                required
                disabled={!creating}
                description={creating ? undefined : 'The type is fixed once a reward exists.'}
                data={REWARD_TYPES.map((t) => ({ value: t.value, label: t.label }))}
                value={v.type}
                allowDeselect={false}
                onChange={(value) => value && set('type', value as RewardType)}
                error={errors.type}
              />
              <NumberInput
                label="Cost (points)"
                required
                min={1}
                allowDecimal={false}
                thousandSeparator=","
                value={v.cost_points}
                onChange={(n) => set('cost_points', typeof n === 'number' ? n : '')}
                error={errors.cost_points}
              />
              {hasUnitStock(v.type) && (
                <NumberInput
                  label="Stock"
                  min={0}
                  allowDecimal={false}
                  placeholder="Unlimited"
                  description={
                    hasPool(v.type)
                      ? 'Units when no code pool is loaded; empty = unlimited.'
                      : 'Units available; empty = unlimited.'
                  }
                  value={v.stock}
                  onChange={(n) => set('stock', typeof n === 'number' ? n : '')}
                  error={errors.stock}
                />
              )}
            </FormSection>
            <FormSection title="Availability">
              <Switch
                label="Active"
                description="Inactive rewards stay out of the catalogue."
                checked={v.active}
                onChange={(e) => set('active', e.currentTarget.checked)}
              />
              <SimpleGrid cols={2}>
                <TextInput
                  type="datetime-local"
                  label="Starts at"
                  value={v.starts_at}
                  onChange={(e) => set('starts_at', e.currentTarget.value)}
                  error={errors.starts_at}
                />
                <TextInput
                  type="datetime-local"
                  label="Ends at"
                  value={v.ends_at}
                  onChange={(e) => set('ends_at', e.currentTarget.value)}
                  error={errors.ends_at}
                />
              </SimpleGrid>
              <MinTierSelect
                value={v.min_tier}
                onChange={(key) => set('min_tier', key)}
                error={errors.min_tier}
              />
            </FormSection>
            {unknownErrors.length > 0 && (
              <Alert {...alertTone('red')} title="Not saved" role="alert">
                {unknownErrors.map(([k, m]) => (
                  <Text size="sm" key={k}>
                    <b>{k}</b>: {m}
                  </Text>
                ))}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={onCancel}>
                Cancel
              </Button>
              <Button type="submit" loading={submitting}>
                {creating ? 'Create reward' : 'Save changes'}
              </Button>
            </Group>
          </Stack>
        </Grid.Col>
      </Grid>
    </form>
  );
}

/** The lowest tier level that may redeem the reward, from the running programme's levels; none: anyone. */
function MinTierSelect({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (key: string) => void;
  error?: string;
}) {
  const trpc = useTRPC();
  const { mode } = useMode();
  const tiers = useQuery(trpc.tiers.get.queryOptions({ mode }, { staleTime: 60_000 }));
  const levels = tiers.data?.levels ?? [];
  const none = tiers.isSuccess && !tiers.data;
  return (
    <Select
      label="Minimum tier"
      description={
        none
          ? 'No tier programme runs in this mode: every participant may redeem it.'
          : 'Participants below this level cannot redeem it. Empty: anyone.'
      }
      placeholder="None: anyone"
      clearable
      disabled={none && !value}
      data={minTierOptions(levels, value)}
      value={value || null}
      onChange={(key) => onChange(key ?? '')}
      error={error}
    />
  );
}

function TypeFields({
  values: v,
  set,
  errors,
}: {
  values: RewardFormValues;
  set: <K extends keyof RewardFormValues>(key: K, value: RewardFormValues[K]) => void;
  errors: FormErrors;
}) {
  switch (v.type) {
    case 'voucher_code':
      return (
        <Text size="sm">
          Nothing to set here: after saving, import codes from a file or generate a batch on the reward's
          page.
        </Text>
      );
    case 'physical':
      return (
        <Text size="sm">
          Redemptions start <b>pending</b>. Fulfil them when shipped, or cancel them to return the points, on
          the Redemptions page.
        </Text>
      );
    case 'digital_asset':
      return (
        <>
          <TextInput
            label="Asset code"
            description="Handed out when the reward has no code pool."
            value={v.asset_code}
            onChange={(e) => set('asset_code', e.currentTarget.value)}
            error={errors.asset_code}
          />
          <TextInput
            label="Asset URL"
            placeholder="https://…"
            value={v.asset_url}
            onChange={(e) => set('asset_url', e.currentTarget.value)}
            error={errors.asset_url}
          />
        </>
      );
    case 'points_multiplier':
      return (
        <SimpleGrid cols={2}>
          <NumberInput
            label="Factor"
            required
            description="More than 1, at most 10."
            min={1.01}
            max={10}
            step={0.5}
            decimalScale={2}
            value={v.factor}
            onChange={(n) => set('factor', typeof n === 'number' ? n : '')}
            error={errors.factor}
          />
          <NumberInput
            label="Duration (hours)"
            required
            description="From the redemption."
            min={1}
            max={8760}
            allowDecimal={false}
            value={v.duration_hours}
            onChange={(n) => set('duration_hours', typeof n === 'number' ? n : '')}
            error={errors.duration_hours}
          />
        </SimpleGrid>
      );
    case 'external':
      return (
        <>
          <Grid gap="sm">
            <Grid.Col span={3}>
              <Select
                label="Method"
                data={[...HTTP_METHODS]}
                value={v.method}
                allowDeselect={false}
                onChange={(m) => m && set('method', m as RewardFormValues['method'])}
              />
            </Grid.Col>
            <Grid.Col span={9}>
              <TextInput
                label="Endpoint URL"
                required
                placeholder="https://partner.example/codes"
                value={v.endpoint_url}
                onChange={(e) => set('endpoint_url', e.currentTarget.value)}
                error={errors.endpoint_url}
              />
            </Grid.Col>
          </Grid>
          <TextInput
            label="Code path"
            required
            description="Where the code is in the JSON answer, e.g. data.code or codes.0"
            value={v.code_path}
            onChange={(e) => set('code_path', e.currentTarget.value)}
            error={errors.code_path}
          />
          <JsonInput
            label="Headers"
            description="A JSON object of header name → value. Values may use tokens."
            autosize
            minRows={2}
            formatOnBlur
            value={v.headers}
            onChange={(t) => set('headers', t)}
            error={errors.headers}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
          {v.method !== 'GET' && (
            <JsonInput
              label="Body"
              description="Optional JSON object. String values may use {{participant.external_id}}, {{participant.email}}, {{participant.name}}, {{reward.name}}, {{reference}}."
              autosize
              minRows={3}
              formatOnBlur
              value={v.body}
              onChange={(t) => set('body', t)}
              error={errors.body}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            />
          )}
        </>
      );
  }
}
