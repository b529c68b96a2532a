import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { multiplyDown } from '../src/lib/multiply.ts';
import { tierEligible } from '../src/services/tiers/eligibility.ts';
import {
  assign,
  calendarPeriod,
  credit,
  leave,
  type Rules,
  reprogramme,
  review,
  roll,
  type Standing,
  supportedRank,
} from '../src/services/tiers/rules.ts';
import { type TierProgramme, tierProgrammeShape } from '../src/services/tiers/shapes.ts';

// The tier rules (docs/tiers.md), pure: no clock, no database.

const levels = [
  { key: 'bronze', name: 'Bronze', threshold: 0 },
  { key: 'silver', name: 'Silver', threshold: 100 },
  { key: 'gold', name: 'Gold', threshold: 500 },
];
const rules = (over: Partial<TierProgramme> = {}, timezone = 'UTC'): Rules => ({
  programme: tierProgrammeShape.parse({
    qualification: { window: 'lifetime' },
    downgrade: { policy: 'none' },
    levels,
    ...over,
  }),
  timezone,
});
const fresh = (over: Partial<Standing> = {}): Standing => ({
  key: null,
  since: null,
  points: 0,
  period: null,
  prior: 0,
  reviewAt: null,
  lifetime: 0,
  ...over,
});
const at = (iso: string) => new Date(iso);

describe('calendar periods', () => {
  it('names months, quarters and years in the programme’s time zone, with their bounds', () => {
    const i = Temporal.Instant.from('2026-12-31T12:30:00Z');
    expect(calendarPeriod('month', i, 'UTC')).toMatchObject({
      key: 'month:2026-12',
      previousKey: 'month:2026-11',
    });
    // Already January 1st in Auckland.
    const nz = calendarPeriod('quarter', i, 'Pacific/Auckland');
    expect(nz).toMatchObject({ key: 'quarter:2027-Q1', previousKey: 'quarter:2026-Q4' });
    expect(nz.start.toString()).toBe('2026-12-31T11:00:00Z');
    expect(calendarPeriod('year', i, 'America/Los_Angeles')).toMatchObject({
      key: 'year:2026',
      previousKey: 'year:2025',
    });
    expect(calendarPeriod('year', i, 'America/Los_Angeles').end.toString()).toBe('2027-01-01T08:00:00Z');
  });
});

describe('levels', () => {
  it('supports the highest threshold reached', () => {
    expect([0, 99, 100, 499, 500, 10_000].map((p) => supportedRank(rules().programme.levels, p))).toEqual([
      0, 0, 1, 1, 2, 2,
    ]);
  });

  it('goes straight to the highest level a credit reaches', () => {
    const out = credit(fresh({ lifetime: 600 }), rules(), at('2026-11-28T10:00:00Z'), 600);
    expect(out.standing.key).toBe('gold');
    expect(out.move).toMatchObject({ from: { key: 'bronze' }, to: { key: 'gold' }, reason: 'qualified' });
  });
});

describe('calendar windows', () => {
  const r = rules({
    qualification: { window: 'calendar', period: 'month' },
    downgrade: { policy: 'one_down', grace: 'P7D' },
  });

  it('counts the current month; a new month makes it the prior one', () => {
    let s = credit(fresh(), r, at('2026-11-10T00:00:00Z'), 600).standing;
    expect(s).toMatchObject({ key: 'gold', points: 600, period: 'month:2026-11' });
    s = roll(s, r, at('2026-12-02T00:00:00Z'));
    expect(s).toMatchObject({ points: 0, prior: 600, period: 'month:2026-12', reviewAt: null });
    // December ends with nothing earned: reviewed a week after its end, one level down.
    s = roll(s, r, at('2027-01-01T00:00:00Z'));
    expect(s.reviewAt?.toISOString()).toBe('2027-01-08T00:00:00.000Z');
    expect(review(s, r, at('2027-01-05T00:00:00Z')).move).toBeNull();
    const out = review(s, r, at('2027-01-08T00:00:00Z'));
    expect(out.move).toMatchObject({ from: { key: 'gold' }, to: { key: 'silver' }, reason: 'downgrade' });
    expect(out.standing.reviewAt).toBeNull();
  });

  it('a credit in the grace that meets the level again ends the review', () => {
    let s = credit(fresh(), r, at('2026-11-10T00:00:00Z'), 600).standing;
    s = roll(s, r, at('2027-01-01T00:00:00Z'));
    expect(s.reviewAt).not.toBeNull();
    s = credit(s, r, at('2027-01-03T00:00:00Z'), 500).standing;
    expect(s.reviewAt).toBeNull();
    expect(review(s, r, at('2027-01-09T00:00:00Z')).move).toBeNull();
  });
});

