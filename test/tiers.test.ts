import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTierTick } from '../src/services/tiers/tick.ts';
import { buildFlow, ledgerMismatches, outboxOf } from './factories.ts';
import { eventually, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

// Tiers (docs/tiers.md) against the real Postgres, with second-long windows and graces and a
// one-second loyalty tick; calendar period ends are run by calling the tier job with a later `now`.

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ env: { LOYALTY_TICK_SECONDS: '1' } });
});
afterAll(() => app?.close());

let seq = 0;
const uid = (p: string) => `${p}-${++seq}-${Date.now().toString(36)}`;

const LEVELS = [
  { key: 'bronze', name: 'Bronze', threshold: 0 },
  { key: 'silver', name: 'Silver', threshold: 100 },
  { key: 'gold', name: 'Gold', threshold: 500, earn_multiplier: 1.5 },
];

const programme = (over: Record<string, unknown> = {}) => ({
  qualification: { window: 'lifetime' },
  downgrade: { policy: 'none' },
  levels: LEVELS,
  ...over,
});

const putTiers = async (ws: TestWorkspace, body: Record<string, unknown>) => {
  const r = await ws.api('/v1/tiers', { method: 'PUT', body });
  expect(r.status, r.text).toBe(200);
  return r.body;
};

const adjust = async (ws: TestWorkspace, id: string, points: number) => {
  const r = await ws.api(`/v1/participants/${id}/points`, { body: { points, reason: 'test' } });
  expect(r.status, r.text).toBe(201);
  return r.body as { id: number };
};

const tierOf = async (ws: TestWorkspace, id: string) => {
  const r = await ws.api(`/v1/participants/${id}`);
  expect(r.status, r.text).toBe(200);
  return r.body.tier as Record<string, any> | null;
};

const history = async (ws: TestWorkspace, id: string) => {
  const r = await ws.api(`/v1/participants/${id}/tier-history?limit=100`);
  expect(r.status, r.text).toBe(200);
  return (r.body.data as Record<string, any>[]).reverse();
};

const moves = (h: Record<string, any>[]) =>
  h.map((m) => `${m.from?.key ?? null}>${m.to?.key ?? null}:${m.reason}`);

/** Waits for the tier job to have applied the latest programme change. */
const applied = (ws: TestWorkspace) =>
  eventually(async () => {
    const { rows } = await app.ctx.pool.query(
      `select applied_version >= version as done from tier_programs where workspace_id = $1 and mode = 'test'`,
      [ws.id],
    );
    return rows[0]?.done ? true : null;
  }, 20_000);

/** A workspace running `over` (over the three levels), applied. */
const running = async (over: Record<string, unknown> = {}) => {
  const ws = await app.workspace();
  await putTiers(ws, programme(over));
  await applied(ws);
  return ws;
};

