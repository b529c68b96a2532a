import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uuidv7, uuidv7Floor } from '../src/lib/uuid7.ts';
import { processEvents } from '../src/services/events/process-events.ts';
import { lookbackFloor, PULL_BUDGET, pullLimit } from '../src/services/flows/engine/load.ts';
import { buildFlow } from './factories.ts';
import { startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

// Per-participant order across batches (engine/load.ts, `loadBatch`): a batch that gets its
// participants' locks before a slower batch holding their earlier events applies those first.
// The app runs the API only, so accepted events wait as `received` until this test hands them
// to the engine, in the order a slow and a fast worker would.
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ role: 'api' });
});
afterAll(async () => {
  await app?.close();
});

const q = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
  (await app.ctx.pool.query(sql, params)).rows as T[];

async function post(ws: TestWorkspace, participant: string) {
  const res = await ws.api('/v1/events', { body: { event_type: 'order.completed', participant } });
  expect(res.status).toBe(202);
  return res.body.event_id as string;
}

/** A flow that awards a badge on a participant's third order. */
async function thirdOrderFlow(ws: TestWorkspace) {
  return buildFlow(ws, {
    name: 'Third order',
    event_type: 'order.completed',
    conditions: { '==': [{ event_count: 'order.completed' }, 3] },
    actions: [{ type: 'award_badge', badge: 'regular' }],
  });
}

const statuses = async (ids: string[]) =>
  Object.fromEntries(
    (
      await q<{ id: string; status: string }>(`select id, status from events where id = any($1::uuid[])`, [
        ids,
      ])
    ).map((r) => [r.id, r.status]),
  );

const runEvents = async (flowId: string) =>
  (await q<{ event_id: string }>(`select event_id from flow_runs where flow_id = $1`, [flowId])).map(
    (r) => r.event_id,
  );

/** Participant p's stored count of orders. */
const orders = async (ws: TestWorkspace) =>
  Number(
    (
      await q<{ count: string }>(
        `select c.count from participant_event_counts c join participants p on p.id = c.participant_id
          where p.workspace_id = $1 and p.external_id = 'p' and c.event_type = 'order.completed'`,
        [ws.id],
      )
    )[0]!.count,
  );

