import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../../../src/trpc/router.ts';
import { parseJsonField, prettyJson } from '../../lib/json-logic.ts';

type Outputs = inferRouterOutputs<AppRouter>;
export type Badge = Outputs['achievements']['badges']['data'][number];
export type Criteria = NonNullable<Badge['criteria']>;
export type Aggregate = Criteria['aggregate'];
export type Achievement = Outputs['achievements']['participant']['data'][number];
export type DefineBadge = Omit<inferRouterInputs<AppRouter>['achievements']['define'], 'mode'>;

export const ALL_TIME = 'all_time';

/** The labels of the router's enum, as a `Record` over its type: a value the service adds fails to compile here. */
export const AGGREGATES: Record<Aggregate, { label: string; hint: string }> = {
  count: { label: 'Count events', hint: 'How many matching events.' },
  sum: { label: 'Sum a field', hint: 'The total of a numeric payload field (non-numbers count 0).' },
};

/** The badge form: every input as typed; numbers may be blank. */
export interface BadgeForm {
  key: string;
  name: string;
  description: string;
  imageUrl: string;
  tiers: string[];
  /** False: flows award it, nothing else (no criteria). */
  achievement: boolean;
  eventType: string;
  aggregate: Aggregate;
  field: string;
  /** `all_time`, or a window as long as `duration`. */
  windowKind: 'all_time' | 'duration';
  duration: string;
  target: number | '';
  where: string;
  /** The tier awarded; null: the badge without a tier. */
  tier: string | null;
}

export function toForm(b: Badge | null): BadgeForm {
  const c = b?.criteria ?? null;
  return {
    key: b?.key ?? '',
    name: b?.name ?? '',
    description: b?.description ?? '',
    imageUrl: b?.image_url ?? '',
    tiers: b ? [...b.tiers] : [],
    achievement: b ? c !== null : true,
    eventType: c?.event_type ?? '',
    aggregate: c?.aggregate ?? 'count',
    field: c?.field ?? '',
    windowKind: c && c.window !== ALL_TIME ? 'duration' : 'all_time',
    duration: c && c.window !== ALL_TIME ? c.window : '',
    target: c?.target ?? '',
    where: c?.where === null || c?.where === undefined ? '' : prettyJson(c.where),
    tier: c?.tier ?? null,
  };
}

/**
 * The form as `achievements.define` takes it, or the form's own errors (the `where` JSON that does
 * not parse) by the service's field names. Blanks go as the service should see them: an empty
 * description or image is null, a blank target NaN (refused on its field), a blank field absent.
 */
export function toBody(f: BadgeForm): { body: DefineBadge; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const where = parseJsonField(f.where, { allowBlank: true, expect: 'object' });
  if (!where.ok) errors['criteria.where'] = where.error;
  const criteria: DefineBadge['criteria'] = f.achievement
    ? {
        event_type: f.eventType.trim(),
        aggregate: f.aggregate,
        // A blank field is absent: the service then says a sum needs one.
        ...(f.aggregate === 'sum' && f.field.trim() ? { field: f.field.trim() } : {}),
        window: f.windowKind === 'all_time' ? ALL_TIME : f.duration.trim(),
        target: f.target === '' ? Number.NaN : f.target,
        ...(where.ok && where.value !== null ? { where: where.value } : {}),
        ...(f.tier ? { tier: f.tier } : {}),
      }
    : null;
  return {
    body: {
      key: f.key.trim(),
      name: f.name,
      description: f.description.trim() || null,
      image_url: f.imageUrl.trim() || null,
      tiers: f.tiers,
      criteria,
    },
    errors,
  };
}

/** A number as the summary shows it: 1234.5 → "1,234.5". */
const num = (n: number) => new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }).format(n);

/** The criteria in one line: "10 × order.completed, all time", "Σ amount ≥ 500 of purchase in P30D where …, tier gold". */
export function describeCriteria(c: Criteria): string {
  const what =
    c.aggregate === 'count'
      ? `${num(c.target)} × ${c.event_type}`
      : `Σ ${c.field ?? '?'} ≥ ${num(c.target)} of ${c.event_type}`;
  const window = c.window === ALL_TIME ? ', all time' : ` in ${c.window}`;
  const where = c.where === null || c.where === undefined ? '' : ` where ${JSON.stringify(c.where)}`;
  const tier = c.tier ? `, tier ${c.tier}` : '';
  return `${what}${window}${where}${tier}`;
}

/** A 0–100 share with at most two decimals: 12.5 → "12.5%". */
export const formatShare = (percent: number) => `${Number(percent.toFixed(2))}%`;

/** The service's field names each input of the form shows errors for (a `where` error may go deeper). */
export const FORM_FIELDS = [
  'key',
  'name',
  'description',
  'image_url',
  'tiers',
  'criteria',
  'criteria.event_type',
  'criteria.aggregate',
  'criteria.field',
  'criteria.window',
  'criteria.target',
  'criteria.where',
  'criteria.tier',
];

/** The input a service field error belongs on: `criteria.where.and.0` → `criteria.where`, `tiers.2` → `tiers`. */
export function inputOf(field: string): string | null {
  if (field.startsWith('criteria.where')) return 'criteria.where';
  if (/^tiers\.\d+$/.test(field)) return 'tiers';
  return FORM_FIELDS.includes(field) ? field : null;
}
