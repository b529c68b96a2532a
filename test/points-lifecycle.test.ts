import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activateDueGrants, expireDueLots } from '../src/services/points/loyalty-tick.ts';
import { buildFlow, buildReward, ledgerMismatches, outboxOf } from './factories.ts';
import { eventually, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

// The points lifecycle (docs/points.md) against the real Postgres, with second-long durations and
// a one-second loyalty tick.

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ env: { LOYALTY_TICK_SECONDS: '1' } });
});
afterAll(() => app?.close());

let seq = 0;
const uid = (p: string) => `${p}-${++seq}-${Date.now().toString(36)}`;

const adjust = (ws: TestWorkspace, id: string, points: number, reason = 'test') =>
  ws.api(`/v1/participants/${id}/points`, { body: { points, reason } });

const points = async (ws: TestWorkspace, id: string) => {
  const r = await ws.api(`/v1/participants/${id}/points`);
  expect(r.status, r.text).toBe(200);
  return r.body as {
    balance: number;
    pending_points: number;
    lots: { entry_id: number; points: number; remaining: number; expires_at: string | null }[];
    expiring: { expires_at: string; points: number }[];
  };
};

const patchProgram = async (ws: TestWorkspace, body: Record<string, unknown>) => {
  const r = await ws.api('/v1/program', { method: 'PATCH', body });
  expect(r.status, r.text).toBe(200);
  return r.body;
};

const ingest = async (ws: TestWorkspace, externalId: string, extra: Record<string, unknown> = {}) => {
  const r = await ws.api('/v1/events', {
    body: { event_type: 'order.completed', participant: { external_id: externalId }, payload: {}, ...extra },
  });
  expect(r.status, r.text).toBe(202);
  return r.body.event_id as string;
};

const processed = (ws: TestWorkspace, id: string) =>
  eventually(async () => {
    const r = await ws.api(`/v1/events/${id}`);
    return r.body.status === 'processed' || r.body.status === 'failed' ? r.body : null;
  }, 15_000);

const entries = async (ws: TestWorkspace, id: string) =>
  (await ws.api(`/v1/participants/${id}/ledger?limit=200`)).body.data as Record<string, any>[];

/** The allocations each debit of the participant recorded: entry id → [lot entry id, points][]. */
async function allocations(ws: TestWorkspace, externalId: string) {
  const { rows } = await app.ctx.pool.query(
    `select a.entry_id, l.entry_id as lot_entry_id, a.points from lot_allocations a
       join point_lots l on l.id = a.lot_id join participants p on p.id = l.participant_id
      where p.workspace_id = $1 and p.external_id = $2
      order by a.entry_id, l.expires_at asc nulls last, l.id`,
    [ws.id, externalId],
  );
  const out = new Map<number, [number, number][]>();
  for (const r of rows)
    out.set(Number(r.entry_id), [
      ...(out.get(Number(r.entry_id)) ?? []),
      [Number(r.lot_entry_id), Number(r.points)],
    ]);
  return out;
}

