import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import {
  addDuration,
  capAward,
  expiryOf,
  fixedExpiry,
  PeriodKeys,
  parseDuration,
  periodKey,
} from '../src/services/points/rules.ts';

// The lifecycle's calendar rules (docs/points.md), without clocks: time is an argument.

const at = (iso: string) => Temporal.Instant.from(iso);

const fixed = (after: string, round_to: 'none' | 'day' | 'month' | 'quarter' | 'year') =>
  ({ mode: 'fixed', after, round_to }) as const;

describe('ISO 8601 durations', () => {
  it('accepts positive durations, seconds included, and refuses the rest', () => {
    for (const ok of ['P12M', 'P30D', 'P2W', 'PT30S', 'P1Y2M3DT4H5M6S', 'PT0.5S'])
      expect(parseDuration(ok)).not.toBeNull();
    for (const bad of ['12 months', 'P0D', '-P1D', 'P', '', 'PT-1S', '1M'])
      expect(parseDuration(bad)).toBeNull();
  });
});

describe('fixed expiry', () => {
  it('adds on the calendar of the time zone: a month from January 31 is the last day of February', () => {
    expect(fixedExpiry(at('2027-01-31T10:00:00Z'), fixed('P1M', 'none'), 'UTC').toString()).toBe(
      '2027-02-28T10:00:00Z',
    );
    expect(fixedExpiry(at('2028-01-31T10:00:00Z'), fixed('P1M', 'none'), 'UTC').toString()).toBe(
      '2028-02-29T10:00:00Z',
    );
  });

  it('rounds up to the end of the day, month, quarter or year in the programme’s time zone', () => {
    // 2026-11-28 23:30 in Paris is 22:30 UTC; 12 months later, rounded.
    const credit = at('2026-11-28T22:30:00Z');
    const tz = 'Europe/Paris';
    expect(fixedExpiry(credit, fixed('P12M', 'day'), tz).toString()).toBe('2027-11-28T23:00:00Z');
    expect(fixedExpiry(credit, fixed('P12M', 'month'), tz).toString()).toBe('2027-11-30T23:00:00Z');
    expect(fixedExpiry(credit, fixed('P12M', 'quarter'), tz).toString()).toBe('2027-12-31T23:00:00Z');
    expect(fixedExpiry(credit, fixed('P12M', 'year'), tz).toString()).toBe('2027-12-31T23:00:00Z');
    // The same instant in UTC is still November 28th: the month ends a day later there.
    expect(fixedExpiry(credit, fixed('P12M', 'month'), 'UTC').toString()).toBe('2027-12-01T00:00:00Z');
  });

  it('keeps an instant already on a boundary, and crosses a DST change by the wall clock', () => {
    expect(fixedExpiry(at('2026-01-01T00:00:00Z'), fixed('P1M', 'month'), 'UTC').toString()).toBe(
      '2026-02-01T00:00:00Z',
    );
    // Paris moves to summer time on 2027-03-28: a day later at the same wall time is 23 hours.
    expect(addDuration(at('2027-03-27T11:00:00Z'), 'P1D', 'Europe/Paris').toString()).toBe(
      '2027-03-28T10:00:00Z',
    );
  });

  it('activity expiry is the credit plus the duration, never rounded; no policy never expires', () => {
    expect(
      expiryOf(
        at('2026-05-05T05:05:05Z'),
        { mode: 'activity', after: 'P30D', round_to: 'month' },
        'UTC',
      )?.toString(),
    ).toBe('2026-06-04T05:05:05Z');
    expect(expiryOf(at('2026-05-05T05:05:05Z'), null, 'UTC')).toBeNull();
  });
});

describe('cap periods', () => {
  it('names the calendar day, ISO week (Monday first), month and year in the time zone', () => {
    const late = at('2026-12-31T23:30:00Z'); // already 2027-01-01 in Paris, a Friday of ISO week 53 of 2026
    expect(periodKey('day', late, 'UTC')).toBe('day:2026-12-31');
    expect(periodKey('day', late, 'Europe/Paris')).toBe('day:2027-01-01');
    expect(periodKey('week', late, 'Europe/Paris')).toBe('week:2026-W53');
    expect(periodKey('month', late, 'Europe/Paris')).toBe('month:2027-01');
    expect(periodKey('year', late, 'UTC')).toBe('year:2026');
    expect(periodKey('week', at('2026-03-15T08:00:00Z'), 'UTC')).toBe(
      periodKey('week', at('2026-03-09T08:00:00Z'), 'UTC'),
    );
    expect(periodKey('week', at('2026-03-16T08:00:00Z'), 'UTC')).not.toBe(
      periodKey('week', at('2026-03-15T08:00:00Z'), 'UTC'),
    );
  });

  it('answers what periodKey answers, hour after hour across a year end and a DST change', () => {
    const cached = new PeriodKeys();
    for (const tz of ['UTC', 'Europe/Paris', 'Pacific/Kiritimati', 'Pacific/Pago_Pago'])
      for (const from of ['2026-12-25T00:00:00Z', '2027-03-25T00:00:00Z'])
        for (let h = 0; h < 24 * 10; h += 1) {
          const when = at(from).add({ hours: h, minutes: 17 });
          for (const unit of ['day', 'week', 'month', 'year'] as const)
            expect(cached.key(unit, when, tz), `${unit} ${tz} ${when}`).toBe(periodKey(unit, when, tz));
        }
  });

  it('cuts an award to the least room left under any cap', () => {
    expect(capAward(60, [])).toEqual({ points: 60, capped: 0 });
    expect(capAward(60, [{ key: 'a', max: 100, earned: 60 }])).toEqual({ points: 40, capped: 20 });
    expect(
      capAward(60, [
        { key: 'a', max: 100, earned: 0 },
        { key: 'b', max: 50, earned: 45 },
      ]),
    ).toEqual({ points: 5, capped: 55 });
    expect(capAward(60, [{ key: 'a', max: 100, earned: 130 }])).toEqual({ points: 0, capped: 60 });
  });
});
