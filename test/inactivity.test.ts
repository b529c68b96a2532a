import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInactivityTick } from '../src/services/inactivity/tick.ts';
import { buildFlow, buildParticipant, graphqlClient, ledgerMismatches, trpcClient } from './factories.ts';
import { eventually, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

// Inactivity flows (docs/engagement.md#inactivity) against the real Postgres: flows are set up
// through REST and the job is called with a later `now` (no long sleeps); the app's own loyalty
// tick finds a one-second spell in a second app ticking every second. The main app ticks once a
// day, so only this file's own calls run its job.

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ env: { LOYALTY_TICK_SECONDS: '86400' } });
});
afterAll(() => app?.close());

let seq = 0;
const uid = (p: string) => `${p}-${++seq}-${Date.now().toString(36)}`;
const HOUR = 3_600_000;
const at = (ms: number) => new Date(Date.now() + ms);

/** Sends an event and waits until the engine has processed it. */
async function send(ws: TestWorkspace, type: string, who: string, occurredAt?: Date) {
  const res = await ws.api('/v1/events', {
    body: {
      event_type: type,
      participant: { external_id: who },
      ...(occurredAt ? { occurred_at: occurredAt.toISOString() } : {}),
    },
  });
  expect(res.status, res.text).toBe(202);
  const id = res.body.event_id as string;
  await eventually(async () => {
    const r = await ws.api(`/v1/events/${id}`);
    return r.body.status === 'processed' ? r.body : null;
  }, 15_000);
  return id;
}

const idleFlow = (ws: TestWorkspace, over: Record<string, unknown> = {}) =>
  buildFlow(ws, {
    event_type: undefined,
    trigger: { type: 'inactivity', after: 'PT1H' },
    actions: [{ type: 'award_points', points: 10, reason: 'we miss you' }],
    ...over,
  });

const runsOf = async (ws: TestWorkspace, flowId: string) => {
  const r = await ws.api(`/v1/flow-runs?flow_id=${flowId}&limit=100`);
  expect(r.status, r.text).toBe(200);
  return r.body.data as Record<string, any>[];
};

const balance = async (ws: TestWorkspace, who: string) => {
  const r = await ws.api(`/v1/participants/${who}`);
  expect(r.status, r.text).toBe(200);
  return r.body.balance as number;
};

const flowCompleted = async (ws: TestWorkspace, flowId: string) =>
  (
    await app.ctx.pool.query(
      `select data from outbox where workspace_id = $1 and type = 'flow.completed' and data->'flow'->>'id' = $2 order by id`,
      [ws.id, flowId],
    )
  ).rows.map((r) => r.data as Record<string, any>);

const creditsOf = async (ws: TestWorkspace, who: string) =>
  (
    await app.ctx.pool.query(
      `select l.points, l.reference, l.idempotency_key from ledger_entries l
         join participants p on p.id = l.participant_id
        where p.workspace_id = $1 and p.external_id = $2 and l.source = 'flow' order by l.id`,
      [ws.id, who],
    )
  ).rows;

/** The idle spells a flow ran for, oldest first (the runs' `spell_at`, not part of the API). */
const spellsOf = async (flowId: string) =>
  (
    await app.ctx.pool.query(`select spell_at from flow_runs where flow_id = $1 order by spell_at`, [flowId])
  ).rows.map((r) => (r.spell_at as Date).toISOString());

const occurredAt = async (eventId: string) =>
  (
    (await app.ctx.pool.query(`select occurred_at from events where id = $1`, [eventId])).rows[0]
      .occurred_at as Date
  ).toISOString();