describe('programme settings: GET and PATCH /v1/program', () => {
  it('answers the defaults, applies a change, and keeps fields left out', async () => {
    const ws = await app.workspace();
    const r = await ws.api('/v1/program');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      timezone: 'UTC',
      points_expiry: null,
      expiry_notice: 'P14D',
      pending_for: null,
      earning_caps: [],
    });
    await patchProgram(ws, { timezone: 'Europe/Paris', points_expiry: { mode: 'fixed', after: 'P12M' } });
    expect(await patchProgram(ws, { earning_caps: [{ period: 'day', max_points: 500 }] })).toEqual({
      timezone: 'Europe/Paris',
      points_expiry: { mode: 'fixed', after: 'P12M', round_to: 'none' },
      expiry_notice: 'P14D',
      pending_for: null,
      earning_caps: [{ period: 'day', max_points: 500 }],
    });
    expect((await patchProgram(ws, { points_expiry: null })).points_expiry).toBeNull();
    // Each mode has its own programme.
    expect((await ws.api('/v1/program', { mode: 'live' })).body.timezone).toBe('UTC');
  });

  it('refuses invalid settings with 422 naming the field, and changes nothing', async () => {
    const ws = await app.workspace();
    const bad: [Record<string, unknown>, string][] = [
      [{ timezone: 'Mars/Olympus' }, 'timezone'],
      [{ points_expiry: { mode: 'fixed', after: '12 months' } }, 'points_expiry.after'],
      [{ points_expiry: { mode: 'fixed', after: 'P0D' } }, 'points_expiry.after'],
      [{ points_expiry: { mode: 'sometimes', after: 'P1M' } }, 'points_expiry.mode'],
      [{ points_expiry: { mode: 'fixed', after: 'P1M', round_to: 'week' } }, 'points_expiry.round_to'],
      [{ expiry_notice: '-P1D' }, 'expiry_notice'],
      [{ pending_for: 'tomorrow' }, 'pending_for'],
      [{ earning_caps: [{ period: 'day', max_points: 0 }] }, 'earning_caps.0.max_points'],
      [
        {
          earning_caps: [
            { period: 'day', max_points: 5 },
            { period: 'day', max_points: 6 },
          ],
        },
        'earning_caps',
      ],
      [{ colour: 'blue' }, '(body)'],
    ];
    for (const [body, field] of bad) {
      const r = await ws.api('/v1/program', { method: 'PATCH', body });
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.error.type).toBe('validation_error');
      expect(r.body.error.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    expect((await ws.api('/v1/program')).body.timezone).toBe('UTC');
  });

  it('needs flows:write to change it; any key reads it', async () => {
    const ws = await app.workspace({ abilities: ['participants:read'] });
    expect((await ws.api('/v1/program')).status).toBe(200);
    const r = await ws.api('/v1/program', { method: 'PATCH', body: { timezone: 'UTC' } });
    expect(r.status).toBe(403);
  });
});

