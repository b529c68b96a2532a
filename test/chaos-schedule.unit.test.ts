import { describe, expect, it } from 'vitest';
import { ADVOCATES, buildSchedule, mulberry32, WORKOUT_PARTICIPANTS } from '../scripts/chaos/schedule.ts';

describe('chaos schedule', () => {
  it('is a function of the seed: the same seed gives the same ops, faults and hash', () => {
    const a = buildSchedule(42, 120);
    const b = buildSchedule(42, 120);
    expect(b).toEqual(a);
    expect(buildSchedule(43, 120).hash).not.toBe(a.hash);
  });

  it('holds every kind of load and fault, in time order, within the duration', () => {
    const s = buildSchedule(20261125, 120);
    const kinds = new Set(s.ops.map((o) => o.op.kind));
    expect([...kinds].sort()).toEqual([
      'adjust',
      'batch',
      'cancel_referral',
      'erase',
      'event',
      'fix_schema',
      'redeem',
      'replay_bulk',
      'replay_event',
      'reverse',
    ]);
    expect(s.ops.some((o) => o.repeatOf !== null)).toBe(true);
    // Workouts dated three or two days back in the first half, then today or yesterday, all of the first participants.
    const workouts = s.ops.flatMap((o) => (o.op.kind === 'event' && o.op.type === 'workout' ? [o.op] : []));
    const daysAgo = (half: (at: number) => boolean) =>
      new Set(workouts.filter((w) => half(w.occurred!.at)).map((w) => w.occurred!.daysAgo));
    expect(daysAgo((at) => at < 60_000)).toEqual(new Set([2, 3]));
    expect(daysAgo((at) => at >= 60_000)).toEqual(new Set([0, 1]));
    expect(new Set(workouts.map((w) => w.participant)).size).toBe(WORKOUT_PARTICIPANTS);
    expect(s.ops.some((o) => o.dropAfterMs !== null)).toBe(true);
    // Every dropped keyed op is retried with the same key.
    for (const o of s.ops.filter((x) => x.dropAfterMs !== null && 'key' in x.op && x.op.key))
      expect(s.ops.some((r) => r.repeatOf === o.seq)).toBe(true);
    expect(s.faults.filter((f) => f.kind === 'restart_postgres')).toHaveLength(1);
    expect(s.faults.filter((f) => f.kind === 'kill').length).toBeGreaterThan(10);
    const at = s.ops.map((o) => o.at);
    expect(at).toEqual([...at].sort((x, y) => x - y));
    expect(Math.max(...s.faults.map((f) => f.at))).toBeLessThan(120_000);
  });

  it('refers friends with every advocate’s code, qualifies most after their sign-up, cancels some', () => {
    const s = buildSchedule(20261125, 120);
    const first = (p: (o: (typeof s.ops)[number]) => boolean) =>
      s.ops.filter((o) => o.repeatOf === null && p(o));
    const signups = first(
      (o) => o.op.kind === 'event' && o.op.type === 'checkin' && o.op.participant.startsWith('f'),
    );
    expect(signups.length).toBeGreaterThan(20);
    expect(signups.every((o) => o.op.kind === 'event' && o.op.type === 'checkin' && o.op.referral)).toBe(
      true,
    );
    const by = (o: (typeof s.ops)[number]) => (o.op.kind === 'event' ? o.op.referral?.advocate : undefined);
    expect(new Set(signups.map(by))).toEqual(new Set(Array.from({ length: ADVOCATES }, (_, k) => k)));
    // Some with their advocate's e-mail; the busiest advocate over the limit.
    expect(signups.some((o) => o.op.kind === 'event' && o.op.email === `a${by(o)}@example.com`)).toBe(true);
    expect(signups.filter((o) => by(o) === 0).length).toBeGreaterThan(s.referralLimit);
    // Each friend's purchases come after their sign-up; each cancel after a purchase.
    const signedUpAt = new Map(signups.map((o) => [o.op.kind === 'event' && o.op.participant, o.at]));
    const purchases = first(
      (o) => o.op.kind === 'event' && o.op.type === 'purchase' && o.op.participant.startsWith('f'),
    );
    expect(purchases.length).toBeGreaterThan(signups.length / 2);
    for (const p of purchases)
      expect(p.at).toBeGreaterThan(signedUpAt.get(p.op.kind === 'event' && p.op.participant)!);
    const cancels = first((o) => o.op.kind === 'cancel_referral');
    expect(cancels.length).toBeGreaterThan(3);
    for (const c of cancels) {
      const friend = c.op.kind === 'cancel_referral' ? c.op.friend : '';
      expect(purchases.some((p) => p.op.kind === 'event' && p.op.participant === friend && p.at < c.at)).toBe(
        true,
      );
    }
    // Advocates' own codes and existing participants' events carrying one.
    expect(
      first((o) => o.op.kind === 'event' && o.op.participant.startsWith('a') && !!o.op.referral),
    ).toHaveLength(ADVOCATES);
    expect(
      first((o) => o.op.kind === 'event' && o.op.participant.startsWith('p') && !!o.op.referral),
    ).toHaveLength(3);
  });

  it('sends batches of various sizes with repeated keys and quarantined items, and replays them one by one and in bulk', () => {
    const s = buildSchedule(20261125, 120);
    const first = s.ops.filter((o) => o.repeatOf === null);
    const batches = first.flatMap((o) => (o.op.kind === 'batch' ? [o.op.items] : []));
    expect(batches.length).toBeGreaterThan(25);
    const sizes = batches.map((b) => b.length);
    expect(Math.min(...sizes)).toBeLessThan(5);
    expect(Math.max(...sizes)).toBeGreaterThanOrEqual(100);
    const items = batches.flat();
    // Items repeating one of their batch (by key), and items of an earlier batch sent again.
    expect(items.filter((i) => i.same !== undefined).length).toBeGreaterThan(3);
    for (const b of batches)
      b.forEach((i, j) => {
        if (i.same !== undefined) expect(b[i.same]!.key).toBe(i.key);
        if (i.same !== undefined) expect(i.same).toBeLessThan(j);
      });
    const firstIn = new Map<string, number>();
    let resent = 0;
    batches.forEach((b, k) => {
      for (const i of b) {
        if (i.key === null) continue;
        const at = firstIn.get(i.key);
        if (at === undefined) firstIn.set(i.key, k);
        else if (at < k) resent++;
      }
    });
    expect(resent).toBeGreaterThan(3);
    // Signups the schema passes, refuses until its fix, refuses always.
    const plans = new Set(items.filter((i) => i.type === 'signup').map((i) => i.plan));
    expect(plans).toEqual(new Set(['basic', 'pro', 'gold', 'platinum']));
    // Some batches are sent again whole (the same items and keys).
    expect(s.ops.some((o) => o.op.kind === 'batch' && o.repeatOf !== null)).toBe(true);
    // One schema fix; bulk replays before and after it (two at once right after), the last one final.
    const fix = first.filter((o) => o.op.kind === 'fix_schema');
    expect(fix).toHaveLength(1);
    const bulk = first.filter((o) => o.op.kind === 'replay_bulk');
    expect(bulk.some((o) => o.at < fix[0]!.at)).toBe(true);
    expect(bulk.filter((o) => o.at > fix[0]!.at).length).toBeGreaterThanOrEqual(3);
    expect(bulk.filter((o) => o.op.kind === 'replay_bulk' && o.op.final)).toHaveLength(1);
    expect(bulk.at(-1)!.op).toEqual({ kind: 'replay_bulk', final: true });
    // Single replays with a fix, some retried, some again with another fix.
    const single = s.ops.filter((o) => o.op.kind === 'replay_event');
    expect(single.filter((o) => o.repeatOf === null).length).toBeGreaterThan(15);
    expect(single.some((o) => o.repeatOf !== null)).toBe(true);
    expect(single.some((o) => o.op.kind === 'replay_event' && o.op.target !== null)).toBe(true);
  });

  it('leaves the rest of the schedule as the seed gave it before the integrators’ load', () => {
    const s = buildSchedule(20261125, 120);
    const added = new Set(['batch', 'replay_event', 'fix_schema', 'replay_bulk']);
    // The integrators' ops are numbered after every other op.
    const maxOther = Math.max(...s.ops.filter((o) => !added.has(o.op.kind)).map((o) => o.seq));
    const minAdded = Math.min(...s.ops.filter((o) => added.has(o.op.kind)).map((o) => o.seq));
    expect(minAdded).toBeGreaterThan(maxOther);
  });

  it('mulberry32 is deterministic and uniform enough', () => {
    const r = mulberry32(1);
    const xs = Array.from({ length: 10_000 }, r);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.02);
    expect(mulberry32(1)()).toBe(xs[0]);
  });
});
