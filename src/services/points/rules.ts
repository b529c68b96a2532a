import { Temporal } from 'temporal-polyfill';

// The points lifecycle's calendar rules (docs/points.md), pure: time is an argument, every
// calendar step (time zones, month ends, ISO weeks, ISO 8601 durations) goes through Temporal.

export type RoundTo = 'none' | 'day' | 'month' | 'quarter' | 'year';
export type CapPeriod = 'day' | 'week' | 'month' | 'year';

export interface ExpiryPolicy {
  mode: 'fixed' | 'activity';
  after: string;
  round_to: RoundTo;
}

/** The parsed ISO 8601 duration, or null when `text` is not one, or is zero or negative. */
export function parseDuration(text: string): Temporal.Duration | null {
  let d: Temporal.Duration;
  try {
    d = Temporal.Duration.from(text);
  } catch {
    return null;
  }
  return d.sign > 0 ? d : null;
}

const duration = (text: string): Temporal.Duration => {
  const d = parseDuration(text);
  if (!d) throw new Error(`not a positive ISO 8601 duration: ${text}`);
  return d;
};

/** True when `name` is an IANA time zone Temporal knows. */
export function isTimeZone(name: string): boolean {
  try {
    Temporal.Now.zonedDateTimeISO(name);
    return true;
  } catch {
    return false;
  }
}

export const instantOf = (d: Date): Temporal.Instant => Temporal.Instant.fromEpochMilliseconds(d.getTime());
export const dateOf = (i: Temporal.Instant): Date => new Date(i.epochMilliseconds);

/** `at` plus `after`, counted on the calendar of `timezone` (P1M from Jan 31 is Feb 28/29). */
export function addDuration(at: Temporal.Instant, after: string, timezone: string): Temporal.Instant {
  return at.toZonedDateTimeISO(timezone).add(duration(after)).toInstant();
}

/** `at` minus `before` on the calendar of `timezone`. */
export function subtractDuration(at: Temporal.Instant, before: string, timezone: string): Temporal.Instant {
  return at.toZonedDateTimeISO(timezone).subtract(duration(before)).toInstant();
}

/** The first instant of the period of `unit` that contains `at`, in `timezone` (weeks start Monday). */
function startOf(z: Temporal.ZonedDateTime, unit: 'day' | 'week' | 'month' | 'quarter' | 'year') {
  const day = z.startOfDay();
  if (unit === 'day') return day;
  if (unit === 'week') return day.subtract({ days: day.dayOfWeek - 1 }).startOfDay();
  const month = unit === 'month' ? z.month : unit === 'quarter' ? z.month - ((z.month - 1) % 3) : 1;
  return Temporal.ZonedDateTime.from({
    timeZone: z.timeZoneId,
    year: z.year,
    month,
    day: 1,
  }).startOfDay();
}

const LENGTH = {
  day: { days: 1 },
  week: { weeks: 1 },
  month: { months: 1 },
  quarter: { months: 3 },
  year: { years: 1 },
};

/**
 * When a credit made at `at` expires under a `fixed` policy: `after` later, rounded up to the end
 * of that day/month/quarter/year in `timezone` (the first instant of the next one). An instant
 * exactly on a boundary stays there.
 */
export function fixedExpiry(at: Temporal.Instant, policy: ExpiryPolicy, timezone: string): Temporal.Instant {
  const due = at.toZonedDateTimeISO(timezone).add(duration(policy.after));
  if (policy.round_to === 'none') return due.toInstant();
  const start = startOf(due, policy.round_to);
  if (Temporal.ZonedDateTime.compare(start, due) === 0) return due.toInstant();
  return start.add(LENGTH[policy.round_to]).startOfDay().toInstant();
}

/**
 * The expiry a credit made at `at` carries, or null (never): `fixed` rounds, `activity` is the
 * last qualifying credit plus `after` (every open lot moves to it).
 */
export function expiryOf(
  at: Temporal.Instant,
  policy: ExpiryPolicy | null,
  timezone: string,
): Temporal.Instant | null {
  if (!policy) return null;
  if (policy.mode === 'activity') return addDuration(at, policy.after, timezone);
  return fixedExpiry(at, policy, timezone);
}

/** The first instant of the calendar period of `unit` that contains `at` in `timezone` (weeks start Monday). */
export function periodStart(unit: CapPeriod, at: Temporal.Instant, timezone: string): Temporal.Instant {
  return startOf(at.toZonedDateTimeISO(timezone), unit).toInstant();
}

/**
 * The key of the calendar period of `unit` that contains `at` in `timezone`: `day:2026-11-28`,
 * `week:2026-W48` (ISO week), `month:2026-11`, `year:2026`.
 */
export function periodKey(unit: CapPeriod, at: Temporal.Instant, timezone: string): string {
  const z = at.toZonedDateTimeISO(timezone);
  const pad = (n: number) => String(n).padStart(2, '0');
  if (unit === 'day') return `day:${z.toPlainDate().toString()}`;
  if (unit === 'week') return `week:${z.yearOfWeek}-W${pad(z.weekOfYear ?? 0)}`;
  if (unit === 'month') return `month:${z.year}-${pad(z.month)}`;
  return `year:${z.year}`;
}

/**
 * {@link periodKey} for many instants: each period's bounds are worked out once (through
 * Temporal), then an instant inside known bounds costs two comparisons. The engine asks for
 * every award of a batch, and the instants of a batch fall in a few periods.
 */
export class PeriodKeys {
  private readonly known = new Map<string, { key: string; start: number; end: number }[]>();

  key(unit: CapPeriod, at: Temporal.Instant, timezone: string): string {
    const ms = at.epochMilliseconds;
    const slot = `${timezone}|${unit}`;
    const ranges = this.known.get(slot) ?? [];
    const hit = ranges.find((r) => r.start <= ms && ms < r.end);
    if (hit) return hit.key;
    const start = startOf(at.toZonedDateTimeISO(timezone), unit);
    const range = {
      key: periodKey(unit, at, timezone),
      start: start.epochMilliseconds,
      end: start.add(LENGTH[unit]).startOfDay().epochMilliseconds,
    };
    this.known.set(slot, [...ranges.slice(-7), range]);
    return range.key;
  }
}

export interface Cap {
  /** What the cap counts under (`program` or `<flow id>:<action index>`) and its period key. */
  key: string;
  max: number;
  /** Already earned in the period. */
  earned: number;
}

/** How much of `points` the caps let through: the least room left under any of them. */
export function capAward(points: number, caps: readonly Cap[]): { points: number; capped: number } {
  let allowed = points;
  for (const c of caps) allowed = Math.min(allowed, Math.max(0, c.max - c.earned));
  return { points: allowed, capped: points - allowed };
}