describe('lots under the ledger', () => {
  it('opens a lot per credit and consumes soonest-expiring first, never-expiring last, oldest first on ties', async () => {
    const ws = await app.workspace();
    const id = uid('lots');
    const never1 = (await adjust(ws, id, 100)).body;
    await patchProgram(ws, { points_expiry: { mode: 'fixed', after: 'P30D' } });
    const soon = (await adjust(ws, id, 50)).body;
    await patchProgram(ws, { points_expiry: { mode: 'fixed', after: 'P90D' } });
    const later = (await adjust(ws, id, 70)).body;
    await patchProgram(ws, { points_expiry: null });
    const never2 = (await adjust(ws, id, 30)).body;
    expect(soon.expires_at).not.toBeNull();
    expect(Date.parse(later.expires_at)).toBeGreaterThan(Date.parse(soon.expires_at));
    expect(never1.expires_at).toBeNull();

    const before = await points(ws, id);
    expect(before.balance).toBe(250);
    expect(before.lots.map((l) => [l.entry_id, l.remaining])).toEqual([
      [soon.id, 50],
      [later.id, 70],
      [never1.id, 100],
      [never2.id, 30],
    ]);
    expect(before.expiring).toEqual([
      { expires_at: soon.expires_at, points: 50 },
      { expires_at: later.expires_at, points: 70 },
    ]);
    const shown = (await ws.api(`/v1/participants/${id}`)).body;
    expect(shown.next_expiry).toEqual({ points: 50, expires_at: soon.expires_at });
    expect(shown.pending_points).toBe(0);

    // 150 = all of the 30-day lot, all of the 90-day lot, 30 of the oldest never-expiring one.
    const debit = (await adjust(ws, id, -150)).body;
    expect((await allocations(ws, id)).get(debit.id)).toEqual([
      [soon.id, 50],
      [later.id, 70],
      [never1.id, 30],
    ]);
    const after = await points(ws, id);
    expect(after.lots.map((l) => [l.entry_id, l.remaining])).toEqual([
      [never1.id, 70],
      [never2.id, 30],
    ]);
    expect((await ws.api(`/v1/participants/${id}`)).body.next_expiry).toBeNull();
    expect(await ledgerMismatches(app, ws)).toEqual([]);
  });

  it('a reversed debit gives back exactly the lots it took, each with its own expiry', async () => {
    const ws = await app.workspace();
    const id = uid('rev');
    await patchProgram(ws, { points_expiry: { mode: 'fixed', after: 'P30D' } });
    const a = (await adjust(ws, id, 40)).body;
    await patchProgram(ws, { points_expiry: { mode: 'fixed', after: 'P60D' } });
    const b = (await adjust(ws, id, 40)).body;
    const debit = (await adjust(ws, id, -60)).body;
    const reversal = await ws.api(`/v1/participants/${id}/ledger/${debit.id}/reversal`, { body: {} });
    expect(reversal.status, reversal.text).toBe(201);
    expect(reversal.body.expires_at).toBe(a.expires_at);
    const lots = (await points(ws, id)).lots;
    // The 30-day lot's 40 and 20 of the 60-day lot come back, as lots of the reversal.
    expect(lots.map((l) => [l.entry_id, l.remaining, l.expires_at])).toEqual([
      [reversal.body.id, 40, a.expires_at],
      [b.id, 20, b.expires_at],
      [reversal.body.id, 20, b.expires_at],
    ]);
    expect(await ledgerMismatches(app, ws)).toEqual([]);
  });

  it("reversing a credit takes from that credit's own lot first", async () => {
    const ws = await app.workspace();
    const id = uid('revc');
    await patchProgram(ws, { points_expiry: { mode: 'fixed', after: 'P30D' } });
    const soon = (await adjust(ws, id, 50)).body;
    await patchProgram(ws, { points_expiry: null });
    const never = (await adjust(ws, id, 80)).body;
    const reversal = await ws.api(`/v1/participants/${id}/ledger/${never.id}/reversal`, { body: {} });
    expect(reversal.status, reversal.text).toBe(201);
    expect((await allocations(ws, id)).get(reversal.body.id)).toEqual([[never.id, 80]]);
    expect((await points(ws, id)).lots.map((l) => [l.entry_id, l.remaining])).toEqual([[soon.id, 50]]);
  });

  it('a redemption consumes lots in the same order, and its cancellation gives them back', async () => {
    const ws = await app.workspace();
    const id = uid('redeem');
    await patchProgram(ws, { points_expiry: { mode: 'fixed', after: 'P10D' } });
    const soon = (await adjust(ws, id, 30)).body;
    await patchProgram(ws, { points_expiry: null });
    const never = (await adjust(ws, id, 100)).body;
    const reward = await buildReward(ws, { cost_points: 50 });
    const r = await ws.api('/v1/redemptions', { body: { participant: id, reward_id: reward.id } });
    expect(r.status, r.text).toBe(201);
    const debitId = (await entries(ws, id)).find((e) => e.source === 'redemption')!.id;
    expect((await allocations(ws, id)).get(debitId)).toEqual([
      [soon.id, 30],
      [never.id, 20],
    ]);
    const cancel = await ws.api(`/v1/redemptions/${r.body.id}/cancel`, { body: {} });
    expect(cancel.status, cancel.text).toBe(200);
    expect((await points(ws, id)).lots.map((l) => [l.remaining, l.expires_at])).toEqual([
      [30, soon.expires_at],
      [80, null],
      [20, null],
    ]);
    expect(await ledgerMismatches(app, ws)).toEqual([]);
  });

  it('keeps Σ ledger = balance = Σ lots under concurrent redemptions, adjustments and reversals', async () => {
    const ws = await app.workspace();
    const id = uid('race');
    await patchProgram(ws, { points_expiry: { mode: 'fixed', after: 'P5D' } });
    for (let i = 0; i < 10; i++) await adjust(ws, id, 20);
    await patchProgram(ws, { points_expiry: null });
    const reward = await buildReward(ws, { cost_points: 15 });
    const credits = Array.from({ length: 20 }, () => adjust(ws, id, 7));
    const redemptions = Array.from({ length: 20 }, () =>
      ws.api('/v1/redemptions', { body: { participant: id, reward_id: reward.id } }),
    );
    const debits = Array.from({ length: 10 }, () => adjust(ws, id, -9));
    const settled = await Promise.all([...credits, ...redemptions, ...debits]);
    for (const r of settled) expect([200, 201, 422]).toContain(r.status);
    const ledger = await entries(ws, id);
    const reversals = ledger
      .filter((e) => e.source === 'adjustment')
      .slice(0, 6)
      .map((e) => ws.api(`/v1/participants/${id}/ledger/${e.id}/reversal`, { body: {} }));
    for (const r of await Promise.all(reversals)) expect([201, 422]).toContain(r.status);
    expect(await ledgerMismatches(app, ws)).toEqual([]);
  });
});