describe('the tier programme: PUT, GET and DELETE /v1/tiers', () => {
  it('answers null without a programme, stores one with its defaults, and each mode has its own', async () => {
    const ws = await app.workspace();
    expect((await ws.api('/v1/tiers')).body).toBeNull();
    const body = await putTiers(ws, programme());
    expect(body.levels[0]).toEqual({
      key: 'bronze',
      name: 'Bronze',
      threshold: 0,
      earn_multiplier: 1,
      description: null,
    });
    expect((await ws.api('/v1/tiers')).body).toEqual(body);
    expect((await ws.api('/v1/tiers', { mode: 'live' })).body).toBeNull();
    expect((await ws.api('/v1/tiers', { method: 'DELETE', mode: 'live' })).status).toBe(404);
  });

  it('refuses an invalid programme with 422 naming the field, and changes nothing', async () => {
    const ws = await app.workspace();
    const bad: [Record<string, unknown>, string][] = [
      [programme({ levels: [{ key: 'a', name: 'A', threshold: 10 }] }), 'levels.0.threshold'],
      [
        programme({
          levels: [
            { key: 'a', name: 'A', threshold: 0 },
            { key: 'b', name: 'B', threshold: 0 },
          ],
        }),
        'levels.1.threshold',
      ],
      [
        programme({
          levels: [
            { key: 'a', name: 'A', threshold: 0 },
            { key: 'a', name: 'B', threshold: 5 },
          ],
        }),
        'levels.1.key',
      ],
      [programme({ levels: [] }), 'levels'],
      [programme({ qualification: { window: 'rolling' } }), 'qualification.duration'],
      [programme({ qualification: { window: 'calendar', period: 'week' } }), 'qualification.period'],
      [programme({ qualification: { window: 'lifetime', duration: 'P1M' } }), 'qualification.duration'],
      [programme({ qualification: { window: 'rolling', duration: '12 months' } }), 'qualification.duration'],
      [programme({ downgrade: { policy: 'sometimes' } }), 'downgrade.policy'],
      [programme({ downgrade: { policy: 'one_down', grace: 'soon' } }), 'downgrade.grace'],
      [
        programme({ levels: [{ key: 'a', name: 'A', threshold: 0, earn_multiplier: 11 }] }),
        'levels.0.earn_multiplier',
      ],
      [programme({ levels: [{ key: 'a b', name: 'A', threshold: 0 }] }), 'levels.0.key'],
      [programme({ colour: 'blue' }), '(body)'],
      [programme({ downgrade: { policy: 'none', extra: 1 } }), 'downgrade'],
    ];
    for (const [body, field] of bad) {
      const r = await ws.api('/v1/tiers', { method: 'PUT', body });
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.error.type).toBe('validation_error');
      expect(
        r.body.error.errors.map((e: { field: string }) => e.field),
        JSON.stringify(body),
      ).toContain(field);
    }
    expect((await ws.api('/v1/tiers')).body).toBeNull();
  });

  it('needs flows:write to change it; any key reads it', async () => {
    const ws = await app.workspace({ abilities: ['participants:read'] });
    expect((await ws.api('/v1/tiers', { method: 'PUT', body: programme() })).status).toBe(403);
    expect((await ws.api('/v1/tiers/preview', { body: programme() })).status).toBe(403);
    expect((await ws.api('/v1/tiers')).status).toBe(200);
  });
});

describe('upgrades in the credit’s transaction', () => {
  it('moves a participant up as an adjustment crosses a threshold, straight to the highest level reached', async () => {
    const ws = await running();
    const a = uid('a');
    await adjust(ws, a, 40);
    let tier = await tierOf(ws, a);
    expect(tier).toMatchObject({
      key: 'bronze',
      qualifying_points: 40,
      next: { key: 'silver', name: 'Silver', points_needed: 60 },
      retain: null,
    });
    await adjust(ws, a, 600);
    tier = await tierOf(ws, a);
    expect(tier).toMatchObject({
      key: 'gold',
      name: 'Gold',
      qualifying_points: 640,
      next: null,
      retain: null,
    });
    expect(moves(await history(ws, a))).toEqual(['bronze>gold:qualified']);
    const changed = (await outboxOf(app, ws, 'tier.changed')).filter((d) => d.participant.external_id === a);
    expect(changed).toEqual([
      {
        participant: { external_id: a },
        from: { key: 'bronze', name: 'Bronze' },
        to: { key: 'gold', name: 'Gold' },
        reason: 'qualified',
        qualifying_points: 640,
      },
    ]);
    // Spending does not touch qualifying points; a debit adjustment neither.
    await adjust(ws, a, -600);
    expect((await tierOf(ws, a))!.qualifying_points).toBe(640);
    expect(await ledgerMismatches(app, ws)).toEqual([]);
  });

  it('counts flow awards, multiplies them by the level’s earn_multiplier, and lets conditions read participant.tier', async () => {
    const ws = await running();
    await buildFlow(ws, { actions: [{ type: 'award_points', points: 301 }] });
    await buildFlow(ws, {
      conditions: { '==': [{ var: 'participant.tier' }, 'gold'] },
      actions: [{ type: 'award_points', points: 11, reason: 'gold bonus' }],
    });
    const p = uid('p');
    const send = async () => {
      const r = await ws.api('/v1/events', {
        body: { event_type: 'order.completed', participant: { external_id: p }, payload: {} },
      });
      expect(r.status, r.text).toBe(202);
      return r.body.event_id as string;
    };
    const done = (id: string) =>
      eventually(async () => {
        const r = await ws.api(`/v1/events/${id}`);
        return r.body.status === 'processed' ? r.body : null;
      }, 15_000);
    await done(await send()); // 301: silver
    expect((await tierOf(ws, p))!.key).toBe('silver');
    await done(await send()); // 301 more: 602, gold after this award; the bonus flow saw silver
    expect((await tierOf(ws, p))!.key).toBe('gold');
    await done(await send()); // at gold: 301 × 1.5 = 451 (rounded down), and the gold bonus 11 × 1.5 = 16
    const ledger = (await ws.api(`/v1/participants/${p}/ledger?limit=10`)).body.data as { points: number }[];
    expect(ledger.map((e) => e.points)).toEqual([16, 451, 301, 301]);
    expect(moves(await history(ws, p))).toEqual(['bronze>silver:qualified', 'silver>gold:qualified']);
  });
});

