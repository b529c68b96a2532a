import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../../../src/trpc/router.ts';

type Outputs = inferRouterOutputs<AppRouter>;
type Inputs = inferRouterInputs<AppRouter>;
export type Streak = Outputs['streaks']['list']['data'][number];
export type Frequency = Streak['frequency'];
export type ParticipantStreak = Outputs['streaks']['participant']['data'][number];
export type PeriodStatus = ParticipantStreak['history'][number]['status'];
export type CreateStreak = Omit<Inputs['streaks']['create'], 'mode'>;
export type UpdateStreak = Omit<Inputs['streaks']['update'], 'mode' | 'key'>;

/**
 * The labels of the router's enums, as `Record`s over its types: a value the service adds fails
 * to compile here until it is named.
 */
export const FREQUENCIES: Record<Frequency, { label: string; period: string; hint: string }> = {
  daily: { label: 'Daily', period: 'day', hint: 'A calendar day in the participant’s time zone.' },
  weekly: { label: 'Weekly', period: 'week', hint: 'An ISO week, Monday first.' },
  monthly: { label: 'Monthly', period: 'month', hint: 'A calendar month.' },
};

/**
 * How each period of a participant's history is drawn: colour and fill together, so the three
 * outcomes differ without colour too (a solid cell, a striped one, an empty outline).
 */
export const PERIOD_STYLES: Record<
  PeriodStatus,
  { label: string; color: string; fill: 'solid' | 'stripes' | 'none' }
> = {
  extended: { label: 'extended', color: 'teal', fill: 'solid' },
  frozen: { label: 'frozen (a freeze covered it)', color: 'blue', fill: 'stripes' },
  missed: { label: 'missed', color: 'gray', fill: 'none' },
};

/** The streak form: numbers may be blank while typed. */
export interface StreakForm {
  key: string;
  name: string;
  eventTypes: string[];
  frequency: Frequency;
  freezesInitial: number | '';
  freezesMax: number | '';
  earnEvery: number | '';
}

export const toForm = (s: Streak | null): StreakForm => ({
  key: s?.key ?? '',
  name: s?.name ?? '',
  eventTypes: s ? [...s.event_types] : [],
  frequency: s?.frequency ?? 'daily',
  freezesInitial: s?.freezes.initial ?? 0,
  freezesMax: s?.freezes.max ?? 0,
  earnEvery: s?.freezes.earn_every ?? '',
});

/**
 * The form's freezes as the service reads them. A blank count is sent as NaN, so the service
 * names the field ("expected number") instead of the form guessing a value.
 */
const freezesOf = (f: StreakForm) => ({
  initial: f.freezesInitial === '' ? Number.NaN : f.freezesInitial,
  max: f.freezesMax === '' ? Number.NaN : f.freezesMax,
  ...(f.earnEvery === '' ? {} : { earn_every: f.earnEvery }),
});

/** A new streak's body. */
export const createBody = (f: StreakForm): CreateStreak => ({
  key: f.key.trim(),
  name: f.name,
  event_types: f.eventTypes,
  frequency: f.frequency,
  freezes: freezesOf(f),
});

/** A change's body: everything the form edits but the key and the frequency, which are fixed. */
export const updateBody = (f: StreakForm): UpdateStreak => ({
  name: f.name,
  event_types: f.eventTypes,
  freezes: freezesOf(f),
});

/** The freezes of a definition in a few words: "2 to start, up to 3, +1 every 7 days". */
export function describeFreezes(s: Pick<Streak, 'freezes' | 'frequency'>): string {
  const { initial, max, earn_every } = s.freezes;
  if (max === 0) return 'None';
  const period = FREQUENCIES[s.frequency].period;
  const earn = earn_every ? `, +1 every ${earn_every === 1 ? period : `${earn_every} ${period}s`}` : '';
  return `${initial} to start, up to ${max}${earn}`;
}

/** Counts of the history's outcomes, for the summary beside the cells. */
export function historyCounts(history: ParticipantStreak['history']): Record<PeriodStatus, number> {
  const counts: Record<PeriodStatus, number> = { extended: 0, frozen: 0, missed: 0 };
  for (const h of history) counts[h.status] += 1;
  return counts;
}

/** A streak's length in its periods: "1 day", "4 weeks". */
export const lengthText = (n: number, frequency: Frequency) =>
  `${n} ${FREQUENCIES[frequency].period}${n === 1 ? '' : 's'}`;

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** A period of the history by its first day: "2026-11-05", "week of 2026-11-02", "November 2026". */
export function periodLabel(periodStart: string, frequency: Frequency): string {
  if (frequency === 'weekly') return `week of ${periodStart}`;
  if (frequency === 'monthly') {
    const m = /^(\d{4})-(\d{2})/.exec(periodStart);
    const month = m ? MONTHS[Number(m[2]) - 1] : undefined;
    return m && month ? `${month} ${m[1]}` : periodStart;
  }
  return periodStart;
}