describe('expiry', () => {
  it('expires each lot once with an expiry entry, points.changed and balanceChanged-visible ledger rows', async () => {
    const ws = await app.workspace();
    const id = uid('exp');
    await patchProgram(ws, { points_expiry: { mode: 'fixed', after: 'PT2S' } });
    const a = (await adjust(ws, id, 25)).body;
    await patchProgram(ws, { points_expiry: null });
    await adjust(ws, id, 10);
    const spent = (await adjust(ws, id, -5)).body;
    expect(spent.balance_after).toBe(30);

    const expiry = await eventually(
      async () => (await entries(ws, id)).find((e) => e.source === 'expiry'),
      10_000,
    );
    expect(expiry).toMatchObject({
      points: -20,
      balance_after: 10,
      reference: `lot:${a.id}`,
      expires_at: null,
    });
    const p = await points(ws, id);
    expect(p.balance).toBe(10);
    expect(p.lots.map((l) => l.remaining)).toEqual([10]);
    const changed = (await outboxOf(app, ws, 'points.changed')).filter((d) => d.entry.source === 'expiry');
    expect(changed).toEqual([{ participant: { external_id: id }, entry: expiry, balance: 10 }]);
    // Given back, the lot would only expire again: an adjustment is the way to restore points.
    const undo = await ws.api(`/v1/participants/${id}/ledger/${expiry.id}/reversal`, { body: {} });
    expect(undo.status).toBe(422);
    expect(undo.body.error.errors[0].field).toBe('entry_id');
    // Later ticks find nothing more to expire.
    await new Promise((r) => setTimeout(r, 1500));
    expect((await entries(ws, id)).filter((e) => e.source === 'expiry')).toHaveLength(1);
    expect(await ledgerMismatches(app, ws)).toEqual([]);
  });

  it('several workers expiring at once expire every lot exactly once', async () => {
    const ws = await app.workspace();
    await patchProgram(ws, { points_expiry: { mode: 'fixed', after: 'PT1S' } });
    const ids = Array.from({ length: 30 }, () => uid('many'));
    for (const id of ids) for (let i = 0; i < 3; i++) await adjust(ws, id, 5 + i);
    await new Promise((r) => setTimeout(r, 1100));
    // Four "workers" at once, next to the app's own tick.
    await Promise.all(Array.from({ length: 4 }, () => expireDueLots(app.ctx, new Date(), 7)));
    await eventually(async () => {
      const { rows } = await app.ctx.pool.query(
        `select count(*)::int as n from point_lots l join participants p on p.id = l.participant_id
          where p.workspace_id = $1 and l.remaining > 0`,
        [ws.id],
      );
      return rows[0].n === 0;
    }, 10_000);
    const { rows } = await app.ctx.pool.query(
      `select e.reference, count(*)::int as n from ledger_entries e
        where e.workspace_id = $1 and e.source = 'expiry' group by e.reference having count(*) > 1`,
      [ws.id],
    );
    expect(rows).toEqual([]);
    const { rows: total } = await app.ctx.pool.query(
      `select count(*)::int as n from ledger_entries where workspace_id = $1 and source = 'expiry'`,
      [ws.id],
    );
    expect(total[0].n).toBe(90);
    expect(await ledgerMismatches(app, ws)).toEqual([]);
  });

  it('activity expiry: each flow or positive adjustment credit moves every open lot', async () => {
    const ws = await app.workspace();
    const id = uid('act');
    await patchProgram(ws, { points_expiry: { mode: 'activity', after: 'P30D' } });
    const first = (await adjust(ws, id, 10)).body;
    await new Promise((r) => setTimeout(r, 20));
    const second = (await adjust(ws, id, 10)).body;
    expect(Date.parse(second.expires_at)).toBeGreaterThan(Date.parse(first.expires_at));
    expect((await points(ws, id)).lots.map((l) => l.expires_at)).toEqual([
      second.expires_at,
      second.expires_at,
    ]);
    // A debit does not.
    await adjust(ws, id, -5);
    expect((await points(ws, id)).expiring).toEqual([{ expires_at: second.expires_at, points: 15 }]);
  });

  it('points.expiring fires once per lot, expiry_notice before its expiry', async () => {
    const ws = await app.workspace();
    const id = uid('notice');
    await patchProgram(ws, { points_expiry: { mode: 'fixed', after: 'PT4S' }, expiry_notice: 'PT3S' });
    const lot = (await adjust(ws, id, 12)).body;
    const notices = await eventually(async () => {
      const n = await outboxOf(app, ws, 'points.expiring');
      return n.length ? n : null;
    }, 10_000);
    expect(notices).toEqual([
      { participant: { external_id: id }, points: 12, expires_at: lot.expires_at, balance: 12 },
    ]);
    // Until expiry, no second notice; then the lot expires.
    await eventually(async () => (await entries(ws, id)).some((e) => e.source === 'expiry'), 10_000);
    expect(await outboxOf(app, ws, 'points.expiring')).toHaveLength(1);
  });
});