describe('order of a participant’s events across batches', () => {
  it('a batch that overtakes another applies the earlier events it finds first', async () => {
    const ws = await app.workspace();
    const flow = await thirdOrderFlow(ws);
    const other = await post(ws, 'q');
    const ids = [await post(ws, 'p'), await post(ws, 'p'), await post(ws, 'p'), await post(ws, 'p')];

    // The fast batch holds the 3rd and 4th orders; the 1st and 2nd sit in a slower one.
    expect(await processEvents(app.ctx, ids.slice(2))).toEqual(new Map());
    expect(await runEvents(flow.id)).toEqual([ids[2]]);
    expect(await statuses([...ids, other])).toEqual({
      ...Object.fromEntries(ids.map((id) => [id, 'processed'])),
      [other]: 'received', // another participant's event is not this batch's to take
    });
    expect(await orders(ws)).toBe(4);

    // The slow batch arrives: its events are done already and drop out, changing nothing.
    expect(await processEvents(app.ctx, ids.slice(0, 2))).toEqual(new Map());
    expect(await runEvents(flow.id)).toEqual([ids[2]]);
    expect(await orders(ws)).toBe(4);
  });

  it('leaves an earlier event with a failed run to its own retries', async () => {
    const ws = await app.workspace();
    const flow = await thirdOrderFlow(ws);
    const ids = [await post(ws, 'p'), await post(ws, 'p')];
    // The first event's attempt failed earlier: its job retries it with its own attempt count.
    await q(
      `insert into flow_runs (id, workspace_id, mode, flow_id, event_id, participant_id, status, steps)
       select gen_random_uuid(), e.workspace_id, e.mode, $2, e.id, e.participant_id, 'failed',
              '[{"action":"award_badge","status":"failed","result":null,"error":"boom"}]'
         from events e where e.id = $1`,
      [ids[0], flow.id],
    );
    expect(await processEvents(app.ctx, [ids[1]!])).toEqual(new Map());
    expect(await statuses(ids)).toEqual({ [ids[0]!]: 'received', [ids[1]!]: 'processed' });
  });

  it('looks back a minute before the batch’s oldest event, no further', async () => {
    const ws = await app.workspace();
    await thirdOrderFlow(ws);
    const later = await post(ws, 'p');
    // An event of the same participant accepted two minutes earlier and never processed (its
    // job lost, say): recovering it is its job's business, not every later batch's.
    const old = uuidv7Floor(new Date(Date.now() - 120_000));
    await q(
      `insert into events (id, workspace_id, mode, event_type, participant_id, external_id, payload, occurred_at,
                           status, source)
       select $1, workspace_id, mode, event_type, participant_id, external_id, '{}', now(), 'received', 'api'
         from events where id = $2`,
      [old, later],
    );
    expect(await processEvents(app.ctx, [later])).toEqual(new Map());
    expect(await statuses([old, later])).toEqual({ [old]: 'received', [later]: 'processed' });
  });

  it('takes in at most its share of earlier events, the earliest, and hands its own left behind to a new job', async () => {
    const ws = await app.workspace();
    const flow = await thirdOrderFlow(ws);
    const first = await post(ws, 'p');
    // PULL_BUDGET more earlier orders still waiting (accepted, their jobs not run yet), then the
    // batch's own order: one more than a batch of one participant takes in.
    const earlier = Array.from({ length: PULL_BUDGET }, () => uuidv7());
    const own = await post(ws, 'p');
    await q(
      `insert into events (id, workspace_id, mode, event_type, participant_id, external_id, payload, occurred_at,
                           status, source)
       select x.id, e.workspace_id, e.mode, e.event_type, e.participant_id, e.external_id, '{}', now(), 'received', 'api'
         from events e cross join unnest($2::uuid[]) x(id) where e.id = $1`,
      [own, earlier],
    );
    const ids = [first, ...earlier, own];
    const jobsOf = async (id: string) =>
      (
        await q<{ ids: string[] }>(
          `select data->'eventIds' as ids from pgboss.job where name = 'events.process' and data->'eventIds' ? $1`,
          [id],
        )
      ).map((j) => j.ids);
    expect(await jobsOf(own)).toEqual([[own]]); // ingest's

    expect(pullLimit(1)).toBe(PULL_BUDGET);
    expect(await processEvents(app.ctx, [own])).toEqual(new Map());
    // The earliest PULL_BUDGET are processed, in order: the badge on the third.
    const after = await statuses(ids);
    expect(ids.filter((id) => after[id] === 'processed')).toEqual(ids.slice(0, PULL_BUDGET));
    expect(await runEvents(flow.id)).toContain(ids[2]);
    expect(await orders(ws)).toBe(PULL_BUDGET);
    // Its own order waits behind the one left, in a job of its own.
    expect(await jobsOf(own)).toEqual([[own], [own]]);

    expect(await processEvents(app.ctx, [own])).toEqual(new Map());
    expect(Object.values(await statuses(ids)).every((s) => s === 'processed')).toBe(true);
    expect(await orders(ws)).toBe(PULL_BUDGET + 2);
    const badges = await q(
      `select r.event_id from flow_runs r where r.flow_id = $1 and r.steps::text like '%"award_badge"%completed%'`,
      [flow.id],
    );
    expect(badges.map((b) => b.event_id)).toEqual([ids[2]]);
    expect(await jobsOf(own)).toEqual([[own], [own]]);
  });

  it('shares the earlier events it takes in among its participants, at least one each', () => {
    expect(pullLimit(1)).toBe(PULL_BUDGET);
    expect(pullLimit(1000)).toBe(Math.floor(PULL_BUDGET / 1000));
    expect(pullLimit(PULL_BUDGET * 3)).toBe(1);
  });

  it('computes the floor as the first UUIDv7 of the minute before the oldest id', () => {
    const at = Date.UTC(2026, 10, 26, 12, 0, 0);
    const id = (ms: number, tail = '7abc-8def-0123456789ab') => {
      const hex = ms.toString(16).padStart(12, '0');
      return `${hex.slice(0, 8)}-${hex.slice(8)}-${tail}`;
    };
    expect(lookbackFloor([id(at + 5), id(at), id(at + 9)])).toBe(id(at - 60_000, '0000-0000-000000000000'));
  });
});
