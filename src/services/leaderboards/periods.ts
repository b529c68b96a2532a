import { z } from 'zod';

/** A leaderboard's period: points earned in the UTC week (Monday first), the UTC month, or ever. */
export const leaderboardPeriod = z.enum(['all_time', 'weekly', 'monthly']);
export const PERIODS = leaderboardPeriod.options;
export type Period = z.output<typeof leaderboardPeriod>;

/** The stored `period_start` of the all-time board (the column is not nullable, one key shape). */
export const ALL_TIME_START = '1970-01-01';

export interface PeriodWindow {
  /** `YYYY-MM-DD`, the key of the period's aggregates. */
  start: string;
  /** ISO timestamps for `meta`; null for all time. */
  periodStart: string | null;
  periodEnd: string | null;
}

/** The period that contains `at`: its key (`start`) and its bounds for `meta`. */
export function periodWindow(period: Period, at: Date): PeriodWindow {
  if (period === 'all_time') return { start: ALL_TIME_START, periodStart: null, periodEnd: null };
  const day = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  let start: number;
  let end: number;
  if (period === 'weekly') {
    const sinceMonday = (new Date(day).getUTCDay() + 6) % 7;
    start = day - sinceMonday * 86_400_000;
    end = start + 7 * 86_400_000;
  } else {
    start = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1);
    end = Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1);
  }
  return {
    start: new Date(start).toISOString().slice(0, 10),
    periodStart: new Date(start).toISOString(),
    periodEnd: new Date(end).toISOString(),
  };
}