describe('inactivity flows: input', () => {
  it('refuses a flow without exactly one valid event_type or trigger, with 422 naming the field', async () => {
    const ws = await app.workspace();
    const base = { name: 'Idle', actions: [{ type: 'award_points', points: 1 }] };
    const trigger = { type: 'inactivity', after: 'P30D' };
    const bad: [Record<string, unknown>, string][] = [
      [base, 'event_type'],
      [{ ...base, event_type: 'order.completed', trigger }, 'trigger'],
      [{ ...base, event_type: null }, 'event_type'],
      [{ ...base, trigger: null }, 'trigger'],
      [{ ...base, trigger: { ...trigger, type: 'idle' } }, 'trigger.type'],
      [{ ...base, trigger: { type: 'inactivity' } }, 'trigger.after'],
      [{ ...base, trigger: { ...trigger, after: 'soon' } }, 'trigger.after'],
      [{ ...base, trigger: { ...trigger, after: 'PT0S' } }, 'trigger.after'],
      [{ ...base, trigger: { ...trigger, after: '-P1D' } }, 'trigger.after'],
      [{ ...base, trigger: { ...trigger, event_types: [] } }, 'trigger.event_types'],
      [{ ...base, trigger: { ...trigger, event_types: [' '] } }, 'trigger.event_types.0'],
      [{ ...base, trigger: { ...trigger, event_types: ['x\u0000'] } }, 'trigger.event_types.0'],
      [
        { ...base, trigger: { ...trigger, event_types: Array.from({ length: 51 }, (_, i) => `t${i}`) } },
        'trigger.event_types',
      ],
      [{ ...base, trigger: { ...trigger, colour: 'blue' } }, 'trigger'],
      [{ ...base, trigger: 'P30D' }, 'trigger'],
    ];
    for (const [body, field] of bad) {
      const r = await ws.api('/v1/flows', { body });
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.error.type).toBe('validation_error');
      expect(
        r.body.error.errors.map((e: { field: string }) => e.field),
        JSON.stringify(body),
      ).toContain(field);
    }
    expect((await ws.api('/v1/flows')).body.data).toEqual([]);

    const flow = await idleFlow(ws);
    const both = await ws.api(`/v1/flows/${flow.id}`, {
      method: 'PATCH',
      body: { event_type: 'order.completed', trigger },
    });
    expect(both.status).toBe(422);
    expect(both.body.error.errors.map((e: { field: string }) => e.field)).toContain('trigger');
  });

  it('shows a trigger instead of an event type, and a change from one to the other clears the other', async () => {
    const ws = await app.workspace();
    const flow = await idleFlow(ws, {
      trigger: { type: 'inactivity', after: 'P30D', event_types: ['order.completed'] },
    });
    expect(flow).toMatchObject({
      event_type: null,
      trigger: { type: 'inactivity', after: 'P30D', event_types: ['order.completed'] },
    });
    expect((await ws.api(`/v1/flows/${flow.id}`)).body).toEqual(flow);
    const plain = await idleFlow(ws, { trigger: { type: 'inactivity', after: 'P2W' } });
    expect(plain.trigger).toEqual({ type: 'inactivity', after: 'P2W', event_types: null });

    const toEvent = await ws.api(`/v1/flows/${flow.id}`, {
      method: 'PATCH',
      body: { event_type: 'order.completed' },
    });
    expect(toEvent.status, toEvent.text).toBe(200);
    expect(toEvent.body).toMatchObject({ event_type: 'order.completed', trigger: null });
    const back = await ws.api(`/v1/flows/${flow.id}`, {
      method: 'PATCH',
      body: { trigger: { type: 'inactivity', after: 'PT12H' } },
    });
    expect(back.body).toMatchObject({ event_type: null, trigger: { after: 'PT12H', event_types: null } });
    const event = await buildFlow(ws);
    expect(event).toMatchObject({ event_type: 'order.completed', trigger: null });
  });

  it('takes a trigger through GraphQL and tRPC, and refuses a bad one naming the argument', async () => {
    const ws = await app.workspace();
    const gql = graphqlClient(app, ws);
    const FIELDS = 'id eventType trigger { type after eventTypes }';
    const { createFlow } = await gql.data<{ createFlow: Record<string, any> }>(
      `mutation ($input: CreateFlowInput!) { createFlow(input: $input) { ${FIELDS} } }`,
      {
        input: {
          name: 'Idle (GraphQL)',
          trigger: { type: 'inactivity', after: 'P7D', eventTypes: ['order.completed'] },
          actions: [{ type: 'award_points', points: 5 }],
        },
      },
    );
    expect(createFlow).toMatchObject({
      eventType: null,
      trigger: { type: 'inactivity', after: 'P7D', eventTypes: ['order.completed'] },
    });
    const { updateFlow } = await gql.data<{ updateFlow: Record<string, any> }>(
      `mutation ($id: ID!, $input: UpdateFlowInput!) { updateFlow(id: $id, input: $input) { ${FIELDS} } }`,
      { id: createFlow.id, input: { trigger: { type: 'inactivity', after: 'P8D' } } },
    );
    expect(updateFlow.trigger).toEqual({ type: 'inactivity', after: 'P8D', eventTypes: null });
    const bad = await gql(`mutation ($input: CreateFlowInput!) { createFlow(input: $input) { id } }`, {
      input: {
        name: 'Bad',
        trigger: { type: 'inactivity', after: 'later', eventTypes: [] },
        actions: [{ type: 'award_points', points: 5 }],
      },
    });
    const err = bad.body.errors?.[0];
    expect(err?.extensions?.code, bad.text).toBe('validation_error');
    const fields = err.extensions.errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['input.trigger.after', 'input.trigger.eventTypes']));

    const client = await trpcClient(app, ws);
    const viaTrpc = await client.flows.create.mutate({
      mode: 'test',
      name: 'Idle (tRPC)',
      trigger: { type: 'inactivity', after: 'P1D' },
      actions: [{ type: 'award_badge', badge: 'idle' }],
    });
    expect(viaTrpc).toMatchObject({ event_type: null, trigger: { after: 'P1D', event_types: null } });
    await expect(
      client.flows.create.mutate({
        mode: 'test',
        name: 'Neither',
        actions: [{ type: 'award_badge', badge: 'idle' }],
      }),
    ).rejects.toThrow(/event_type/);
  });
});

