import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runStreakTick } from '../src/services/streaks/tick.ts';
import { buildFlow, outboxOf } from './factories.ts';
import { eventually, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

// Streaks and windowed conditions (docs/engagement.md) against the real Postgres. Periods are
// driven by events' own `occurred_at` and by running the streak job with a chosen `now`; the
// app's own one-second tick is checked once, on a streak whose period ended days ago.

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ env: { LOYALTY_TICK_SECONDS: '1' } });
});
afterAll(() => app?.close());

let seq = 0;
const uid = (p: string) => `${p}-${++seq}-${Date.now().toString(36)}`;

const defineStreak = async (ws: TestWorkspace, over: Record<string, unknown> = {}) => {
  const key = (over.key as string) ?? uid('s');
  const r = await ws.api('/v1/streaks', {
    body: { key, name: 'Daily workout', event_types: ['workout'], frequency: 'daily', ...over },
  });
  expect(r.status, r.text).toBe(201);
  return key;
};

/** Sends one event and waits for it to be processed. */
const send = async (
  ws: TestWorkspace,
  participant: string | Record<string, unknown>,
  occurredAt: string,
  type = 'workout',
  payload: Record<string, unknown> = {},
) => {
  const r = await ws.api('/v1/events', {
    body: { event_type: type, participant, payload, occurred_at: occurredAt },
  });
  expect(r.status, r.text).toBe(202);
  const id = r.body.event_id as string;
  return eventually(async () => {
    const e = await ws.api(`/v1/events/${id}`);
    return e.body.status === 'processed' ? e.body : null;
  }, 15_000);
};

const streaksOf = async (ws: TestWorkspace, p: string) => {
  const r = await ws.api(`/v1/participants/${p}/streaks`);
  expect(r.status, r.text).toBe(200);
  return r.body.data as Record<string, any>[];
};

const streakOf = async (ws: TestWorkspace, p: string, key: string) =>
  (await streaksOf(ws, p)).find((s) => s.key === key)!;

/** The stored row (what the job and the engine wrote), not the read's view of it at now. */
const stored = async (ws: TestWorkspace, p: string, key: string) => {
  const { rows } = await app.ctx.pool.query(
    `select ps.length, ps.longest, ps.freezes, ps.history, ps.due_at
       from participant_streaks ps join streaks s on s.id = ps.streak_id
       join participants p on p.id = ps.participant_id
      where s.workspace_id = $1 and s.key = $2 and p.external_id = $3`,
    [ws.id, key, p],
  );
  return rows[0] as Record<string, any> | undefined;
};

const statuses = (h: { period_start: string; status: string }[]) =>
  h.map((x) => `${x.period_start}:${x.status}`);

