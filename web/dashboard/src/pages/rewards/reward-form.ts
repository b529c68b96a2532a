import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { z } from 'zod';
import {
  createRewardInput,
  digitalAssetConfig,
  externalConfig,
  multiplierConfig,
  updateRewardInput,
} from '../../../../../src/services/rewards/reward-input.ts';
import type { AppRouter } from '../../../../../src/trpc/router.ts';
import { zodFieldErrors } from '../../components/formErrors.ts';

export type Reward = inferRouterOutputs<AppRouter>['rewards']['get'];
export type RewardType = Reward['type'];
type CreateInput = Omit<inferRouterInputs<AppRouter>['rewards']['create'], 'mode'>;
type UpdateInput = Omit<inferRouterInputs<AppRouter>['rewards']['update'], 'mode' | 'id'>;

/** The reward types, in the order the type picker lists them, with what each one hands out. */
export const REWARD_TYPES: { value: RewardType; label: string; hint: string }[] = [
  { value: 'voucher_code', label: 'Voucher code', hint: 'One code from the pool per redemption.' },
  {
    value: 'digital_asset',
    label: 'Digital asset',
    hint: 'A pool code when a pool is loaded, else the asset code or URL below.',
  },
  { value: 'physical', label: 'Physical', hint: 'Starts pending; you fulfil or cancel it here.' },
  {
    value: 'points_multiplier',
    label: 'Points multiplier',
    hint: 'Multiplies points awarded by flows for a while.',
  },
  { value: 'external', label: 'External', hint: 'The code is fetched from your endpoint at redemption.' },
];

export const typeLabel = (type: string) => REWARD_TYPES.find((t) => t.value === type)?.label ?? type;

/** Types that hold a code pool (import, generate). */
export const hasPool = (type: RewardType) => type === 'voucher_code' || type === 'digital_asset';

/** Types whose stock is counted in units (a voucher's stock is its unredeemed codes). */
export const hasUnitStock = (type: RewardType) => type !== 'voucher_code';

export const HTTP_METHODS = ['POST', 'GET', 'PUT', 'PATCH', 'DELETE'] as const;

/** The form as the user edits it: strings for text fields and JSON, '' for "not set". */
export interface RewardFormValues {
  name: string;
  type: RewardType;
  cost_points: number | '';
  subtitle: string;
  description: string;
  image_url: string;
  active: boolean;
  /** `datetime-local` values (local time, no zone). */
  starts_at: string;
  ends_at: string;
  stock: number | '';
  asset_code: string;
  asset_url: string;
  factor: number | '';
  duration_hours: number | '';
  endpoint_url: string;
  method: (typeof HTTP_METHODS)[number];
  /** JSON object of header name → value. */
  headers: string;
  /** JSON object, or '' for no body. */
  body: string;
  code_path: string;
  /** A level key of the tier programme, '' for none. */
  min_tier: string;
}