describe('inactivity flows: the job', () => {
  it('runs once per idle spell, not again without a new event, and again after one', async () => {
    const ws = await app.workspace();
    const flow = await idleFlow(ws);
    const who = uid('idle');
    const first = await send(ws, 'page.view', who);
    // A participant with no event at all is not in a spell.
    const silent = await buildParticipant(app, ws);

    await runInactivityTick(app.ctx, at(HOUR / 2));
    expect(await runsOf(ws, flow.id)).toEqual([]);

    await runInactivityTick(app.ctx, at(2 * HOUR));
    const runs = await runsOf(ws, flow.id);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      event_id: null,
      participant: { external_id: who },
      status: 'completed',
      steps: [{ action: 'award_points', status: 'completed', result: { points: 10 } }],
    });
    expect(await balance(ws, who)).toBe(10);
    expect(await flowCompleted(ws, flow.id)).toEqual([
      expect.objectContaining({ event_id: null, flow_run_id: runs[0]!.id, status: 'completed' }),
    ]);
    expect((await ws.api(`/v1/flow-runs/${runs[0]!.id}`)).body).toEqual(runs[0]);
    expect((await ws.api(`/v1/participants/${silent.externalId}`)).body.balance).toBe(0);
    // The spell is the time of their last event.
    expect(await spellsOf(flow.id)).toEqual([await occurredAt(first)]);

    // Still idle, the same spell: nothing more, however often the job looks.
    await runInactivityTick(app.ctx, at(3 * HOUR));
    await runInactivityTick(app.ctx, at(30 * HOUR));
    expect(await runsOf(ws, flow.id)).toHaveLength(1);

    // A new event starts a new spell: not due until `after` has passed again.
    const second = await send(ws, 'page.view', who, at(HOUR / 4));
    await runInactivityTick(app.ctx, at(HOUR));
    expect(await runsOf(ws, flow.id)).toHaveLength(1);
    await runInactivityTick(app.ctx, at(2 * HOUR));
    const again = await runsOf(ws, flow.id);
    expect(again).toHaveLength(2);
    expect(await spellsOf(flow.id)).toEqual([await occurredAt(first), await occurredAt(second)]);
    expect(await balance(ws, who)).toBe(20);
    const credits = await creditsOf(ws, who);
    expect(credits.map((c) => c.points)).toEqual(['10', '10']);
    expect(new Set(credits.map((c) => c.idempotency_key)).size).toBe(2);
    expect(credits.every((c) => String(c.idempotency_key).startsWith('idle:'))).toBe(true);
    expect(await ledgerMismatches(app, ws)).toEqual([]);
  });

  it('waits only on the trigger’s event types', async () => {
    const ws = await app.workspace();
    const orders = await idleFlow(ws, {
      trigger: { type: 'inactivity', after: 'PT1H', event_types: ['order.completed'] },
    });
    const any = await idleFlow(ws);
    const browser = uid('browser');
    const buyer = uid('buyer');
    await send(ws, 'page.view', browser, at(-3 * HOUR));
    // The buyer's last order is three hours old; a page view just now does not count for `orders`.
    await send(ws, 'order.completed', buyer, at(-3 * HOUR));
    await send(ws, 'page.view', buyer);

    await runInactivityTick(app.ctx, at(60_000));
    expect((await runsOf(ws, orders.id)).map((r) => r.participant.external_id)).toEqual([buyer]);
    // Every type counts for `any`: the browser is idle, the buyer is not.
    expect((await runsOf(ws, any.id)).map((r) => r.participant.external_id)).toEqual([browser]);
  });

  it('evaluates conditions over the participant; a spell they do not meet is looked at once, as a skipped run', async () => {
    const ws = await app.workspace();
    const flow = await idleFlow(ws, {
      conditions: {
        and: [
          { '>=': [{ var: 'participant.balance' }, 50] },
          { '==': [{ var: 'event.type' }, 'inactivity'] },
          { '==': [{ event_count: 'order.completed' }, 1] },
        ],
      },
      actions: [{ type: 'award_badge', badge: 'we-miss-you' }],
    });
    const rich = uid('rich');
    const poor = uid('poor');
    await send(ws, 'order.completed', rich);
    await send(ws, 'order.completed', poor);
    const r = await ws.api(`/v1/participants/${rich}/points`, { body: { points: 60, reason: 'test' } });
    expect(r.status, r.text).toBe(201);

    await runInactivityTick(app.ctx, at(2 * HOUR));
    const runs = await runsOf(ws, flow.id);
    const byWho = Object.fromEntries(runs.map((x) => [x.participant.external_id, x]));
    expect(byWho[rich]).toMatchObject({
      status: 'completed',
      steps: [{ action: 'award_badge', status: 'completed' }],
    });
    expect(byWho[poor]).toMatchObject({ status: 'skipped', steps: [], event_id: null });
    expect((await flowCompleted(ws, flow.id)).map((d) => d.participant.external_id)).toEqual([rich]);
    const badges = await app.ctx.pool.query(
      `select p.external_id from participant_badges pb join participants p on p.id = pb.participant_id
        where pb.workspace_id = $1`,
      [ws.id],
    );
    expect(badges.rows.map((b) => b.external_id)).toEqual([rich]);

    // A richer participant later in the same spell: it was looked at, it stays so.
    await ws.api(`/v1/participants/${poor}/points`, { body: { points: 60, reason: 'test' } });
    await runInactivityTick(app.ctx, at(3 * HOUR));
    expect(await runsOf(ws, flow.id)).toHaveLength(2);
  });

  it('reads windowed counts as of the spell’s end', async () => {
    const ws = await app.workspace();
    const flow = await idleFlow(ws, {
      trigger: { type: 'inactivity', after: 'PT1H', event_types: ['order.completed'] },
      // Two orders in the week before they went quiet.
      conditions: { '>=': [{ event_count: ['order.completed', 'P7D'] }, 2] },
    });
    const regular = uid('regular');
    const once = uid('once');
    await send(ws, 'order.completed', regular, at(-20 * 24 * HOUR));
    await send(ws, 'order.completed', regular, at(-3 * HOUR));
    await send(ws, 'order.completed', regular, at(-2 * HOUR));
    await send(ws, 'order.completed', once, at(-20 * 24 * HOUR));
    await send(ws, 'order.completed', once, at(-2 * HOUR));

    await runInactivityTick(app.ctx, at(0));
    const runs = await runsOf(ws, flow.id);
    const byWho = Object.fromEntries(runs.map((x) => [x.participant.external_id, x.status]));
    expect(byWho).toEqual({ [regular]: 'completed', [once]: 'skipped' });
  });

  it('counts runs toward max_runs_per_participant, not spells it skipped', async () => {
    const ws = await app.workspace();
    const flow = await idleFlow(ws, { max_runs_per_participant: 1 });
    const who = uid('once');
    await send(ws, 'page.view', who);
    await runInactivityTick(app.ctx, at(2 * HOUR));
    await send(ws, 'page.view', who, at(HOUR / 4));
    await runInactivityTick(app.ctx, at(3 * HOUR));
    const runs = await runsOf(ws, flow.id);
    expect(runs.map((r) => [r.status, r.steps.length])).toEqual([
      ['skipped', 0],
      ['completed', 1],
    ]);
    expect(await balance(ws, who)).toBe(10);
  });

  it('awards points and a badge exactly once per spell when two jobs run at the same time', async () => {
    const ws = await app.workspace();
    const flow = await idleFlow(ws, {
      actions: [
        { type: 'award_points', points: 25 },
        { type: 'award_badge', badge: 'dormant' },
      ],
    });
    const people = Array.from({ length: 6 }, () => uid('pair'));
    for (const who of people) await send(ws, 'page.view', who);

    const later = at(2 * HOUR);
    // Each skips the participants the other holds, and finds their spells run once it has them.
    await Promise.all([runInactivityTick(app.ctx, later), runInactivityTick(app.ctx, later)]);

    const runs = await runsOf(ws, flow.id);
    expect(runs.map((r) => r.participant.external_id).sort()).toEqual([...people].sort());
    for (const who of people) {
      expect(await balance(ws, who)).toBe(25);
      expect(await creditsOf(ws, who)).toHaveLength(1);
    }
    const badges = await app.ctx.pool.query(
      `select count(*)::int as n from participant_badges where workspace_id = $1`,
      [ws.id],
    );
    expect(badges.rows[0].n).toBe(people.length);
    expect(await flowCompleted(ws, flow.id)).toHaveLength(people.length);
    expect(await ledgerMismatches(app, ws)).toEqual([]);
  });

  it('gives its awards to the points mechanics like an event’s: an earning cap, pending points with no event', async () => {
    const ws = await app.workspace();
    const program = await ws.api('/v1/program', {
      method: 'PATCH',
      body: { earning_caps: [{ period: 'day', max_points: 15 }] },
    });
    expect(program.status, program.text).toBe(200);
    const capped = await idleFlow(ws, { actions: [{ type: 'award_points', points: 40 }] });
    const pending = await idleFlow(ws, {
      actions: [{ type: 'award_points', points: 5, pending_for: 'P1D' }],
    });
    const who = uid('mech');
    await send(ws, 'page.view', who);
    await runInactivityTick(app.ctx, at(2 * HOUR));

    const [cappedRun] = await runsOf(ws, capped.id);
    const [pendingRun] = await runsOf(ws, pending.id);
    // The flows ran in id order: the cap let 15 of 40 through, and nothing is left for the other.
    expect(cappedRun!.steps[0]).toMatchObject({
      status: 'completed',
      result: { points: 15, capped_points: 25 },
    });
    expect(pendingRun!.steps[0]).toMatchObject({ status: 'capped', result: { points: 0, capped_points: 5 } });
    expect(await balance(ws, who)).toBe(15);

    // Without a cap, the pending award waits in a grant that names no event.
    const ws2 = await app.workspace();
    const later = await idleFlow(ws2, { actions: [{ type: 'award_points', points: 5, pending_for: 'P1D' }] });
    const other = uid('pending');
    await send(ws2, 'page.view', other);
    await runInactivityTick(app.ctx, at(2 * HOUR));
    const [run] = await runsOf(ws2, later.id);
    expect(run!.steps[0]).toMatchObject({ status: 'completed', result: { points: 5 } });
    const grants = await ws2.api(`/v1/participants/${other}/pending-points`);
    expect(grants.status, grants.text).toBe(200);
    expect(grants.body.data).toEqual([
      expect.objectContaining({ points: 5, event_id: null, flow_run_id: run!.id, status: 'pending' }),
    ]);
    expect(await balance(ws2, other)).toBe(0);
  });

  it('leaves nothing behind when its transaction fails, and the next tick runs the spell once', async () => {
    const ws = await app.workspace();
    const flow = await idleFlow(ws, {
      actions: [
        { type: 'award_points', points: 7 },
        { type: 'award_badge', badge: 'crash' },
      ],
    });
    const who = uid('crash');
    await send(ws, 'page.view', who);
    // The run's row is written after the credits and the badge: failing it fails them too.
    const fn = `fail_runs_${flow.id.replace(/-/g, '')}`;
    await app.ctx.pool.query(
      `create function ${fn}() returns trigger language plpgsql as $$
         begin
           if new.flow_id = '${flow.id}' then raise exception 'crash before commit'; end if;
           return new;
         end $$`,
    );
    await app.ctx.pool.query(
      `create trigger ${fn} before insert on flow_runs for each row execute function ${fn}()`,
    );
    try {
      await expect(runInactivityTick(app.ctx, at(2 * HOUR))).rejects.toThrow(/crash before commit/);
    } finally {
      await app.ctx.pool.query(`drop trigger ${fn} on flow_runs`);
      await app.ctx.pool.query(`drop function ${fn}()`);
    }
    expect(await runsOf(ws, flow.id)).toEqual([]);
    expect(await balance(ws, who)).toBe(0);
    expect(await flowCompleted(ws, flow.id)).toEqual([]);

    await runInactivityTick(app.ctx, at(2 * HOUR));
    await runInactivityTick(app.ctx, at(2 * HOUR));
    expect(await runsOf(ws, flow.id)).toHaveLength(1);
    expect(await balance(ws, who)).toBe(7);
    expect(await creditsOf(ws, who)).toHaveLength(1);
    expect(await ledgerMismatches(app, ws)).toEqual([]);
  });

  it('leaves deleted and inactive flows alone', async () => {
    const ws = await app.workspace();
    const off = await idleFlow(ws, { active: false });
    const gone = await idleFlow(ws);
    expect((await ws.api(`/v1/flows/${gone.id}`, { method: 'DELETE' })).status).toBe(200);
    await send(ws, 'page.view', uid('nobody'));
    await runInactivityTick(app.ctx, at(2 * HOUR));
    expect(await runsOf(ws, off.id)).toEqual([]);
    expect(await runsOf(ws, gone.id)).toEqual([]);
  });
});

describe('inactivity flows: the app’s own tick', () => {
  let ticking: TestApp;
  beforeAll(async () => {
    ticking = await startTestApp({ env: { LOYALTY_TICK_SECONDS: '1' } });
  });
  afterAll(() => ticking?.close());

  it('finds a one-second spell within a few ticks', async () => {
    const ws = await ticking.workspace();
    const flow = await buildFlow(ws, {
      event_type: undefined,
      trigger: { type: 'inactivity', after: 'PT1S' },
      actions: [{ type: 'award_points', points: 3 }],
    });
    const who = uid('tick');
    await send(ws, 'page.view', who, new Date(Date.now() - 5_000));
    const runs = await eventually(async () => {
      const r = await ws.api(`/v1/flow-runs?flow_id=${flow.id}`);
      return r.body.data.length ? (r.body.data as Record<string, any>[]) : null;
    }, 15_000);
    expect(runs).toEqual([expect.objectContaining({ event_id: null, status: 'completed' })]);
    expect((await ws.api(`/v1/participants/${who}`)).body.balance).toBe(3);
  });
});