describe('streak definitions: /v1/streaks', () => {
  it('creates, lists, reads, changes and archives; refuses bad input with the field named', async () => {
    const ws = await app.workspace();
    const bad = async (body: Record<string, unknown>, field: string) => {
      const r = await ws.api('/v1/streaks', { body });
      expect(r.status, r.text).toBe(422);
      expect(r.body.error.errors.map((e: { field: string }) => e.field)).toContain(field);
    };
    const base = { key: 'daily', name: 'Daily', event_types: ['workout'], frequency: 'daily' };
    await bad({ ...base, frequency: 'hourly' }, 'frequency');
    await bad({ ...base, event_types: [] }, 'event_types');
    await bad({ ...base, freezes: { initial: 3, max: 2 } }, 'freezes.initial');
    await bad({ ...base, freezes: { initial: 0, max: 11 } }, 'freezes.max');
    await bad({ ...base, key: 'bad key' }, 'key');
    await bad({ ...base, colour: 'red' }, '(body)');

    await defineStreak(ws, { ...base, freezes: { initial: 1, max: 3, earn_every: 7 } });
    await bad(base, 'key');
    const list = await ws.api('/v1/streaks');
    expect(list.body.data).toEqual([
      expect.objectContaining({
        key: 'daily',
        frequency: 'daily',
        event_types: ['workout'],
        freezes: { initial: 1, max: 3, earn_every: 7 },
        archived_at: null,
      }),
    ]);
    const patched = await ws.api('/v1/streaks/daily', {
      method: 'PATCH',
      body: { name: 'Every day', event_types: ['workout', 'run'] },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({
      name: 'Every day',
      event_types: ['workout', 'run'],
      frequency: 'daily',
    });
    const refused = await ws.api('/v1/streaks/daily', { method: 'PATCH', body: { frequency: 'weekly' } });
    expect(refused.status).toBe(422);
    expect((await ws.api('/v1/streaks/nope')).status).toBe(404);

    const archived = await ws.api('/v1/streaks/daily', { method: 'DELETE' });
    expect(archived.status, archived.text).toBe(200);
    expect(archived.body.archived_at).toEqual(expect.any(String));
    expect((await ws.api('/v1/streaks')).body.data).toEqual([]);
    expect((await ws.api('/v1/streaks?include_archived=true')).body.data).toHaveLength(1);
    expect((await ws.api('/v1/streaks/daily')).body.archived_at).toEqual(expect.any(String));
  });
});

describe('extending a streak', () => {
  it('extends once per period, ignores earlier periods, restarts after a miss, and emits each change once', async () => {
    const ws = await app.workspace();
    const key = await defineStreak(ws);
    const p = uid('p');
    await send(ws, p, '2031-11-01T10:00:00Z');
    await send(ws, p, '2031-11-01T18:00:00Z'); // same day: no change
    await send(ws, p, '2031-11-02T10:00:00Z');
    await send(ws, p, '2031-11-03T10:00:00Z');
    await send(ws, p, '2031-11-02T23:00:00Z'); // an earlier period: nothing
    await send(ws, p, '2031-11-03T12:00:00Z', 'other.type'); // not this streak's type
    let row = await stored(ws, p, key);
    expect(row).toMatchObject({ length: 3, longest: 3, freezes: 0 });
    expect(statuses(row!.history)).toEqual([
      '2031-11-01:extended',
      '2031-11-02:extended',
      '2031-11-03:extended',
    ]);
    // The period after the last extended one ends at the start of Nov 5 (UTC): the job looks then.
    expect(new Date(row!.due_at).toISOString()).toBe('2031-11-05T00:00:00.000Z');

    await send(ws, p, '2031-11-06T09:00:00Z'); // Nov 4 and 5 missed, no freeze: restart at 1
    row = await stored(ws, p, key);
    expect(row).toMatchObject({ length: 1, longest: 3 });
    expect(statuses(row!.history).slice(-3)).toEqual([
      '2031-11-04:missed',
      '2031-11-05:missed',
      '2031-11-06:extended',
    ]);

    const extended = await outboxOf(app, ws, 'streak.extended');
    expect(extended.map((d) => d.streak.length)).toEqual([1, 2, 3, 1]);
    expect(extended[2]).toEqual({
      participant: { external_id: p },
      streak: { key, length: 3, longest: 3, freezes: 0 },
    });
    const broken = await outboxOf(app, ws, 'streak.broken');
    expect(broken).toEqual([
      { participant: { external_id: p }, streak: { key, length: 0, longest: 3, freezes: 0 } },
    ]);
  });

  it('covers missed periods with freezes, one each, and earns a freeze every earn_every extensions up to max', async () => {
    const ws = await app.workspace();
    const key = await defineStreak(ws, { freezes: { initial: 1, max: 2, earn_every: 2 } });
    const p = uid('p');
    await send(ws, p, '2031-10-01T10:00:00Z'); // 1, earned 1
    await send(ws, p, '2031-10-02T10:00:00Z'); // 2, earns a freeze: 2
    await send(ws, p, '2031-10-04T10:00:00Z'); // Oct 3 frozen (1 left), 3
    let row = await stored(ws, p, key);
    expect(row).toMatchObject({ length: 3, freezes: 1 });
    expect(statuses(row!.history)).toEqual([
      '2031-10-01:extended',
      '2031-10-02:extended',
      '2031-10-03:frozen',
      '2031-10-04:extended',
    ]);
    await send(ws, p, '2031-10-05T10:00:00Z'); // 4, earns one: 2 (max)
    await send(ws, p, '2031-10-06T10:00:00Z'); // 5
    await send(ws, p, '2031-10-07T10:00:00Z'); // 6, would earn one: still 2 (max)
    row = await stored(ws, p, key);
    expect(row).toMatchObject({ length: 6, longest: 6, freezes: 2 });
    await send(ws, p, '2031-10-11T10:00:00Z'); // Oct 8, 9 frozen, Oct 10 breaks it: restart at 1
    row = await stored(ws, p, key);
    expect(row).toMatchObject({ length: 1, longest: 6, freezes: 0 });
    expect(statuses(row!.history).slice(-4)).toEqual([
      '2031-10-08:frozen',
      '2031-10-09:frozen',
      '2031-10-10:missed',
      '2031-10-11:extended',
    ]);
  });

  it('takes periods in the participant’s own time zone, on both sides of the date line', async () => {
    const ws = await app.workspace();
    const key = await defineStreak(ws);
    const east = uid('kiritimati'); // UTC+14
    const west = uid('pago'); // UTC-11
    const utc = uid('utc');
    // 09:00Z and 10:30Z: in Kiritimati 23:00 and 00:30 the next day; in Pago Pago 22:00 and 23:30 the day before.
    await send(ws, { external_id: east, timezone: 'Pacific/Kiritimati' }, '2031-11-10T09:00:00Z');
    await send(ws, east, '2031-11-10T10:30:00Z');
    await send(ws, { external_id: west, timezone: 'Pacific/Pago_Pago' }, '2031-11-10T09:00:00Z');
    await send(ws, west, '2031-11-10T10:30:00Z');
    await send(ws, utc, '2031-11-10T09:00:00Z');
    await send(ws, utc, '2031-11-10T10:30:00Z');
    expect(statuses((await stored(ws, east, key))!.history)).toEqual([
      '2031-11-10:extended',
      '2031-11-11:extended',
    ]);
    expect(statuses((await stored(ws, west, key))!.history)).toEqual(['2031-11-09:extended']);
    expect(statuses((await stored(ws, utc, key))!.history)).toEqual(['2031-11-10:extended']);
    // The participant object carries the time zone; PATCH changes it; a name Temporal does not know is a 422.
    expect((await ws.api(`/v1/participants/${east}`)).body.timezone).toBe('Pacific/Kiritimati');
    const patched = await ws.api(`/v1/participants/${utc}`, {
      method: 'PATCH',
      body: { timezone: 'Asia/Tokyo' },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.timezone).toBe('Asia/Tokyo');
    const bad = await ws.api(`/v1/participants/${utc}`, {
      method: 'PATCH',
      body: { timezone: 'Mars/Olympus' },
    });
    expect(bad.status).toBe(422);
    const badEvent = await ws.api('/v1/events', {
      body: { event_type: 'workout', participant: { external_id: utc, timezone: 'Nowhere/Else' } },
    });
    expect(badEvent.status).toBe(422);
    // The streak's period ends at midnight in their zone: for Kiritimati, 10:00Z.
    const view = await streakOf(ws, east, key);
    expect(view.frequency).toBe('daily');
  });

  it('counts ISO weeks (Monday first, across the year’s end) and calendar months', async () => {
    const ws = await app.workspace();
    const weekly = await defineStreak(ws, { frequency: 'weekly' });
    const monthly = await defineStreak(ws, { frequency: 'monthly' });
    const p = uid('p');
    // 2031-12-29 (Monday) to 2032-01-04 (Sunday) is ISO week 2032-W01; 2032-01-05 starts W02.
    await send(ws, p, '2031-12-29T12:00:00Z');
    await send(ws, p, '2032-01-04T12:00:00Z');
    await send(ws, p, '2032-01-05T12:00:00Z');
    await send(ws, p, '2032-01-31T12:00:00Z');
    await send(ws, p, '2032-02-01T12:00:00Z');
    const w = await stored(ws, p, weekly);
    expect(statuses(w!.history)).toEqual([
      '2031-12-29:extended',
      '2032-01-05:extended',
      '2032-01-12:missed',
      '2032-01-19:missed',
      '2032-01-26:extended',
    ]);
    expect(w).toMatchObject({ length: 1 }); // W03 and W04 missed
    const m = await stored(ws, p, monthly);
    expect(statuses(m!.history)).toEqual([
      '2031-12-01:extended',
      '2032-01-01:extended',
      '2032-02-01:extended',
    ]);
    expect(m).toMatchObject({ length: 3, longest: 3 });
  });

  it('lets flow conditions read the length after this event ({"streak": key})', async () => {
    const ws = await app.workspace();
    const key = await defineStreak(ws);
    await buildFlow(ws, {
      event_type: 'workout',
      conditions: { '>=': [{ streak: key }, 3] },
      actions: [{ type: 'award_points', points: 50, reason: 'three days running' }],
    });
    const p = uid('p');
    await send(ws, p, '2031-11-01T10:00:00Z');
    await send(ws, p, '2031-11-02T10:00:00Z');
    expect((await ws.api(`/v1/participants/${p}`)).body.balance).toBe(0);
    await send(ws, p, '2031-11-03T10:00:00Z');
    expect((await ws.api(`/v1/participants/${p}`)).body.balance).toBe(50);
    const bad = await ws.api('/v1/flows', {
      body: {
        name: 'x',
        event_type: 'workout',
        conditions: { streak: [key, 2] },
        actions: [{ type: 'award_points', points: 1 }],
      },
    });
    expect(bad.status).toBe(422);
  });
});

describe('reading a participant’s streaks at now, and the streak job', () => {
  it('answers length, at_risk, freezes, expires_at and the current period, accounting for periods passed since', async () => {
    const ws = await app.workspace();
    const key = await defineStreak(ws, { freezes: { initial: 1, max: 1 } });
    const p = uid('p');
    const today = new Date();
    const day = (offset: number, hour = 12) => {
      const d = new Date(
        Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + offset, hour),
      );
      return d.toISOString();
    };
    const midnight = (offset: number) => day(offset, 0);
    await send(ws, p, day(-1, 9), 'other.type');
    // Never extended: length 0, the initial freezes, nothing at risk.
    let view = await streakOf(ws, p, key);
    expect(view).toMatchObject({
      length: 0,
      longest: 0,
      freezes: 1,
      at_risk: false,
      expires_at: null,
      history: [],
    });
    await send(ws, p, day(-1));
    view = await streakOf(ws, p, key);
    // Extended yesterday, not today, one freeze left: not at risk; today and tomorrow can still save it.
    expect(view).toMatchObject({
      length: 1,
      longest: 1,
      freezes: 1,
      extended_this_period: false,
      at_risk: false,
    });
    expect(view.period_start).toBe(midnight(0));
    expect(view.period_end).toBe(midnight(1));
    expect(view.expires_at).toBe(midnight(2));
    await send(ws, p, day(0));
    view = await streakOf(ws, p, key);
    expect(view).toMatchObject({
      length: 2,
      extended_this_period: true,
      at_risk: false,
      expires_at: midnight(3),
    });

    const q = uid('q');
    await send(ws, q, day(-3)); // Three days ago; the freeze covers the day before yesterday, yesterday breaks it.
    view = await streakOf(ws, q, key);
    expect(view).toMatchObject({
      length: 0,
      longest: 1,
      at_risk: false,
      expires_at: null,
      extended_this_period: false,
    });
    expect(statuses(view.history)).toEqual([
      `${day(-3).slice(0, 10)}:extended`,
      `${day(-2).slice(0, 10)}:frozen`,
      `${day(-1).slice(0, 10)}:missed`,
    ]);
    expect((await ws.api(`/v1/participants/${uid('never')}/streaks`)).status).toBe(404);
  });

  it('the job spends freezes as periods end, then breaks the streak with streak.broken once', async () => {
    const ws = await app.workspace();
    const key = await defineStreak(ws, { freezes: { initial: 1, max: 1 } });
    const p = uid('p');
    // Far in the future, so the app's own tick does not reach it: the job runs with a chosen now.
    await send(ws, p, '2031-03-01T10:00:00Z');
    expect(new Date((await stored(ws, p, key))!.due_at).toISOString()).toBe('2031-03-03T00:00:00.000Z');
    await runStreakTick(app.ctx, new Date('2031-03-02T23:00:00Z'));
    expect(await stored(ws, p, key)).toMatchObject({ length: 1, freezes: 1 });
    await runStreakTick(app.ctx, new Date('2031-03-03T00:00:01Z')); // Mar 2 ended: the freeze covers it
    let row = await stored(ws, p, key);
    expect(row).toMatchObject({ length: 1, freezes: 0 });
    expect(statuses(row!.history)).toEqual(['2031-03-01:extended', '2031-03-02:frozen']);
    expect(new Date(row!.due_at).toISOString()).toBe('2031-03-04T00:00:00.000Z');
    await runStreakTick(app.ctx, new Date('2031-03-04T00:00:01Z')); // Mar 3 ended: broken
    row = await stored(ws, p, key);
    expect(row).toMatchObject({ length: 0, freezes: 0, due_at: null });
    await Promise.all([
      runStreakTick(app.ctx, new Date('2031-03-09T00:00:00Z')),
      runStreakTick(app.ctx, new Date('2031-03-09T00:00:00Z')),
    ]);
    expect(await outboxOf(app, ws, 'streak.broken')).toEqual([
      { participant: { external_id: p }, streak: { key, length: 0, longest: 1, freezes: 0 } },
    ]);
    const { rows } = await app.ctx.pool.query(
      `select change from streak_changes c join participants p on p.id = c.participant_id
        where p.workspace_id = $1 and p.external_id = $2 order by c.id`,
      [ws.id, p],
    );
    expect(rows.map((x) => x.change)).toEqual(['extended', 'frozen', 'broken']);
  });

  it('runs in the app’s own tick: a streak whose period ended days ago is broken within seconds', async () => {
    const ws = await app.workspace();
    const key = await defineStreak(ws);
    const p = uid('p');
    await send(ws, p, new Date(Date.now() - 4 * 86_400_000).toISOString());
    await eventually(async () => ((await stored(ws, p, key))?.length === 0 ? true : null), 15_000);
    expect(await outboxOf(app, ws, 'streak.broken')).toHaveLength(1);
  });

  it('archived streaks stop extending and leave the reads', async () => {
    const ws = await app.workspace();
    const key = await defineStreak(ws);
    const p = uid('p');
    await send(ws, p, '2031-11-01T10:00:00Z');
    await ws.api(`/v1/streaks/${key}`, { method: 'DELETE' });
    await send(ws, p, '2031-11-02T10:00:00Z');
    expect((await stored(ws, p, key))!.length).toBe(1);
    expect(await streaksOf(ws, p)).toEqual([]);
  });
});

describe('windowed conditions: event_count and event_sum over a duration', () => {
  it('counts and sums the processed events of the window ending at the event, this one included', async () => {
    const ws = await app.workspace();
    await buildFlow(ws, {
      event_type: 'purchase',
      conditions: { '>=': [{ event_count: ['purchase', 'P30D'] }, 3] },
      actions: [{ type: 'award_points', points: 100, reason: 'three in 30 days' }],
    });
    await buildFlow(ws, {
      event_type: 'purchase',
      conditions: { '>': [{ event_sum: ['purchase', 'order.total', 'P7D'] }, 100] },
      actions: [{ type: 'award_points', points: 1, reason: 'over 100 in a week' }],
    });
    const p = uid('p');
    const buy = (at: string, total: unknown) => send(ws, p, at, 'purchase', { order: { total } });
    await buy('2026-09-01T10:00:00Z', 60);
    await buy('2026-09-20T10:00:00Z', 30); // count 2 in 30 days; sum of the week 30
    await buy('2026-10-05T10:00:00Z', 'n/a'); // Sep 5 – Oct 5: Sep 20 and this one: 2
    await buy('2026-10-06T10:00:00Z', 80); // Sep 6 – Oct 6: 3 → 100; week: 'n/a' counts 0, 80: not over 100
    await buy('2026-10-07T10:00:00Z', 21); // 4 in 30 days → 100; week: 80 + 21 = 101 → 1
    const ledger = (await ws.api(`/v1/participants/${p}/ledger?limit=10`)).body.data as Record<string, any>[];
    expect(ledger.map((e) => `${e.reason}:${e.points}`).reverse()).toEqual([
      'three in 30 days:100',
      'three in 30 days:100',
      'over 100 in a week:1',
    ]);
    const bad = await ws.api('/v1/flows', {
      body: {
        name: 'x',
        event_type: 'purchase',
        conditions: { event_count: ['purchase', 'thirty days'] },
        actions: [{ type: 'award_points', points: 1 }],
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.text).toContain('ISO 8601');
  });

  it('counts a batch’s own earlier events: several events of one participant processed together', async () => {
    const ws = await app.workspace();
    await buildFlow(ws, {
      event_type: 'visit',
      conditions: { '==': [{ event_count: ['visit', 'PT1H'] }, 3] },
      actions: [{ type: 'award_points', points: 7 }],
    });
    const p = uid('p');
    const base = Date.parse('2026-11-20T10:00:00Z');
    const sent = await Promise.all(
      [0, 1, 2, 3].map((i) =>
        ws.api('/v1/events', {
          body: {
            event_type: 'visit',
            participant: p,
            occurred_at: new Date(base + i * 60_000).toISOString(),
          },
        }),
      ),
    );
    for (const r of sent) expect(r.status).toBe(202);
    await eventually(async () => {
      const r = await ws.api(`/v1/participants/${p}/summary`);
      return r.body.events_count === 4 ? true : null;
    }, 15_000);
    await eventually(
      async () => ((await ws.api(`/v1/participants/${p}`)).body.balance === 7 ? true : null),
      15_000,
    );
  });
});
