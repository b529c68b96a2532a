import { Temporal } from 'temporal-polyfill';
import { addDuration, dateOf, instantOf } from '../points/rules.ts';
import type { TierLevel, TierPeriod, TierProgramme, TierReason } from './shapes.ts';

// The tier rules (docs/tiers.md), pure: time is an argument, calendar steps go through Temporal.
// Every writer (the engine, a posted entry, the tier job, a manual move, a programme change) loads
// a participant's standing under their row lock, asks these functions what it becomes, and writes
// the result: the rules live here once.

/** Where a participant stands, as their row keeps it (participants.tier_*). */
export interface Standing {
  /** Their level's key; null: the first level. */
  key: string | null;
  since: Date | null;
  /** Qualifying points of the current window (`rolling`, `calendar`). */
  points: number;
  /** `calendar`: the period `points` counts. */
  period: string | null;
  /** `calendar`: the points of the period before `period`. */
  prior: number;
  reviewAt: Date | null;
  /** Lifetime points: the `lifetime` window's qualifying points. */
  lifetime: number;
}

/** A programme with the time zone its calendar is taken in. */
export interface Rules {
  programme: TierProgramme;
  timezone: string;
}

/** A level change: what the history and `tier.changed` record. */
export interface LevelRef {
  key: string;
  name: string;
}

export interface Move {
  from: LevelRef | null;
  to: LevelRef | null;
  reason: TierReason;
  note?: string | null;
  qualifyingPoints: number;
  at: Date;
}

export interface Outcome {
  standing: Standing;
  move: Move | null;
}

const LENGTH: Record<TierPeriod, Temporal.DurationLike> = {
  month: { months: 1 },
  quarter: { months: 3 },
  year: { years: 1 },
};

export interface CalendarPeriod {
  key: string;
  start: Temporal.Instant;
  end: Temporal.Instant;
  previousKey: string;
}

function periodKeyOf(unit: TierPeriod, z: Temporal.ZonedDateTime): string {
  if (unit === 'month') return `month:${z.year}-${String(z.month).padStart(2, '0')}`;
  if (unit === 'quarter') return `quarter:${z.year}-Q${Math.ceil(z.month / 3)}`;
  return `year:${z.year}`;
}

/** The calendar period of `unit` containing `at` in `timezone`: its key, bounds and the previous one's key. */
export function calendarPeriod(unit: TierPeriod, at: Temporal.Instant, timezone: string): CalendarPeriod {
  const z = at.toZonedDateTimeISO(timezone);
  const month = unit === 'month' ? z.month : unit === 'quarter' ? z.month - ((z.month - 1) % 3) : 1;
  const start = Temporal.ZonedDateTime.from({ timeZone: timezone, year: z.year, month, day: 1 }).startOfDay();
  return {
    key: periodKeyOf(unit, z),
    start: start.toInstant(),
    end: start.add(LENGTH[unit]).startOfDay().toInstant(),
    previousKey: periodKeyOf(unit, start.subtract(LENGTH[unit])),
  };
}

/**
 * {@link calendarPeriod} for many instants of a few periods (the engine's batches, the tier job):
 * bounds are worked out once, then an instant inside them costs two comparisons.
 */
export class Periods {
  private readonly known = new Map<string, CalendarPeriod[]>();

  of(unit: TierPeriod, at: Date, timezone: string): CalendarPeriod {
    const ms = at.getTime();
    const slot = `${timezone}|${unit}`;
    const list = this.known.get(slot) ?? [];
    const hit = list.find((p) => p.start.epochMilliseconds <= ms && ms < p.end.epochMilliseconds);
    if (hit) return hit;
    const p = calendarPeriod(unit, instantOf(at), timezone);
    this.known.set(slot, [...list.slice(-3), p]);
    return p;
  }
}

const shared = new Periods();

/** The index of the level `key` names (null: the first), or -1 when the programme has no such level. */
export function rankOf(levels: readonly TierLevel[], key: string | null): number {
  if (key === null) return 0;
  return levels.findIndex((l) => l.key === key);
}

/** The highest level `points` reach. */
export function supportedRank(levels: readonly TierLevel[], points: number): number {
  let rank = 0;
  for (let i = 1; i < levels.length; i++) if (points >= levels[i]!.threshold) rank = i;
  return rank;
}

/** `rolling`: when a qualifying credit made at `at` leaves the window (on the calendar of the programme's time zone). */
export const leavesWindow = (r: Rules, at: Date): Date =>
  dateOf(addDuration(instantOf(at), r.programme.qualification.duration!, r.timezone));