describe('rolling windows, grace and downgrades', () => {
  it('drops to the qualified level when credits leave the window and the grace ends (to_qualified)', async () => {
    const ws = await running({
      qualification: { window: 'rolling', duration: 'PT3S' },
      downgrade: { policy: 'to_qualified', grace: 'PT2S' },
    });
    const a = uid('a');
    await adjust(ws, a, 120);
    const gold = await adjust(ws, a, 400);
    let tier = await tierOf(ws, a);
    expect(tier).toMatchObject({ key: 'gold', qualifying_points: 520 });
    // When the first credit (120) leaves, 400 remain: keeping gold then needs 100 more.
    expect(tier!.retain.points_needed).toBe(100);
    expect(gold.id).toBeGreaterThan(0);
    // The credits leave (3 s), then the grace (2 s) ends: down to bronze, the level 0 points support.
    await eventually(async () => ((await tierOf(ws, a))!.qualifying_points === 0 ? true : null), 15_000);
    tier = await tierOf(ws, a);
    expect(tier!.key).toBe('gold');
    expect(tier!.retain).toMatchObject({ points_needed: 500 });
    await eventually(async () => ((await tierOf(ws, a))!.key === 'bronze' ? true : null), 15_000);
    expect(moves(await history(ws, a))).toEqual([
      'bronze>silver:qualified',
      'silver>gold:qualified',
      'gold>bronze:downgrade',
    ]);
  });

  it('one_down drops one level per evaluation', async () => {
    const ws = await running({
      qualification: { window: 'rolling', duration: 'PT2S' },
      downgrade: { policy: 'one_down', grace: 'PT2S' },
    });
    const a = uid('a');
    await adjust(ws, a, 600);
    await eventually(async () => ((await tierOf(ws, a))!.key === 'bronze' ? true : null), 20_000);
    expect(moves(await history(ws, a))).toEqual([
      'bronze>gold:qualified',
      'gold>silver:downgrade',
      'silver>bronze:downgrade',
    ]);
  });

  it('a credit during the grace that meets the level again keeps it', async () => {
    const ws = await running({
      qualification: { window: 'rolling', duration: 'PT1S' },
      downgrade: { policy: 'one_down', grace: 'PT6S' },
    });
    const b = uid('b');
    await adjust(ws, b, 600);
    await eventually(async () => ((await tierOf(ws, b))!.qualifying_points === 0 ? true : null), 15_000);
    const inGrace = await tierOf(ws, b);
    expect(inGrace).toMatchObject({ key: 'gold', retain: { points_needed: 500 } });
    await adjust(ws, b, 500);
    // The review is gone: nothing to wait for but the participant's row.
    const { rows } = await app.ctx.pool.query(
      `select tier_review_at from participants where workspace_id = $1 and external_id = $2`,
      [ws.id, b],
    );
    expect(rows[0].tier_review_at).toBeNull();
    expect(moves(await history(ws, b))).toEqual(['bronze>gold:qualified']);
  });

  it('a reversal takes its credit out of the window', async () => {
    const ws = await running({
      qualification: { window: 'rolling', duration: 'P30D' },
      downgrade: { policy: 'to_qualified' },
    });
    const a = uid('a');
    const e = await adjust(ws, a, 150);
    expect((await tierOf(ws, a))!.key).toBe('silver');
    const r = await ws.api(`/v1/participants/${a}/ledger/${e.id}/reversal`, { body: {} });
    expect(r.status, r.text).toBe(201);
    expect((await tierOf(ws, a))!.qualifying_points).toBe(0);
    // No grace: the next tick drops it.
    await eventually(async () => ((await tierOf(ws, a))!.key === 'bronze' ? true : null), 15_000);
    expect(moves(await history(ws, a))).toEqual(['bronze>silver:qualified', 'silver>bronze:downgrade']);
  });
});

