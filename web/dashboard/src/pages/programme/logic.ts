import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../../../src/trpc/router.ts';

export type Program = inferRouterOutputs<AppRouter>['points']['program'];
type UpdateInput = inferRouterInputs<AppRouter>['points']['updateProgram'];
export type ProgramPatch = Omit<UpdateInput, 'mode'>;
type Expiry = NonNullable<Program['points_expiry']>;
export type RoundTo = Expiry['round_to'];
export type CapPeriod = Program['earning_caps'][number]['period'];
export type ExpiryChoice = 'off' | Expiry['mode'];

/**
 * The labels of the router's enums, as `Record`s over its types: a value the service adds fails
 * to compile here until it is named.
 */
export const EXPIRY_CHOICES: Record<ExpiryChoice, { label: string; hint: string }> = {
  off: { label: 'Never', hint: 'Points never expire.' },
  fixed: {
    label: 'Fixed',
    hint: 'Each credit expires a set time after it was earned, optionally rounded up.',
  },
  activity: {
    label: 'Inactivity',
    hint: 'All unspent points expire a set time after the last points earned (flows and positive adjustments).',
  },
};

export const ROUND_TO_LABELS: Record<RoundTo, string> = {
  none: 'No rounding',
  day: 'End of the day',
  month: 'End of the month',
  quarter: 'End of the quarter',
  year: 'End of the year',
};

export const CAP_PERIOD_LABELS: Record<CapPeriod, string> = {
  day: 'Per day',
  week: 'Per week (from Monday)',
  month: 'Per month',
  year: 'Per year',
};

export const CAP_PERIODS = Object.keys(CAP_PERIOD_LABELS) as CapPeriod[];

/** What the form edits: text as typed, the expiry flattened, caps with an amount that may be blank. */
export interface ProgramForm {
  timezone: string;
  expiry: ExpiryChoice;
  after: string;
  round_to: RoundTo;
  expiry_notice: string;
  pending_for: string;
  caps: { period: CapPeriod; max_points: number | '' }[];
}

export function toForm(p: Program): ProgramForm {
  return {
    timezone: p.timezone,
    expiry: p.points_expiry?.mode ?? 'off',
    after: p.points_expiry?.after ?? '',
    round_to: p.points_expiry?.round_to ?? 'none',
    expiry_notice: p.expiry_notice,
    pending_for: p.pending_for ?? '',
    caps: p.earning_caps.map((c) => ({ ...c })),
  };
}

/**
 * The settings the form stands for, as the service takes them. Nothing is checked here: a blank
 * or malformed duration is sent as typed, so the service's own message shows beside the field.
 * Rounding applies to fixed expiry only, so inactivity expiry is sent without it.
 */
export function fromForm(f: ProgramForm): Required<ProgramPatch> {
  return {
    timezone: f.timezone,
    points_expiry:
      f.expiry === 'off'
        ? null
        : { mode: f.expiry, after: f.after.trim(), round_to: f.expiry === 'fixed' ? f.round_to : 'none' },
    expiry_notice: f.expiry_notice.trim(),
    pending_for: f.pending_for.trim() || null,
    earning_caps: f.caps.map((c) => ({
      period: c.period,
      // Blank is 0, which the service refuses on this cap's amount field.
      max_points: c.max_points === '' ? 0 : c.max_points,
    })),
  };
}

/**
 * Only the settings that differ from what is stored (the PATCH replaces the fields it is given
 * and keeps the others). Both sides go through the form, so a stored value the form shows the
 * same way (inactivity expiry's unused rounding) is no change.
 */
export function changedSettings(stored: Program, f: ProgramForm): ProgramPatch {
  const before = fromForm(toForm(stored));
  const after = fromForm(f);
  const patch: Record<string, unknown> = {};
  for (const key of Object.keys(after) as (keyof typeof after)[])
    if (JSON.stringify(after[key]) !== JSON.stringify(before[key])) patch[key] = after[key];
  return patch as ProgramPatch;
}

/** The next period without a cap, for "Add cap"; null when every period has one. */
export const nextFreePeriod = (caps: ProgramForm['caps']): CapPeriod | null =>
  CAP_PERIODS.find((p) => !caps.some((c) => c.period === p)) ?? null;

/**
 * The IANA time zones this browser knows, with the stored one and `UTC` kept in the list even
 * where the browser leaves them out (Chromium lists canonical zones only, without `UTC`).
 */
export function timeZones(current: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set(['UTC', current, ...known])].sort((a, b) =>
    a === 'UTC' ? -1 : b === 'UTC' ? 1 : a.localeCompare(b),
  );
}