/** Whether the programme ever moves anyone down (never under `lifetime` or policy `none`). */
export const downgrades = (r: Rules) =>
  r.programme.qualification.window !== 'lifetime' && r.programme.downgrade.policy !== 'none';

/** Qualifying points of the current window. */
export const qualifyingOf = (s: Standing, r: Rules) =>
  r.programme.qualification.window === 'lifetime' ? s.lifetime : s.points;

/** The level the window supports: under `calendar`, the better of the last complete period and the current one. */
export function supportedOf(s: Standing, r: Rules): number {
  const levels = r.programme.levels;
  const now = supportedRank(levels, qualifyingOf(s, r));
  return r.programme.qualification.window === 'calendar'
    ? Math.max(now, supportedRank(levels, s.prior))
    : now;
}

/** The participant's level (a key the programme no longer has: the level their points support). */
export function currentRank(s: Standing, r: Rules): number {
  const rank = rankOf(r.programme.levels, s.key);
  return rank < 0 ? supportedOf(s, r) : rank;
}

const after = (now: Date, r: Rules): Date => {
  const grace = r.programme.downgrade.grace;
  // Without a grace the next evaluation is the next tick (strictly later: one level per evaluation).
  return grace ? dateOf(addDuration(instantOf(now), grace, r.timezone)) : new Date(now.getTime() + 1);
};

/**
 * `calendar`: moves the standing into the period containing `now` (the points of the period
 * before it become `prior`), and evaluates the level at the period's end: below what the ended
 * period supports, it is reviewed `grace` after that end. Other windows: unchanged.
 */
export function roll(s: Standing, r: Rules, now: Date, periods: Periods = shared): Standing {
  const q = r.programme.qualification;
  if (q.window !== 'calendar') return s;
  const cur = periods.of(q.period!, now, r.timezone);
  if (s.period === cur.key) return s;
  const rolled: Standing = {
    ...s,
    prior: s.period === cur.previousKey ? s.points : 0,
    points: 0,
    period: cur.key,
  };
  if (s.period !== null && rolled.reviewAt === null && downgrades(r)) {
    const rank = currentRank(rolled, r);
    if (rank > 0 && supportedOf(rolled, r) < rank) rolled.reviewAt = after(dateOf(cur.start), r);
  }
  return rolled;
}

const levelAt = (r: Rules, rank: number) => r.programme.levels[rank]!;

const ref = (l: TierLevel): LevelRef => ({ key: l.key, name: l.name });

/** The participant's level as a reference; a key the programme no longer has, named from `previous`. */
function fromRef(s: Standing, r: Rules, previous?: Rules): LevelRef {
  const rank = rankOf(r.programme.levels, s.key);
  if (rank >= 0) return ref(levelAt(r, rank));
  const old = previous?.programme.levels.find((l) => l.key === s.key);
  return { key: s.key!, name: old?.name ?? s.key! };
}

function moveTo(
  s: Standing,
  r: Rules,
  rank: number,
  reason: TierReason,
  now: Date,
  note?: string,
  previous?: Rules,
): Outcome {
  const from = fromRef(s, r, previous);
  const to = ref(levelAt(r, rank));
  const standing: Standing = { ...s, key: rank === 0 ? null : to.key, since: now, reviewAt: null };
  return {
    standing,
    move: { from, to, reason, note: note ?? null, qualifyingPoints: qualifyingOf(standing, r), at: now },
  };
}

/** Up to the highest level the window supports (a grace ends when the level is met again). */
function upgrade(
  s: Standing,
  r: Rules,
  now: Date,
  reason: TierReason = 'qualified',
  previous?: Rules,
): Outcome {
  const rank = currentRank(s, r);
  const supported = supportedOf(s, r);
  if (supported > rank || rankOf(r.programme.levels, s.key) < 0)
    return moveTo(s, r, Math.max(supported, rank), reason, now, undefined, previous);
  if (s.reviewAt && supported >= rank) return { standing: { ...s, reviewAt: null }, move: null };
  return { standing: s, move: null };
}

/** `rolling`: a level no longer met is reviewed `grace` later (once: a review already set stands). */
function belowCheck(s: Standing, r: Rules, now: Date): Standing {
  if (r.programme.qualification.window !== 'rolling' || s.reviewAt || !downgrades(r)) return s;
  const rank = currentRank(s, r);
  return rank > 0 && supportedOf(s, r) < rank ? { ...s, reviewAt: after(now, r) } : s;
}