export const emptyRewardForm = (): RewardFormValues => ({
  name: '',
  type: 'voucher_code',
  cost_points: 100,
  subtitle: '',
  description: '',
  image_url: '',
  active: true,
  starts_at: '',
  ends_at: '',
  stock: '',
  asset_code: '',
  asset_url: '',
  factor: 2,
  duration_hours: 24,
  endpoint_url: '',
  method: 'POST',
  headers: '{}',
  body: '',
  code_path: '',
  min_tier: '',
});

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO timestamp as a `datetime-local` value in the browser's time zone. */
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A `datetime-local` value (browser time zone) as an ISO timestamp with offset; '' → null. */
export function fromLocalInput(value: string): string | null {
  if (!value) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const num = (v: unknown, fallback: number | '') => (typeof v === 'number' ? v : fallback);

/** A saved reward as the edit form starts. */
export function rewardToForm(r: Reward): RewardFormValues {
  const c = r.config as Record<string, unknown>;
  return {
    ...emptyRewardForm(),
    name: r.name,
    type: r.type,
    cost_points: r.cost_points,
    subtitle: r.subtitle ?? '',
    description: r.description ?? '',
    image_url: r.image_url ?? '',
    active: r.active,
    starts_at: toLocalInput(r.starts_at),
    ends_at: toLocalInput(r.ends_at),
    stock: r.stock ?? '',
    asset_code: str(c.asset_code),
    asset_url: str(c.asset_url),
    factor: num(c.factor, 2),
    duration_hours: num(c.duration_hours, 24),
    endpoint_url: str(c.endpoint_url),
    method: (HTTP_METHODS as readonly string[]).includes(str(c.method))
      ? (c.method as RewardFormValues['method'])
      : 'POST',
    headers: JSON.stringify(c.headers ?? {}, null, 2),
    body: c.body === undefined ? '' : JSON.stringify(c.body, null, 2),
    code_path: str(c.code_path),
    min_tier: r.min_tier ?? '',
  };
}

/** A JSON object typed by the user, or the problem with it (for the field's error). */
export function parseJsonObject(
  text: string,
  { optional = false } = {},
): { ok: true; value: Record<string, unknown> | undefined } | { ok: false; error: string } {
  if (text.trim() === '') return optional ? { ok: true, value: undefined } : { ok: true, value: {} };
  try {
    const value: unknown = JSON.parse(text);
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      return { ok: false, error: 'must be a JSON object' };
    return { ok: true, value: value as Record<string, unknown> };
  } catch (e) {
    return { ok: false, error: `not valid JSON: ${(e as Error).message}` };
  }
}

/** The type-specific `config` of the form; field errors (by form field) when JSON is malformed. */
export function configOf(v: RewardFormValues): {
  config: Record<string, unknown>;
  errors: Partial<Record<keyof RewardFormValues, string>>;
} {
  const errors: Partial<Record<keyof RewardFormValues, string>> = {};
  switch (v.type) {
    case 'digital_asset': {
      const config: Record<string, unknown> = {};
      if (v.asset_code.trim()) config.asset_code = v.asset_code.trim();
      if (v.asset_url.trim()) config.asset_url = v.asset_url.trim();
      return { config, errors };
    }
    case 'points_multiplier':
      return { config: { factor: v.factor, duration_hours: v.duration_hours }, errors };
    case 'external': {
      const headers = parseJsonObject(v.headers);
      const body = parseJsonObject(v.body, { optional: true });
      if (!headers.ok) errors.headers = headers.error;
      if (!body.ok) errors.body = body.error;
      const config: Record<string, unknown> = {
        endpoint_url: v.endpoint_url.trim(),
        method: v.method,
        headers: headers.ok ? headers.value : {},
        code_path: v.code_path.trim(),
      };
      if (body.ok && body.value !== undefined && v.method !== 'GET') config.body = body.value;
      return { config, errors };
    }
    default:
      return { config: {}, errors };
  }
}

const orNull = (s: string) => (s.trim() === '' ? null : s.trim());

/** The schema the service checks each type's `config` with (types without settings take `{}`). */
const CONFIG_SCHEMAS: Partial<Record<RewardType, z.ZodType>> = {
  digital_asset: digitalAssetConfig,
  points_multiplier: multiplierConfig,
  external: externalConfig,
};

/**
 * The service's own checks on the form's request (`createRewardInput` / `updateRewardInput`
 * and the type's config schema), by form field as `fieldErrorsOf` names the service's answer
 * (`config.endpoint_url` → `endpoint_url`). Malformed JSON already named on its field wins.
 */
function schemaErrors(
  schema: z.ZodType,
  input: Record<string, unknown>,
  type: RewardType,
  jsonErrors: Record<string, string>,
): Record<string, string> {
  const errors: Record<string, string> = {};
  const add = (found: Record<string, string>, prefix: string[] = []) => {
    for (const [field, message] of Object.entries(found)) {
      const [first, second] = [...prefix, ...field.split('.')];
      errors[first === 'config' && second ? second : (first ?? field)] ??= message;
    }
  };
  add(zodFieldErrors(schema, input));
  const configSchema = CONFIG_SCHEMAS[type];
  if (configSchema) add(zodFieldErrors(configSchema, input.config ?? {}), ['config']);
  return { ...errors, ...jsonErrors };
}

/** The form as `rewards.update` takes it (every field sent, so cleared fields are cleared). */
export function formToUpdate(v: RewardFormValues): { input: UpdateInput; errors: Record<string, string> } {
  const { input, errors } = updateOf(v);
  return { input, errors: schemaErrors(updateRewardInput, input, v.type, errors) };
}

function updateOf(v: RewardFormValues): { input: UpdateInput; errors: Record<string, string> } {
  const { config, errors } = configOf(v);
  return {
    errors,
    input: {
      name: v.name.trim(),
      cost_points: v.cost_points === '' ? (undefined as unknown as number) : v.cost_points,
      subtitle: orNull(v.subtitle),
      description: orNull(v.description),
      image_url: orNull(v.image_url),
      active: v.active,
      starts_at: fromLocalInput(v.starts_at),
      ends_at: fromLocalInput(v.ends_at),
      stock: hasUnitStock(v.type) && v.stock !== '' ? v.stock : null,
      config,
      min_tier: v.min_tier || null,
    },
  };
}

/** The form as `rewards.create` takes it. */
export function formToCreate(v: RewardFormValues): { input: CreateInput; errors: Record<string, string> } {
  const { input: update, errors: jsonErrors } = updateOf(v);
  const input = { ...update, name: update.name ?? '', cost_points: update.cost_points!, type: v.type };
  return { input, errors: schemaErrors(createRewardInput, input, v.type, jsonErrors) };
}

/** The Content-Type a code file is sent with: by its extension, else what the browser says. */
export function codeFileType(file: { name: string; type: string }): 'text/csv' | 'text/plain' {
  if (/\.csv$/i.test(file.name) || file.type === 'text/csv') return 'text/csv';
  return 'text/plain';
}

/** A byte count for people: 1.2 MB. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * The "Minimum tier" choices: the running programme's levels in order, and a stored level the
 * programme no longer has (so the form shows it, and the service names it when it is saved).
 */
export function minTierOptions(
  levels: readonly { key: string; name: string }[],
  current: string,
): { value: string; label: string }[] {
  const options = levels.map((l) => ({ value: l.key, label: `${l.name} (${l.key})` }));
  if (current && !levels.some((l) => l.key === current))
    options.push({ value: current, label: `${current} (not in the tier programme)` });
  return options;
}
