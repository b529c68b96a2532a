import { createHash } from 'node:crypto';

/** mulberry32: a small seeded PRNG; the same seed gives the same sequence on every machine. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const PARTICIPANTS = 40;
export const REWARDS = ['code', 'counted', 'external'] as const;
export type RewardKey = (typeof REWARDS)[number];

/** Where an idempotency key travels: the `Idempotency-Key` header, the body, or nowhere. */
export type KeyPlace = 'header' | 'body' | 'none';

/**
 * Workouts (the `daily-workout` streak's events) go to the first WORKOUT_PARTICIPANTS only, so
 * each of them has several; half of those take their periods in a time zone far east of UTC,
 * half far west.
 */
export const WORKOUT_PARTICIPANTS = 12;
export const WORKOUT_TIMEZONES = ['Pacific/Kiritimati', 'America/Adak'] as const;

/**
 * When a workout happened: `daysAgo` days before the op's first send (`at` ms after the load
 * starts), the same on its repeats, so a repeat's body is the original's.
 */
export interface Occurred {
  at: number;
  daysAgo: number;
}

/**
 * Referrals (docs/referrals.md) under the faults: ADVOCATES advocates `a0`.. (made in the setup,
 * their codes read from the API), each with the e-mail `a<k>@example.com`; a friend `f<i>` signs
 * up every FRIEND_EVERY_MS in the first 80% of the run with a check-in carrying an advocate's code
 * (picked by ADVOCATE_WEIGHTS; a tenth with that advocate's e-mail: blocked `same_email`), most
 * make a purchase (the qualifying type) a few seconds later, a tenth of those only after the
 * qualification window; some are cancelled during the hold, some twice at once. Three advocates
 * send their own code (`self_referral`), three events of existing participants carry one
 * (`existing_participant`). The advocate limit is what blocks the busiest advocates
 * (`limit_reached`).
 */
export const ADVOCATES = 3;
const ADVOCATE_WEIGHTS = [0.4, 0.35, 0.25];
const FRIEND_EVERY_MS = 3000;
export const REFERRAL_WINDOW_S = 20;
export const REFERRAL_HOLD_S = 4;

/**
 * Integrators' load (docs/chaos.md; the batch and replay APIs, docs/api.md#batch-ingest and
 * #replay), from a PRNG of its own: events sent in batches of 2 to 150 (most under 10), about one
 * every 3 s, to
 * `p0`..`p39`, their keys in the items; some items repeat an earlier item of their batch (key and
 * body: answered as a replay of it), some an item of an earlier batch; `signup` items carry a
 * `plan` the type's JSON Schema checks: `basic`/`pro` pass, `gold` is quarantined until the schema
 * is fixed (`fix_schema`, once, 55-65% into the run), `platinum` always. Quarantined events are
 * replayed one at a time with a fixed plan (`replay_event`; some retried, some twice at once, some
 * with a fix that still fails, some a second time with another fix: a 409 once the first landed),
 * and in bulk (`replay_bulk`): once before the fix (the `gold` ones quarantined again, as their
 * replays), twice at once right after it, then every 12-20 s; the last bulk replay (`final`) is
 * retried until answered.
 */
export const SIGNUP_PLANS = { valid: ['basic', 'pro'], fixed: ['gold'], invalid: ['platinum'] } as const;
export type Plan = 'basic' | 'pro' | 'gold' | 'platinum';

/** One item of a batch: its event; `same` names an earlier item of the batch it repeats whole. */
export interface BatchItem {
  type: 'purchase' | 'checkin' | 'signup';
  participant: string;
  key: string | null;
  plan?: Plan;
  /** The body's `payload.seq`: the op that first sent this item (an item repeated later keeps it). */
  seq: number;
  /** Its position in the batch that first sent it. */
  item: number;
  same?: number;
}