describe('calendar windows', () => {
  it('counts the current period; at its end a level the ended period does not support is reviewed after the grace', async () => {
    const ws = await app.workspace();
    await ws.api('/v1/program', { method: 'PATCH', body: { timezone: 'Pacific/Auckland' } });
    await putTiers(
      ws,
      programme({
        qualification: { window: 'calendar', period: 'month' },
        downgrade: { policy: 'one_down', grace: 'P7D' },
      }),
    );
    await applied(ws);
    const a = uid('a');
    const b = uid('b');
    await adjust(ws, a, 700);
    await adjust(ws, b, 150);
    const tier = await tierOf(ws, a);
    expect(tier).toMatchObject({ key: 'gold', qualifying_points: 700 });
    // Keeping gold needs 500 this month, by the month's end in Auckland.
    expect(tier!.retain.points_needed).toBe(0);
    expect(new Date(tier!.retain.by).getTime()).toBeGreaterThan(Date.now());

    // The month ends: a and b earned enough in it; two months on, neither earned anything.
    const nextMonth = new Date(tier!.retain.by);
    await runTierTick(app.ctx, new Date(nextMonth.getTime() + 1000));
    expect((await tierOf(ws, a))!.key).toBe('gold');
    const inTwo = new Date(nextMonth.getTime() + 40 * 86_400_000);
    await runTierTick(app.ctx, inTwo);
    // The month after ended with nothing earned: reviewed a week after that end, one level down.
    await runTierTick(app.ctx, new Date(inTwo.getTime() + 8 * 86_400_000));
    expect(moves(await history(ws, a))).toEqual(['bronze>gold:qualified', 'gold>silver:downgrade']);
    expect(moves(await history(ws, b))).toEqual(['bronze>silver:qualified', 'silver>bronze:downgrade']);
  });
});

describe('manual levels', () => {
  it('sets a level by hand with the operator’s note; unknown keys and participants are refused', async () => {
    const ws = await app.workspace();
    const a = uid('a');
    await adjust(ws, a, 10);
    let r = await ws.api(`/v1/participants/${a}/tier`, {
      method: 'PUT',
      body: { key: 'gold', reason: 'VIP' },
    });
    expect(r.status).toBe(422);
    await putTiers(ws, programme());
    await applied(ws);
    r = await ws.api(`/v1/participants/${a}/tier`, {
      method: 'PUT',
      body: { key: 'gold', reason: 'VIP launch guest' },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ key: 'gold', qualifying_points: 10 });
    const h = await history(ws, a);
    expect(h.at(-1)).toMatchObject({ reason: 'manual', note: 'VIP launch guest', to: { key: 'gold' } });
    r = await ws.api(`/v1/participants/${a}/tier`, { method: 'PUT', body: { key: 'platinum', reason: 'x' } });
    expect(r.status).toBe(422);
    expect(r.body.error.errors[0].field).toBe('key');
    r = await ws.api(`/v1/participants/${uid('nobody')}/tier`, {
      method: 'PUT',
      body: { key: 'gold', reason: 'x' },
    });
    expect(r.status).toBe(404);
  });
});