/**
 * A qualifying credit of `points` at `now` (a flow award, a positive adjustment, an activated
 * grant): counted in the window, and the participant goes straight to the highest level reached.
 * `lifetime`: the caller's `s.lifetime` already includes it.
 */
export function credit(s: Standing, r: Rules, now: Date, points: number, periods?: Periods): Outcome {
  const rolled = roll(s, r, now, periods);
  const counted =
    r.programme.qualification.window === 'lifetime' ? rolled : { ...rolled, points: rolled.points + points };
  return upgrade(counted, r, now);
}

/**
 * A reversal of a qualifying credit made at `creditAt`: it leaves the window if it was still in it
 * (`rolling`: the caller knows, `inWindow`; `calendar`: its period is the current or the last one).
 */
export function reverse(
  s: Standing,
  r: Rules,
  now: Date,
  points: number,
  creditAt: Date,
  inWindow: boolean,
  periods: Periods = shared,
): Standing {
  const q = r.programme.qualification;
  const rolled = roll(s, r, now, periods);
  if (q.window === 'rolling')
    return inWindow ? belowCheck({ ...rolled, points: Math.max(0, rolled.points - points) }, r, now) : rolled;
  if (q.window === 'calendar') {
    const key = periods.of(q.period!, creditAt, r.timezone).key;
    if (key === rolled.period) return { ...rolled, points: Math.max(0, rolled.points - points) };
    const cur = periods.of(q.period!, now, r.timezone);
    if (key === cur.previousKey) return { ...rolled, prior: Math.max(0, rolled.prior - points) };
  }
  return rolled;
}

/** `rolling`: credits worth `points` left the window at `now`. */
export function leave(s: Standing, r: Rules, now: Date, points: number): Standing {
  return belowCheck({ ...s, points: Math.max(0, s.points - points) }, r, now);
}

/**
 * A due review (`reviewAt` ≤ now): the level is kept when the window supports it again; otherwise
 * `one_down` drops one level and `to_qualified` to the supported one. `rolling`: a participant
 * still above what the window supports is reviewed again a grace later; `calendar`: at the next
 * period's end.
 */
export function review(s: Standing, r: Rules, now: Date, periods?: Periods): Outcome {
  const rolled = roll(s, r, now, periods);
  if (!rolled.reviewAt || rolled.reviewAt > now) return { standing: rolled, move: null };
  const rank = currentRank(rolled, r);
  const supported = supportedOf(rolled, r);
  if (!downgrades(r) || supported >= rank) return { standing: { ...rolled, reviewAt: null }, move: null };
  const target = r.programme.downgrade.policy === 'one_down' ? rank - 1 : supported;
  const out = moveTo(rolled, r, target, 'downgrade', now);
  if (r.programme.qualification.window === 'rolling' && target > supported)
    out.standing.reviewAt = after(now, r);
  return out;
}

/** An operator's move to `key`; the downgrade rules then apply to it as to any level. */
export function assign(s: Standing, r: Rules, now: Date, key: string, note: string): Outcome {
  const rank = rankOf(r.programme.levels, key);
  if (rank < 0) throw new Error(`no level ${key}`);
  const out = moveTo(roll(s, r, now), r, rank, 'manual', now, note);
  out.standing = belowCheck(out.standing, r, now);
  return out;
}

/**
 * A new programme (`r`), for one participant whose points are counted under it: up at once to
 * what it supports (or off a level it no longer has); a level it no longer supports is evaluated
 * for a downgrade when its window next evaluates it.
 */
export function reprogramme(s: Standing, r: Rules, now: Date, previous?: Rules, periods?: Periods): Outcome {
  const rolled = roll(s, r, now, periods);
  const up = upgrade(rolled, r, now, 'programme_change', previous);
  if (up.move) return up;
  return { standing: belowCheck(up.standing, r, now), move: null };
}

/** The programme ended: the participant leaves their level. */
export function leaveProgramme(s: Standing, r: Rules, now: Date): Outcome {
  const from = fromRef(s, r);
  return {
    standing: { ...s, key: null, since: null, points: 0, period: null, prior: 0, reviewAt: null },
    move: { from, to: null, reason: 'programme_change', qualifyingPoints: qualifyingOf(s, r), at: now },
  };
}

/** The factor a level applies to flow awards. */
export const earnMultiplier = (s: Standing, r: Rules) => levelAt(r, currentRank(s, r)).earn_multiplier;
