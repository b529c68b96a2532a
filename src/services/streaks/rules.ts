import { Temporal } from 'temporal-polyfill';

// A streak's rules (docs/engagement.md#streaks), pure: time is an argument, periods are named by
// their first day in the participant's time zone, and every calendar step goes through Temporal.

export type Frequency = 'daily' | 'weekly' | 'monthly';
export type PeriodStatus = 'extended' | 'frozen' | 'missed';

/** What the rules need of a streak definition. */
export interface StreakRules {
  frequency: Frequency;
  freezesInitial: number;
  freezesMax: number;
  /** A freeze is earned every this many extended periods; null: never. */
  earnEvery: number | null;
}

/** A participant's state in one streak, as its row keeps it. */
export interface StreakState {
  length: number;
  longest: number;
  freezes: number;
  /** Extended periods counted toward the next earned freeze. */
  earned: number;
  /** The last extended period (its first day, `YYYY-MM-DD`). */
  lastPeriod: string;
  /** The last period accounted for: extended, frozen or missed. */
  checkedPeriod: string;
  /** The latest outcomes, oldest first, at most HISTORY_LENGTH. */
  history: { period_start: string; status: PeriodStatus }[];
}

/** What happened to a streak, in order (the live `streakChanged` changes). */
export type StreakChangeKind = 'extended' | 'frozen' | 'broken';

/** One change: its kind, the period it concerns and the state right after it. */
export interface StreakChange {
  kind: StreakChangeKind;
  period: string;
  state: StreakState;
}

export const HISTORY_LENGTH = 30;

/** The period index of a first day: days, weeks (Monday-based) or months since the epoch. */
function indexOf(day: Temporal.PlainDate, f: Frequency): number {
  if (f === 'monthly') return (day.year - 1970) * 12 + day.month - 1;
  const days = day.since(EPOCH_MONDAY, { largestUnit: 'days' }).days;
  return f === 'daily' ? days : Math.floor(days / 7);
}
const EPOCH_MONDAY = Temporal.PlainDate.from('1970-01-05');

const STEP = { daily: { days: 1 }, weekly: { weeks: 1 }, monthly: { months: 1 } } as const;

/** The first day of the period containing `day` (ISO weeks start on Monday). */
export function periodStartOf(day: Temporal.PlainDate, f: Frequency): Temporal.PlainDate {
  if (f === 'daily') return day;
  if (f === 'weekly') return day.subtract({ days: day.dayOfWeek - 1 });
  return day.with({ day: 1 });
}

/** The first day of the period `n` periods after the one starting on `start`. */
export const shift = (start: string, f: Frequency, n: number): string =>
  Temporal.PlainDate.from(start)
    .add({ [f === 'daily' ? 'days' : f === 'weekly' ? 'weeks' : 'months']: n })
    .toString();

/** How many periods lie strictly between two periods' first days (b after a: ≥ 0). */
export const periodsBetween = (a: string, b: string, f: Frequency): number =>
  indexOf(Temporal.PlainDate.from(b), f) - indexOf(Temporal.PlainDate.from(a), f) - 1;

/** The instant a period ends: the first instant of the next one in `timezone`. */
export function periodEnd(start: string, f: Frequency, timezone: string): Date {
  const next = Temporal.PlainDate.from(start).add(STEP[f]);
  return new Date(next.toZonedDateTime({ timeZone: timezone }).epochMilliseconds);
}

/** The instant a period starts in `timezone`. */
export function periodBegin(start: string, timezone: string): Date {
  return new Date(Temporal.PlainDate.from(start).toZonedDateTime({ timeZone: timezone }).epochMilliseconds);
}

/**
 * The period containing an instant, in a time zone: `YYYY-MM-DD` of its first day. A cache of
 * the periods already worked out makes the engine's many events of a batch two comparisons each.
 */
export class PeriodFinder {
  private readonly known = new Map<string, { start: string; from: number; to: number }[]>();

  periodOf(at: Date, f: Frequency, timezone: string): string {
    const ms = at.getTime();
    const slot = `${timezone}|${f}`;
    const ranges = this.known.get(slot) ?? [];
    const hit = ranges.find((r) => r.from <= ms && ms < r.to);
    if (hit) return hit.start;
    const day = Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(timezone).toPlainDate();
    const start = periodStartOf(day, f).toString();
    const range = {
      start,
      from: periodBegin(start, timezone).getTime(),
      to: periodEnd(start, f, timezone).getTime(),
    };
    this.known.set(slot, [...ranges.slice(-7), range]);
    return start;
  }
}

const record = (history: StreakState['history'], entries: StreakState['history']) =>
  [...history, ...entries.slice(-HISTORY_LENGTH)].slice(-HISTORY_LENGTH);

/**
 * Accounts for the periods after `checkedPeriod` and before `current` that passed without an
 * extension, in order, as the streak job does when each ends: a freeze covers each while they
 * last; the first period none covers breaks the streak (length 0). Every such period is recorded
 * (`frozen` or `missed`), a broken streak's too, until its next extension restarts it.
 */