export type LoadOp =
  | {
      kind: 'event';
      type: 'purchase' | 'checkin' | 'workout';
      participant: string;
      key: string | null;
      keyIn: KeyPlace;
      /** Workouts only: when it happened, and the time zone its participant's periods are taken in. */
      occurred?: Occurred;
      timezone?: string;
      /** The code of this advocate (index into the run's advocates) in the participant object. */
      referral?: { advocate: number };
      /** The participant object's e-mail, when not `<participant>@example.com`. */
      email?: string;
    }
  | { kind: 'adjust'; participant: string; points: number; key: string | null; keyIn: KeyPlace }
  | { kind: 'reverse'; pick: number }
  | { kind: 'redeem'; participant: string; reward: RewardKey; key: string | null; keyIn: KeyPlace }
  | { kind: 'erase'; participant: string }
  /** POST /v1/referrals/{id}/cancel of the referral whose friend is `friend`, if it is qualified. */
  | { kind: 'cancel_referral'; friend: string }
  /** POST /v1/events/batch of the items, in order. */
  | { kind: 'batch'; items: BatchItem[]; key: string | null }
  /**
   * POST /v1/events/{id}/replay of a quarantined event the load saw (`pick` modulo their number;
   * `target` names an earlier op whose event to replay again), with `plan` as the fix.
   */
  | { kind: 'replay_event'; pick: number; target: number | null; plan: Plan }
  /** PUT the `signup` schema that also accepts `gold` (retried until answered 200). */
  | { kind: 'fix_schema' }
  /** POST /v1/events/replay of the `signup` events; `final`: retried until answered 202. */
  | { kind: 'replay_bulk'; final: boolean };

export interface ScheduledOp {
  /** ms after the load starts */
  at: number;
  seq: number;
  op: LoadOp;
  /** Destroy the client socket this many ms after the request is sent (the outcome is then unknown). */
  dropAfterMs: number | null;
  /** A deliberate repeat of the op with this seq (same body, same key). */
  repeatOf: number | null;
}

export type Fault =
  | { at: number; kind: 'kill'; target: 'api0' | 'api1' | 'worker0' | 'worker1' }
  | { at: number; kind: 'restart_postgres'; downMs: number }
  | { at: number; kind: 'pause_subscription'; resumeAfterMs: number }
  | { at: number; kind: 'replay_dead'; limit: number };

export interface Schedule {
  seed: number;
  durationMs: number;
  ops: ScheduledOp[];
  faults: Fault[];
  /** The referral programme's advocate limit (per day): about a third of the friends' sign-ups. */
  referralLimit: number;
  hash: string;
}

/** Load ops per second: moderate, so a loaded 2-core machine runs the whole cluster beside it. */
export const OPS_PER_SECOND = 8;

/**
 * The whole run, decided up front from the seed: every request (kind, participant, amount, key,
 * whether its socket is dropped, whether and when it is repeated) and every fault (which process
 * is SIGKILLed when, when Postgres restarts, subscription pauses, replays). Nothing later draws
 * from the PRNG, so the same seed gives the same schedule, whose hash is printed at start.
 */