describe('changing the programme', () => {
  it('previews the change, then the job moves each participant up once; DELETE moves everyone off', async () => {
    const ws = await running();
    const ids = [uid('a'), uid('b'), uid('c'), uid('d')];
    await adjust(ws, ids[0]!, 50);
    await adjust(ws, ids[1]!, 150);
    await adjust(ws, ids[2]!, 450);
    await adjust(ws, ids[3]!, 900);
    const lower = programme({
      levels: [
        { key: 'bronze', name: 'Bronze', threshold: 0 },
        { key: 'silver', name: 'Silver', threshold: 40 },
        { key: 'gold', name: 'Gold', threshold: 400 },
      ],
    });
    const preview = await ws.api('/v1/tiers/preview', { body: lower });
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body).toEqual({
      current: { bronze: 1, silver: 2, gold: 1 },
      proposed: { bronze: 0, silver: 2, gold: 2 },
      moves: [
        { from: 'bronze', to: 'silver', count: 1 },
        { from: 'silver', to: 'gold', count: 1 },
      ].sort((x, y) => y.count - x.count),
    });
    // Nothing changed.
    expect((await tierOf(ws, ids[0]!))!.key).toBe('bronze');
    await putTiers(ws, lower);
    await applied(ws);
    expect((await tierOf(ws, ids[0]!))!.key).toBe('silver');
    expect((await tierOf(ws, ids[2]!))!.key).toBe('gold');
    expect(moves(await history(ws, ids[2]!))).toEqual([
      'bronze>silver:qualified',
      'silver>gold:programme_change',
    ]);
    // Run the job again by hand: nobody moves twice.
    await runTierTick(app.ctx);
    expect((await history(ws, ids[2]!)).length).toBe(2);

    const r = await ws.api('/v1/tiers', { method: 'DELETE' });
    expect(r.status, r.text).toBe(200);
    await applied(ws);
    expect(await tierOf(ws, ids[3]!)).toBeNull();
    expect(moves(await history(ws, ids[3]!)).at(-1)).toBe('gold>null:programme_change');
    expect(moves(await history(ws, ids[0]!)).at(-1)).toBe('silver>null:programme_change');
  });

  it('a new window recounts qualifying points from the ledger', async () => {
    const ws = await app.workspace();
    const a = uid('a');
    await adjust(ws, a, 300);
    await putTiers(
      ws,
      programme({
        qualification: { window: 'rolling', duration: 'P30D' },
        downgrade: { policy: 'to_qualified' },
      }),
    );
    await applied(ws);
    expect(await tierOf(ws, a)).toMatchObject({ key: 'silver', qualifying_points: 300 });
    expect(moves(await history(ws, a))).toEqual(['bronze>silver:programme_change']);
  });
});

describe('benefits: a reward’s min_tier', () => {
  it('refuses redemption below it with 422 tier_required, after reward_unavailable and before out_of_stock', async () => {
    const ws = await app.workspace();
    let r = await ws.api('/v1/rewards', {
      body: { name: uid('lounge'), type: 'physical', cost_points: 10, min_tier: 'gold' },
    });
    expect(r.status).toBe(422);
    expect(r.body.error.errors[0].field).toBe('min_tier');
    await putTiers(ws, programme());
    await applied(ws);
    r = await ws.api('/v1/rewards', {
      body: { name: uid('lounge'), type: 'physical', cost_points: 10, min_tier: 'platinum' },
    });
    expect(r.status).toBe(422);
    r = await ws.api('/v1/rewards', {
      body: { name: uid('lounge'), type: 'physical', cost_points: 10, min_tier: 'silver', stock: 1 },
    });
    expect(r.status, r.text).toBe(201);
    const reward = r.body as { id: number; min_tier: string };
    expect(reward.min_tier).toBe('silver');
    const a = uid('a');
    const b = uid('b');
    await adjust(ws, a, 50);
    await adjust(ws, b, 150);
    const redeem = (who: string) =>
      ws.api('/v1/redemptions', { body: { participant: who, reward_id: reward.id } });

    const catalogue = async (who: string) =>
      ((await ws.api(`/v1/participants/${who}/rewards`)).body.data as Record<string, any>[]).find(
        (x) => x.id === reward.id,
      )!;
    expect(await catalogue(a)).toMatchObject({ can_afford: true, tier_eligible: false });
    expect(await catalogue(b)).toMatchObject({ can_afford: true, tier_eligible: true });

    r = await redeem(a);
    expect(r.status).toBe(422);
    expect(r.body.error).toMatchObject({ type: 'tier_required', min_tier: 'silver' });
    expect((await redeem(b)).status).toBe(201);
    // Out of stock now: a is still told tier_required first, b out_of_stock.
    expect((await redeem(a)).body.error.type).toBe('tier_required');
    await adjust(ws, b, 0 + 10);
    expect((await redeem(b)).body.error.type).toBe('out_of_stock');
    // Inactive: reward_unavailable comes first.
    await ws.api(`/v1/rewards/${reward.id}`, { method: 'PATCH', body: { active: false } });
    expect((await redeem(a)).body.error.type).toBe('reward_unavailable');
    // A manual level reaches it.
    await ws.api(`/v1/rewards/${reward.id}`, {
      method: 'PATCH',
      body: { active: true, stock: 5, min_tier: null },
    });
    expect((await catalogue(a)).tier_eligible).toBe(true);
    expect(await ledgerMismatches(app, ws)).toEqual([]);
  });
});