export function advance(
  s: StreakState,
  rules: StreakRules,
  current: string,
): { state: StreakState; changes: StreakChange[] } {
  // Nothing has passed (the engine's common case: another event of an accounted period), told
  // apart by comparing the `YYYY-MM-DD` names, without calendar arithmetic.
  if (current <= s.checkedPeriod) return { state: s, changes: [] };
  const missed = periodsBetween(s.checkedPeriod, current, rules.frequency);
  if (missed <= 0) return { state: s, changes: [] };
  const covered = s.length > 0 ? Math.min(missed, s.freezes) : 0;
  const breaks = s.length > 0 && missed > covered;
  const entries: StreakState['history'] = [];
  // Only the last HISTORY_LENGTH of a long gap can show; the rest need not be built.
  for (let i = Math.max(1, missed - HISTORY_LENGTH + 1); i <= missed; i++)
    entries.push({
      period_start: shift(s.checkedPeriod, rules.frequency, i),
      status: i <= covered ? 'frozen' : 'missed',
    });
  const state: StreakState = {
    ...s,
    length: breaks ? 0 : s.length,
    earned: breaks ? 0 : s.earned,
    freezes: s.freezes - covered,
    checkedPeriod: shift(current, rules.frequency, -1),
    history: record(s.history, entries),
  };
  const changes: StreakChange[] = [];
  if (covered) {
    const lastFrozen = shift(s.checkedPeriod, rules.frequency, covered);
    changes.push({
      kind: 'frozen',
      period: lastFrozen,
      state: breaks ? { ...s, freezes: 0, checkedPeriod: lastFrozen } : state,
    });
  }
  if (breaks)
    changes.push({ kind: 'broken', period: shift(s.checkedPeriod, rules.frequency, covered + 1), state });
  return { state, changes };
}

/** A participant's state before their first extension of a streak. */
export const fresh = (rules: StreakRules, period: string): StreakState => ({
  length: 0,
  longest: 0,
  freezes: rules.freezesInitial,
  earned: 0,
  lastPeriod: period,
  checkedPeriod: shift(period, rules.frequency, -1),
  history: [],
});

/**
 * An event of the streak in `period`: extends it once per period. An event for a period already
 * accounted for (extended, or closed by the streak job) changes nothing.
 */
export function extend(
  s: StreakState | null,
  rules: StreakRules,
  period: string,
): { state: StreakState; changes: StreakChange[] } | null {
  const before = s ?? fresh(rules, period);
  if (s && period <= s.checkedPeriod) return null;
  const { state: a, changes } = advance(before, rules, period);
  const length = a.length + 1;
  let earned = a.earned + 1;
  let freezes = a.freezes;
  if (rules.earnEvery && earned >= rules.earnEvery) {
    earned = 0;
    freezes = Math.min(rules.freezesMax, freezes + 1);
  }
  const state: StreakState = {
    length,
    longest: Math.max(a.longest, length),
    freezes,
    earned,
    lastPeriod: period,
    checkedPeriod: period,
    history: record(a.history, [{ period_start: period, status: 'extended' }]),
  };
  return { state, changes: [...changes, { kind: 'extended', period, state }] };
}

/** When the streak job next looks at a streak: the end of the period after the last accounted for; null once broken. */
export const dueAt = (s: StreakState, rules: StreakRules, timezone: string): Date | null =>
  s.length > 0 ? periodEnd(shift(s.checkedPeriod, rules.frequency, 1), rules.frequency, timezone) : null;

/** A streak as a participant reads it at `now` (docs/engagement.md#reading-a-participants-streaks). */
export interface StreakView {
  length: number;
  longest: number;
  freezes: number;
  period_start: string;
  period_end: string;
  extended_this_period: boolean;
  at_risk: boolean;
  expires_at: string | null;
  history: StreakState['history'];
}

/** The streak at `now` in `timezone`, with the periods passed since its row was written accounted for. */
export function viewAt(
  s: StreakState | null,
  rules: StreakRules,
  now: Date,
  timezone: string,
  finder = new PeriodFinder(),
): StreakView {
  const current = finder.periodOf(now, rules.frequency, timezone);
  const v = s ? advance(s, rules, current).state : fresh(rules, current);
  const extendedNow = !!s && v.lastPeriod === current && v.length > 0;
  return {
    length: v.length,
    longest: v.longest,
    freezes: v.freezes,
    period_start: periodBegin(current, timezone).toISOString(),
    period_end: periodEnd(current, rules.frequency, timezone).toISOString(),
    extended_this_period: extendedNow,
    at_risk: v.length > 0 && !extendedNow && v.freezes === 0,
    expires_at:
      v.length > 0
        ? periodEnd(
            shift(v.checkedPeriod, rules.frequency, 1 + v.freezes),
            rules.frequency,
            timezone,
          ).toISOString()
        : null,
    history: v.history,
  };
}