export function buildSchedule(seed: number, durationS: number): Schedule {
  const rnd = mulberry32(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const durationMs = durationS * 1000;
  const participant = () => `p${int(0, PARTICIPANTS - 1)}`;
  const keyIn = (pKeyed: number): KeyPlace => (rnd() < pKeyed ? (rnd() < 0.5 ? 'header' : 'body') : 'none');

  const ops: ScheduledOp[] = [];
  let seq = 0;
  for (
    let at = 500;
    at < durationMs;
    at += Math.max(1, Math.round((-Math.log(1 - rnd()) * 1000) / OPS_PER_SECOND))
  ) {
    const r = rnd();
    let op: LoadOp;
    const s = seq;
    if (r < 0.45) {
      const k = keyIn(0.85);
      const t = rnd();
      const type = t < 0.55 ? 'purchase' : t < 0.8 ? 'checkin' : 'workout';
      const key = k === 'none' ? null : `ev-${seed}-${s}`;
      if (type === 'workout') {
        // Three or two days back in the first half of the run, then today or yesterday: a streak
        // begun three days back is broken by the workers' streak job (two missed days, one freeze),
        // one begun two days back spends its freeze, and both are extended again today.
        const w = int(0, WORKOUT_PARTICIPANTS - 1);
        const daysAgo = at < durationMs / 2 ? (rnd() < 0.6 ? 3 : 2) : rnd() < 0.7 ? 0 : 1;
        op = {
          kind: 'event',
          type,
          participant: `p${w}`,
          key,
          keyIn: k,
          occurred: { at, daysAgo },
          timezone: WORKOUT_TIMEZONES[w % WORKOUT_TIMEZONES.length]!,
        };
      } else op = { kind: 'event', type, participant: participant(), key, keyIn: k };
    } else if (r < 0.65) {
      const k = keyIn(0.7);
      op = {
        kind: 'adjust',
        participant: participant(),
        points: rnd() < 0.75 ? int(10, 120) : -int(5, 60),
        key: k === 'none' ? null : `adj-${seed}-${s}`,
        keyIn: k,
      };
    } else if (r < 0.72) {
      op = { kind: 'reverse', pick: int(0, 1_000_000) };
    } else if (r < 0.985) {
      const k = keyIn(0.7);
      op = {
        kind: 'redeem',
        participant: participant(),
        reward: pick(REWARDS),
        key: k === 'none' ? null : `red-${seed}-${s}`,
        keyIn: k,
      };
    } else {
      op = { kind: 'erase', participant: participant() };
    }
    const dropAfterMs = rnd() < 0.06 ? int(0, 30) : null;
    ops.push({ at, seq: seq++, op, dropAfterMs, repeatOf: null });
    // Keyed writes are repeated on purpose (a client retrying), always after a dropped socket,
    // sometimes at once (a concurrent duplicate), sometimes seconds later.
    const keyed = 'key' in op && op.key !== null;
    if (keyed && (dropAfterMs !== null || rnd() < 0.2)) {
      const later = rnd() < 0.4 ? int(0, 20) : int(200, 4000);
      ops.push({ at: at + later, seq: seq++, op, dropAfterMs: null, repeatOf: s });
    }
  }
  const referrals = referralOps(seed, durationMs, seq);
  ops.push(...referrals.ops);
  ops.push(...integratorOps(seed, durationMs, seq + referrals.count));
  ops.sort((a, b) => a.at - b.at || a.seq - b.seq);

  const faults: Fault[] = [];
  const targets = ['api0', 'api1', 'worker0', 'worker1'] as const;
  for (let at = int(4000, 8000); at < durationMs - 3000; at += int(4000, 8000))
    faults.push({ at, kind: 'kill', target: pick(targets) });
  faults.push({
    at: Math.round(durationMs * (0.4 + 0.2 * rnd())),
    kind: 'restart_postgres',
    downMs: int(1000, 3000),
  });
  for (let at = int(8000, 15000); at < durationMs - 5000; at += int(15000, 25000))
    faults.push({ at, kind: 'pause_subscription', resumeAfterMs: int(1000, 4000) });
  for (let at = int(10000, 20000); at < durationMs; at += int(12000, 20000))
    faults.push({ at, kind: 'replay_dead', limit: int(2, 6) });
  faults.sort((a, b) => a.at - b.at);

  const hash = createHash('sha256')
    .update(JSON.stringify({ seed, durationMs, ops, faults, referralLimit: referrals.limit }))
    .digest('hex')
    .slice(0, 16);
  return { seed, durationMs, ops, faults, referralLimit: referrals.limit, hash };
}

/**
 * The referral load (see ADVOCATES), from a PRNG of its own, so the rest of the schedule is the
 * one the seed gave before referrals; its ops are numbered from `firstSeq` on.
 */
function referralOps(
  seed: number,
  durationMs: number,
  firstSeq: number,
): { ops: ScheduledOp[]; limit: number; count: number } {
  const rnd = mulberry32(seed ^ 0x2e4e7a1);
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const keyIn = (pKeyed: number): KeyPlace => (rnd() < pKeyed ? (rnd() < 0.5 ? 'header' : 'body') : 'none');
  const advocate = () => {
    const r = rnd();
    let below = 0;
    for (let k = 0; k < ADVOCATES; k++) {
      below += ADVOCATE_WEIGHTS[k]!;
      if (r < below) return k;
    }
    return ADVOCATES - 1;
  };
  const ops: ScheduledOp[] = [];
  let seq = firstSeq;
  /** An op, with the repeats a keyed one gets as in the main load (always after a dropped socket). */
  const push = (at: number, op: LoadOp) => {
    const s = seq++;
    const keyed = 'key' in op && op.key !== null;
    const dropAfterMs = rnd() < 0.06 ? int(0, 30) : null;
    ops.push({ at, seq: s, op, dropAfterMs, repeatOf: null });
    if (keyed && (dropAfterMs !== null || rnd() < 0.2)) {
      const later = rnd() < 0.4 ? int(0, 20) : int(200, 4000);
      ops.push({ at: at + later, seq: seq++, op, dropAfterMs: null, repeatOf: s });
    }
    return s;
  };
  const event = (
    at: number,
    type: 'purchase' | 'checkin',
    participant: string,
    extra: { referral?: { advocate: number }; email?: string } = {},
  ) => {
    const k = keyIn(0.85);
    // `push` numbers this op `seq`: the key is named after it, as in the main load.
    const key = k === 'none' ? null : `ev-${seed}-${seq}`;
    return push(at, { kind: 'event', type, participant, key, keyIn: k, ...extra });
  };

  let friends = 0;
  for (let at = int(1500, 3000); at < durationMs * 0.8; at += FRIEND_EVERY_MS + int(-1000, 1000)) {
    const friend = `f${friends++}`;
    const k = advocate();
    event(at, 'checkin', friend, {
      referral: { advocate: k },
      ...(rnd() < 0.1 ? { email: `a${k}@example.com` } : {}),
    });
    if (rnd() >= 0.8) continue;
    // The qualifying purchase: within the window, or (a tenth) after it.
    const inTime = rnd() < 0.9;
    const buys =
      at + (inTime ? int(1500, 9000) : int((REFERRAL_WINDOW_S + 1) * 1000, (REFERRAL_WINDOW_S + 6) * 1000));
    event(buys, 'purchase', friend);
    // A second purchase changes nothing for the referral.
    if (rnd() < 0.2) event(buys + int(500, 5000), 'purchase', friend);
    // Cancelled during the hold (mostly: the purchase is processed first), sometimes twice at once.
    if (inTime && rnd() < 0.5) {
      const cancelAt = buys + int(500, (REFERRAL_HOLD_S - 1) * 1000);
      const cancel: LoadOp = { kind: 'cancel_referral', friend };
      const c = push(cancelAt, cancel);
      if (rnd() < 0.3)
        ops.push({ at: cancelAt + int(0, 20), seq: seq++, op: cancel, dropAfterMs: null, repeatOf: c });
    }
  }
  // Guards beside the friends: advocates sending their own code, existing participants one.
  for (let k = 0; k < ADVOCATES; k++)
    event(int(durationMs * 0.1, durationMs * 0.7), 'checkin', `a${k}`, { referral: { advocate: k } });
  for (let i = 0; i < 3; i++)
    event(int(durationMs * 0.4, durationMs * 0.8), 'checkin', `p${int(0, PARTICIPANTS - 1)}`, {
      referral: { advocate: int(0, ADVOCATES - 1) },
    });
  // What falls past the run's end is not sent (a repeat comes after its original).
  return {
    ops: ops.filter((o) => o.at < durationMs),
    limit: Math.max(2, Math.ceil(friends * 0.3)),
    count: seq - firstSeq,
  };
}

/** Batches, quarantines and replays (see SIGNUP_PLANS), from a PRNG of its own, numbered from `firstSeq`. */
function integratorOps(seed: number, durationMs: number, firstSeq: number): ScheduledOp[] {
  const rnd = mulberry32(seed ^ 0x5b1a7c3);
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const ops: ScheduledOp[] = [];
  let seq = firstSeq;
  /** An op, with the repeats a keyed one gets as in the main load (always after a dropped socket). */
  const push = (at: number, op: LoadOp, keyed: boolean) => {
    const s = seq++;
    const dropAfterMs = rnd() < 0.06 ? int(0, 30) : null;
    ops.push({ at, seq: s, op, dropAfterMs, repeatOf: null });
    if (keyed && (dropAfterMs !== null || rnd() < 0.2)) {
      const later = rnd() < 0.4 ? int(0, 20) : int(200, 4000);
      ops.push({ at: at + later, seq: seq++, op, dropAfterMs: null, repeatOf: s });
    }
    return s;
  };
  const plan = (): Plan => {
    const r = rnd();
    return r < 0.5 ? pick(SIGNUP_PLANS.valid) : r < 0.8 ? 'gold' : 'platinum';
  };

  // Batches: about one every 3 s, from 1-2 s to the end.
  const sent: BatchItem[] = [];
  let bigSent = false;
  for (
    let at = int(1000, 2000);
    at < durationMs;
    at += Math.max(200, Math.round(-Math.log(1 - rnd()) * 3000))
  ) {
    const r = rnd();
    // One batch of 100-150 at least, the first past 30% of the run.
    const big: boolean = r >= 0.98 || (!bigSent && at > durationMs * 0.3);
    bigSent ||= big;
    const size = big ? int(100, 150) : r < 0.72 ? int(2, 9) : int(10, 40);
    const s = seq;
    const items: BatchItem[] = [];
    for (let j = 0; j < size; j++) {
      const q = rnd();
      if (j > 0 && q < 0.08) {
        // An item of this batch twice: with a key, answered as a replay of the first; without
        // one, a second event with the same body.
        const same = int(0, j - 1);
        const first = items[same]!;
        items.push(first.key === null ? { ...first, item: j } : { ...first, same });
        continue;
      }
      if (sent.length && q < 0.12) {
        // An item of an earlier batch, sent again (a client resending what it is not sure of).
        const earlier = pick(sent);
        if (earlier.key !== null) {
          items.push({ ...earlier, same: undefined });
          continue;
        }
      }
      const t = rnd();
      const type = t < 0.35 ? 'signup' : t < 0.75 ? 'checkin' : 'purchase';
      items.push({
        type,
        participant: `p${int(0, PARTICIPANTS - 1)}`,
        key: rnd() < 0.85 ? `bat-${seed}-${s}-${j}` : null,
        ...(type === 'signup' ? { plan: plan() } : {}),
        seq: s,
        item: j,
      });
    }
    for (const it of items) if (it.seq === s && it.same === undefined && it.key !== null) sent.push(it);
    const keyed = items.some((it) => it.key !== null);
    push(at, { kind: 'batch', items, key: keyed ? `bat-${seed}-${s}` : null }, keyed);
  }

  // Replays of one quarantined event with a fix: about one every 3 s from 15% of the run.
  for (let at = int(durationMs * 0.15, durationMs * 0.2); at < durationMs * 0.95; at += int(1500, 4500)) {
    const r = rnd();
    const fix: Plan = r < 0.15 ? 'platinum' : pick(SIGNUP_PLANS.valid);
    const s = push(at, { kind: 'replay_event', pick: int(0, 1_000_000), target: null, plan: fix }, true);
    // The same event again with another fix: a 409 once the first replay landed.
    if (rnd() < 0.12)
      push(
        at + int(300, 3000),
        { kind: 'replay_event', pick: 0, target: s, plan: fix === 'pro' ? 'basic' : 'pro' },
        false,
      );
  }

  // Bulk replays: once before the schema is fixed, twice at once right after, then every 12-20 s;
  // the last one is retried until answered.
  const fixAt = Math.round(durationMs * (0.55 + 0.1 * rnd()));
  push(Math.round(durationMs * (0.3 + 0.1 * rnd())), { kind: 'replay_bulk', final: false }, false);
  push(fixAt, { kind: 'fix_schema' }, false);
  const after = fixAt + int(1000, 3000);
  push(after, { kind: 'replay_bulk', final: false }, false);
  push(after + int(0, 20), { kind: 'replay_bulk', final: false }, false);
  for (let at = after + int(12000, 20000); at < durationMs * 0.9; at += int(12000, 20000))
    push(at, { kind: 'replay_bulk', final: false }, false);
  push(Math.round(durationMs * 0.93), { kind: 'replay_bulk', final: true }, false);
  return ops.filter((o) => o.at < durationMs);
}