describe('pending points', () => {
  it('holds a flow award pending, not spendable, then activates it exactly once at available_at', async () => {
    const ws = await app.workspace();
    await patchProgram(ws, { pending_for: 'PT2S', points_expiry: { mode: 'fixed', after: 'P1Y' } });
    await buildFlow(ws, { actions: [{ type: 'award_points', points: 40 }] });
    const id = uid('pend');
    const event = await ingest(ws, id);
    await processed(ws, event);
    const shown = (await ws.api(`/v1/participants/${id}`)).body;
    expect(shown).toMatchObject({ balance: 0, pending_points: 40, lifetime_points: 0 });
    const list = (await ws.api(`/v1/participants/${id}/pending-points`)).body;
    expect(list.data).toEqual([
      {
        id: expect.any(String),
        participant: { external_id: id },
        points: 40,
        available_at: expect.any(String),
        status: 'pending',
        event_id: event,
        flow_run_id: expect.any(String),
        entry_id: null,
        created_at: expect.any(String),
      },
    ]);
    const grant = list.data[0];
    const run = (await ws.api(`/v1/flow-runs/${grant.flow_run_id}`)).body;
    expect(run.steps[0]).toMatchObject({
      status: 'completed',
      result: { points: 40, pending_grant_id: grant.id, available_at: grant.available_at },
    });
    const reward = await buildReward(ws, { cost_points: 10 });
    const early = await ws.api('/v1/redemptions', { body: { participant: id, reward_id: reward.id } });
    expect(early.status).toBe(422);
    expect(early.body.error.type).toBe('insufficient_points');

    const credit = await eventually(
      async () => (await entries(ws, id)).find((e) => e.source === 'flow'),
      10_000,
    );
    expect(credit).toMatchObject({
      points: 40,
      reference: `pending:${grant.id}`,
      idempotency_key: `pending:${grant.id}`,
    });
    expect(Date.parse(credit.expires_at)).toBeGreaterThan(Date.now() + 300 * 86_400_000);
    // Another worker arriving late activates nothing.
    await activateDueGrants(app.ctx, new Date());
    expect((await entries(ws, id)).filter((e) => e.source === 'flow')).toHaveLength(1);
    expect((await ws.api(`/v1/participants/${id}`)).body).toMatchObject({
      balance: 40,
      pending_points: 0,
      lifetime_points: 40,
    });
    const after = (await ws.api(`/v1/participants/${id}/pending-points`)).body.data[0];
    expect(after).toMatchObject({ status: 'activated', entry_id: credit.id });
    const again = await ws.api(`/v1/pending-points/${grant.id}/activate`, { body: {} });
    expect(again.status).toBe(409);
    expect(again.body.error.type).toBe('invalid_state');
    expect(await ledgerMismatches(app, ws)).toEqual([]);
  });

  it('activates early or cancels by hand; an action sets its own pending_for', async () => {
    const ws = await app.workspace();
    await buildFlow(ws, { actions: [{ type: 'award_points', points: 15, pending_for: 'P30D' }] });
    const id = uid('manual');
    await processed(ws, await ingest(ws, id));
    await processed(ws, await ingest(ws, id));
    const [second, first] = (await ws.api(`/v1/participants/${id}/pending-points`)).body.data;
    expect((await ws.api(`/v1/participants/${id}`)).body.pending_points).toBe(30);

    const activated = await ws.api(`/v1/pending-points/${first.id}/activate`, { body: {} });
    expect(activated.status, activated.text).toBe(200);
    expect(activated.body).toMatchObject({ status: 'activated', entry_id: expect.any(Number) });
    const cancelled = await ws.api(`/v1/pending-points/${second.id}/cancel`, { body: {} });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    expect((await ws.api(`/v1/participants/${id}`)).body).toMatchObject({ balance: 15, pending_points: 0 });
    expect((await ws.api(`/v1/pending-points/${second.id}/activate`, { body: {} })).status).toBe(409);
    expect((await ws.api(`/v1/pending-points/${first.id}/cancel`, { body: {} })).status).toBe(409);
    expect((await ws.api(`/v1/pending-points/not-a-grant/cancel`, { body: {} })).status).toBe(404);
    // Another workspace cannot see it.
    const other = await app.workspace();
    expect((await other.api(`/v1/pending-points/${first.id}/cancel`, { body: {} })).status).toBe(404);
    // points:adjust is needed.
    const reader = await app.workspace({ abilities: ['participants:read'] });
    expect((await reader.api(`/v1/pending-points/${first.id}/cancel`, { body: {} })).status).toBe(403);
  });

  it('concurrent early activations and the tick settle a grant once', async () => {
    const ws = await app.workspace();
    await buildFlow(ws, { actions: [{ type: 'award_points', points: 9, pending_for: 'PT1S' }] });
    const id = uid('once');
    await processed(ws, await ingest(ws, id));
    const grant = (await ws.api(`/v1/participants/${id}/pending-points`)).body.data[0];
    await new Promise((r) => setTimeout(r, 1000));
    const answers = await Promise.all([
      ...Array.from({ length: 5 }, () => ws.api(`/v1/pending-points/${grant.id}/activate`, { body: {} })),
      activateDueGrants(app.ctx, new Date()),
    ]);
    const statuses = answers.slice(0, 5).map((a) => (a as { status: number }).status);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    await eventually(async () => (await ws.api(`/v1/participants/${id}`)).body.balance === 9, 10_000);
    expect((await entries(ws, id)).filter((e) => e.source === 'flow')).toHaveLength(1);
    expect(await ledgerMismatches(app, ws)).toEqual([]);
  });
});