describe('rolling windows', () => {
  const r = (policy: 'one_down' | 'to_qualified') =>
    rules({ qualification: { window: 'rolling', duration: 'P30D' }, downgrade: { policy, grace: 'P10D' } });

  it('starts a grace when credits leave below the level, then drops by the policy', () => {
    const now = at('2026-11-01T00:00:00Z');
    const gold = credit(fresh(), r('to_qualified'), now, 600).standing;
    const left = leave(gold, r('to_qualified'), at('2026-12-01T00:00:00Z'), 600);
    expect(left.reviewAt?.toISOString()).toBe('2026-12-11T00:00:00.000Z');
    expect(review(left, r('to_qualified'), at('2026-12-11T00:00:00Z')).standing.key).toBeNull();
    const oneDown = review(left, r('one_down'), at('2026-12-11T00:00:00Z'));
    expect(oneDown.standing.key).toBe('silver');
    // Still below silver: reviewed again a grace later.
    expect(oneDown.standing.reviewAt?.toISOString()).toBe('2026-12-21T00:00:00.000Z');
  });

  it('a manual level is reviewed like any other; policy none never moves anyone down', () => {
    const now = at('2026-11-01T00:00:00Z');
    const manual = assign(fresh(), r('to_qualified'), now, 'gold', 'VIP');
    expect(manual.move).toMatchObject({ reason: 'manual', note: 'VIP', to: { key: 'gold' } });
    expect(manual.standing.reviewAt?.toISOString()).toBe('2026-11-11T00:00:00.000Z');
    const none = rules({
      qualification: { window: 'rolling', duration: 'P30D' },
      downgrade: { policy: 'none' },
    });
    expect(assign(fresh(), none, now, 'gold', 'VIP').standing.reviewAt).toBeNull();
  });
});

describe('programme changes', () => {
  it('moves up at once, and off a level the programme no longer has', () => {
    const now = at('2026-11-01T00:00:00Z');
    const lower = rules({
      levels: [
        { key: 'bronze', name: 'Bronze', threshold: 0 },
        { key: 'silver', name: 'Silver', threshold: 50 },
      ],
    } as Partial<TierProgramme>);
    expect(reprogramme(fresh({ lifetime: 60 }), lower, now).move).toMatchObject({
      to: { key: 'silver' },
      reason: 'programme_change',
    });
    const out = reprogramme(fresh({ key: 'gold', lifetime: 10 }), lower, now, rules());
    expect(out.move).toMatchObject({ from: { key: 'gold', name: 'Gold' }, to: { key: 'bronze' } });
    expect(out.standing.key).toBeNull();
  });
});

describe('benefits', () => {
  it('multiplies awards exactly, rounding down once', () => {
    expect(multiplyDown(100, [1.15])).toBe(115);
    expect(multiplyDown(301, [1.5])).toBe(451);
    expect(multiplyDown(7, [1.5, 1.5])).toBe(15);
    expect(multiplyDown(10, [1])).toBe(10);
    expect(multiplyDown(3, [0.1, 10])).toBe(3);
  });

  it('lets a level at or above min_tier redeem', () => {
    expect(tierEligible(rules(), 'gold', 'silver')).toBe(true);
    expect(tierEligible(rules(), null, 'silver')).toBe(false);
    expect(tierEligible(rules(), null, null)).toBe(true);
    expect(tierEligible(null, null, 'silver')).toBe(false);
    expect(tierEligible(rules(), 'gold', 'platinum')).toBe(false);
  });
});
