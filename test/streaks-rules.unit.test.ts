import { describe, expect, it } from 'vitest';
import {
  advance,
  dueAt,
  extend,
  PeriodFinder,
  periodEnd,
  periodsBetween,
  type StreakRules,
  type StreakState,
  viewAt,
} from '../src/services/streaks/rules.ts';

// Pure: the streak rules of docs/engagement.md#the-rules, no database.

const daily: StreakRules = { frequency: 'daily', freezesInitial: 0, freezesMax: 0, earnEvery: null };
const at = (iso: string) => new Date(iso);
const outcomes = (s: StreakState) => s.history.map((h) => `${h.period_start}:${h.status}`);

/** Extends through the periods given, in order. */
function run(rules: StreakRules, periods: string[]): StreakState {
  let s: StreakState | null = null;
  for (const p of periods) s = extend(s, rules, p)?.state ?? s;
  return s!;
}

describe('periods', () => {
  const finder = new PeriodFinder();
  it('names a period by its first day in the time zone, ISO weeks starting on Monday', () => {
    expect(finder.periodOf(at('2026-11-10T09:00:00Z'), 'daily', 'Pacific/Kiritimati')).toBe('2026-11-10');
    expect(finder.periodOf(at('2026-11-10T10:30:00Z'), 'daily', 'Pacific/Kiritimati')).toBe('2026-11-11');
    expect(finder.periodOf(at('2026-11-10T10:30:00Z'), 'daily', 'Pacific/Pago_Pago')).toBe('2026-11-09');
    // Sunday 2027-01-03 belongs to the ISO week that began on Monday 2026-12-28.
    expect(finder.periodOf(at('2027-01-03T12:00:00Z'), 'weekly', 'UTC')).toBe('2026-12-28');
    expect(finder.periodOf(at('2027-01-04T00:00:00Z'), 'weekly', 'UTC')).toBe('2027-01-04');
    expect(finder.periodOf(at('2026-02-28T23:30:00Z'), 'monthly', 'Asia/Tokyo')).toBe('2026-03-01');
  });
  it('counts the periods between two, across month ends and years', () => {
    expect(periodsBetween('2026-01-31', '2026-02-01', 'daily')).toBe(0);
    expect(periodsBetween('2026-01-31', '2026-03-01', 'daily')).toBe(28);
    expect(periodsBetween('2026-12-28', '2027-01-11', 'weekly')).toBe(1);
    expect(periodsBetween('2026-11-01', '2027-02-01', 'monthly')).toBe(2);
  });
  it('ends a period at the next one’s first instant in the time zone (DST included)', () => {
    expect(periodEnd('2026-11-10', 'daily', 'Pacific/Kiritimati').toISOString()).toBe(
      '2026-11-10T10:00:00.000Z',
    );
    // Europe/Paris leaves summer time on 2026-10-25: that day lasts 25 hours.
    expect(periodEnd('2026-10-25', 'daily', 'Europe/Paris').toISOString()).toBe('2026-10-25T23:00:00.000Z');
    expect(periodEnd('2026-12-01', 'monthly', 'UTC').toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });
});

describe('extend and advance', () => {
  it('extends once per period and ignores earlier ones', () => {
    const s = run(daily, ['2026-11-01', '2026-11-02', '2026-11-02', '2026-11-01', '2026-11-03']);
    expect(s).toMatchObject({ length: 3, longest: 3 });
    expect(extend(s, daily, '2026-11-03')).toBeNull();
    expect(extend(s, daily, '2026-10-30')).toBeNull();
  });
  it('spends freezes in order, then breaks at the first period none covers', () => {
    const rules = { ...daily, freezesInitial: 2, freezesMax: 2 };
    const s = run(rules, ['2026-11-01']);
    const a = advance(s, rules, '2026-11-04');
    expect(a.changes.map((c) => c.kind)).toEqual(['frozen']);
    expect(a.state).toMatchObject({ length: 1, freezes: 0, checkedPeriod: '2026-11-03' });
    const b = advance(s, rules, '2026-11-06');
    expect(b.changes.map((c) => `${c.kind}:${c.period}:${c.state.length}`)).toEqual([
      'frozen:2026-11-03:1',
      'broken:2026-11-04:0',
    ]);
    expect(b.state).toMatchObject({ length: 0, freezes: 0 });
    expect(outcomes(b.state)).toEqual([
      '2026-11-01:extended',
      '2026-11-02:frozen',
      '2026-11-03:frozen',
      '2026-11-04:missed',
      '2026-11-05:missed',
    ]);
    // The job's way (one period at a time) and the event's (all at once) agree.
    const stepwise = advance(
      advance(advance(s, rules, '2026-11-03').state, rules, '2026-11-05').state,
      rules,
      '2026-11-06',
    );
    expect(stepwise.state).toEqual(b.state);
  });
  it('earns a freeze every earn_every extensions up to max', () => {
    const rules = { ...daily, freezesInitial: 0, freezesMax: 1, earnEvery: 2 };
    expect(run(rules, ['2026-11-01', '2026-11-02']).freezes).toBe(1);
    expect(run(rules, ['2026-11-01', '2026-11-02', '2026-11-03', '2026-11-04']).freezes).toBe(1);
  });
  it('keeps only the last 30 outcomes, also across a long gap', () => {
    const s = run(daily, ['2026-01-01', '2026-06-01']);
    expect(s.history).toHaveLength(30);
    expect(s.history.at(-1)).toEqual({ period_start: '2026-06-01', status: 'extended' });
    expect(s.history.at(-2)).toEqual({ period_start: '2026-05-31', status: 'missed' });
  });
  it('is due when the period after the last accounted one ends; never once broken', () => {
    const s = run(daily, ['2026-11-01']);
    expect(dueAt(s, daily, 'Asia/Tokyo')!.toISOString()).toBe('2026-11-02T15:00:00.000Z');
    expect(dueAt(advance(s, daily, '2026-11-05').state, daily, 'UTC')).toBeNull();
  });
});

describe('the view at now', () => {
  const rules = { ...daily, freezesInitial: 1, freezesMax: 1 };
  const s = run(rules, ['2026-11-10']);
  it('is not at risk while a freeze is left, and expires after the period the freeze would cover', () => {
    const v = viewAt(s, rules, at('2026-11-11T08:00:00Z'), 'UTC');
    expect(v).toMatchObject({ length: 1, extended_this_period: false, at_risk: false, freezes: 1 });
    expect(v.expires_at).toBe('2026-11-13T00:00:00.000Z');
  });
  it('is at risk once the freeze is spent and this period not extended', () => {
    const v = viewAt(s, rules, at('2026-11-12T08:00:00Z'), 'UTC');
    expect(v).toMatchObject({ length: 1, freezes: 0, at_risk: true, expires_at: '2026-11-13T00:00:00.000Z' });
  });
  it('answers length 0 once it can no longer be saved', () => {
    expect(viewAt(s, rules, at('2026-11-13T00:00:00Z'), 'UTC')).toMatchObject({
      length: 0,
      at_risk: false,
      expires_at: null,
    });
  });
});