describe('earning caps', () => {
  it('cuts an award that crosses a programme cap, records the cut, and writes nothing when none is left', async () => {
    const ws = await app.workspace();
    await patchProgram(ws, { timezone: 'Europe/Paris', earning_caps: [{ period: 'day', max_points: 100 }] });
    await buildFlow(ws, { actions: [{ type: 'award_points', points: 60 }] });
    const id = uid('cap');
    const day = '2026-03-10T10:00:00+01:00';
    for (let i = 0; i < 3; i++) await processed(ws, await ingest(ws, id, { occurred_at: day }));
    const credits = (await entries(ws, id)).filter((e) => e.source === 'flow').reverse();
    expect(credits.map((e) => [e.points, e.capped_points])).toEqual([
      [60, 0],
      [40, 20],
    ]);
    const runs = (await ws.api(`/v1/flow-runs?participant=${id}`)).body.data;
    expect(runs.map((r: any) => r.steps[0].status).sort()).toEqual(['capped', 'completed', 'completed']);
    const capped = runs.find((r: any) => r.steps[0].status === 'capped');
    expect(capped.steps[0].result).toMatchObject({ points: 0, capped_points: 60 });
    expect(capped.status).toBe('skipped');
    // 23:30 in Paris is the same day; 00:30 the next one.
    await processed(ws, await ingest(ws, id, { occurred_at: '2026-03-10T23:30:00+01:00' }));
    await processed(ws, await ingest(ws, id, { occurred_at: '2026-03-11T00:30:00+01:00' }));
    expect((await ws.api(`/v1/participants/${id}`)).body.balance).toBe(160);
  });

  it('counts an action cap per action, beside the programme caps', async () => {
    const ws = await app.workspace();
    await patchProgram(ws, { earning_caps: [{ period: 'month', max_points: 1000 }] });
    await buildFlow(ws, {
      actions: [
        { type: 'award_points', points: 30, cap: { period: 'week', max_points: 50 } },
        { type: 'award_points', points: 5 },
      ],
    });
    const id = uid('acap');
    // 2026-03-09 is a Monday; 03-15 a Sunday of the same ISO week; 03-16 the next week.
    for (const at of ['2026-03-09T08:00:00Z', '2026-03-15T08:00:00Z', '2026-03-16T08:00:00Z'])
      await processed(ws, await ingest(ws, id, { occurred_at: at }));
    const credits = (await entries(ws, id)).filter((e) => e.source === 'flow').reverse();
    expect(credits.map((e) => e.points)).toEqual([30, 5, 20, 5, 30, 5]);
  });

  it('is exact under concurrent events of one participant', async () => {
    const ws = await app.workspace();
    await patchProgram(ws, { earning_caps: [{ period: 'year', max_points: 250 }] });
    await buildFlow(ws, { actions: [{ type: 'award_points', points: 7 }] });
    const id = uid('race');
    const ids = await Promise.all(
      Array.from({ length: 60 }, () => ingest(ws, id, { occurred_at: '2026-06-01T12:00:00Z' })),
    );
    for (const e of ids) await processed(ws, e);
    const shown = (await ws.api(`/v1/participants/${id}`)).body;
    expect(shown.balance).toBe(250);
    // 35 awards of 7, a 36th cut to 5 (2 on its entry), the other 24 capped to nothing.
    const credits = (await entries(ws, id)).filter((e) => e.source === 'flow');
    expect(credits).toHaveLength(36);
    expect(credits.reduce((n, e) => n + e.capped_points, 0)).toBe(2);
    expect(await ledgerMismatches(app, ws)).toEqual([]);
  });
});