describe('each move once, under concurrency', () => {
  it('a programme change walked by several workers at once moves each participant once', async () => {
    const ws = await running();
    // 4,500 participants with 60 lifetime points each, in one statement (more than two walk batches).
    await app.ctx.pool.query(
      `insert into participants (workspace_id, mode, external_id, lifetime_points)
       select $1, 'test', 'w-' || g, 60 from generate_series(1, 4500) g`,
      [ws.id],
    );
    const lower = programme({
      levels: [
        { key: 'bronze', name: 'Bronze', threshold: 0 },
        { key: 'silver', name: 'Silver', threshold: 50 },
        { key: 'gold', name: 'Gold', threshold: 500 },
      ],
    });
    expect((await ws.api('/v1/tiers/preview', { body: lower })).body.moves).toEqual([
      { from: 'bronze', to: 'silver', count: 4500 },
    ]);
    await putTiers(ws, lower);
    // Four "workers" beside the app's own tick.
    await Promise.all([1, 2, 3, 4].map(() => runTierTick(app.ctx)));
    await applied(ws);
    const { rows } = await app.ctx.pool.query(
      `select p.tier_key, count(h.id) as moves from participants p
         left join tier_history h on h.participant_id = p.id
        where p.workspace_id = $1 and p.external_id like 'w-%' group by p.id, p.tier_key`,
      [ws.id],
    );
    expect(rows.length).toBe(4500);
    expect(rows.every((r) => r.tier_key === 'silver' && Number(r.moves) === 1)).toBe(true);
    expect((await outboxOf(app, ws, 'tier.changed')).length).toBe(4500);
  });

  it('concurrent credits of one participant move them up once per level crossed', async () => {
    const ws = await running();
    const a = uid('a');
    await adjust(ws, a, 1);
    await Promise.all(Array.from({ length: 20 }, () => adjust(ws, a, 30)));
    expect(await tierOf(ws, a)).toMatchObject({ key: 'gold', qualifying_points: 601 });
    expect(moves(await history(ws, a))).toEqual(['bronze>silver:qualified', 'silver>gold:qualified']);
  });
});

describe('what counts', () => {
  it('pending points count once activated, not before', async () => {
    const ws = await running();
    await buildFlow(ws, { actions: [{ type: 'award_points', points: 150, pending_for: 'PT2S' }] });
    const p = uid('p');
    const r = await ws.api('/v1/events', {
      body: { event_type: 'order.completed', participant: { external_id: p }, payload: {} },
    });
    expect(r.status).toBe(202);
    await eventually(async () =>
      (await ws.api(`/v1/participants/${p}`)).body.pending_points === 150 ? true : null,
    );
    expect(await tierOf(ws, p)).toMatchObject({ key: 'bronze', qualifying_points: 0 });
    await eventually(async () => ((await tierOf(ws, p))!.key === 'silver' ? true : null), 15_000);
    expect(moves(await history(ws, p))).toEqual(['bronze>silver:qualified']);
  });
});
