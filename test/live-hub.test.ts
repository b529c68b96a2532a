import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveSubscription } from '../src/services/live/live-hub.ts';
import { LiveEnded, LiveHub } from '../src/services/live/live-hub.ts';
import { eventually, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

let app: TestApp;
let ws: TestWorkspace;

beforeAll(async () => {
  app = await startTestApp();
  ws = await app.workspace();
});
afterAll(() => app?.close());

const scope = (w: TestWorkspace, mode: 'test' | 'live' = 'test') => ({ workspaceId: w.id, mode });

/** Reads a subscription in the background, as a socket would; `take` and `quiet` look at what arrived. */
function reader<T>(sub: LiveSubscription<T>) {
  const items: T[] = [];
  let error: unknown = null;
  let seen = 0;
  (async () => {
    try {
      for await (const item of sub) {
        if (item instanceof LiveEnded) throw item;
        items.push(item);
      }
    } catch (err) {
      error = err;
    }
  })();
  return {
    items,
    get error() {
      return error;
    },
    /** The next `n` items, failing after `ms`. */
    async take(n: number, ms = 5_000): Promise<T[]> {
      await eventually(async () => items.length >= seen + n, ms);
      const out = items.slice(seen, seen + n);
      seen += n;
      return out;
    },
    /** Nothing more arrives within `ms`. */
    async quiet(ms = 300): Promise<void> {
      await new Promise((r) => setTimeout(r, ms));
      expect(items.slice(seen)).toEqual([]);
    },
    stop: () => sub.return(),
  };
}

const adjust = (w: TestWorkspace, who: string, points: number, mode: 'test' | 'live' = 'test') =>
  w.api(`/v1/participants/${who}/points`, { body: { points, reason: 'live' }, mode });

describe('live balance changes', () => {
  it('sends every ledger entry after it commits: adjustments, redemptions, cancellations, reversals', async () => {
    await adjust(ws, 'alice', 100);
    const sub = reader(await app.ctx.live.subscribe('balance', scope(ws), 'alice'));
    await sub.quiet();
    const credit = await adjust(ws, 'alice', 50);
    const reward = await ws.api('/v1/rewards', {
      body: { name: 'mug', type: 'physical', cost_points: 30, stock: 5 },
    });
    const redemption = await ws.api('/v1/redemptions', {
      body: { participant: 'alice', reward_id: reward.body.id },
    });
    await ws.api(`/v1/redemptions/${redemption.body.id}/cancel`, { method: 'POST' });
    await ws.api(`/v1/participants/alice/ledger/${credit.body.id}/reversal`, { body: {} });
    const got = await sub.take(4);
    expect(got.map((c) => [c.entry.source, c.entry.points, c.balance])).toEqual([
      ['adjustment', 50, 150],
      ['redemption', -30, 120],
      ['reversal', 30, 150],
      ['reversal', -50, 100],
    ]);
    expect(got.every((c) => c.external_id === 'alice')).toBe(true);
    await sub.stop();
  });

  it('keeps ledger order under 50 concurrent adjustments, with nothing lost or doubled', async () => {
    await adjust(ws, 'bob', 1);
    const sub = reader(await app.ctx.live.subscribe('balance', scope(ws), 'bob'));
    await Promise.all(Array.from({ length: 50 }, (_, i) => adjust(ws, 'bob', i + 1)));
    const got = await sub.take(50, 10_000);
    const ids = got.map((c) => c.entry.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(50);
    expect(got.at(-1)!.balance).toBe(1 + (50 * 51) / 2);
    for (let i = 1; i < got.length; i++)
      expect(got[i]!.balance).toBe(got[i - 1]!.balance + got[i]!.entry.points);
    await sub.quiet();
    await sub.stop();
  });

  it('isolates workspaces, modes and participants', async () => {
    const other = await app.workspace();
    await adjust(ws, 'carol', 1);
    await adjust(ws, 'carol', 1, 'live');
    await adjust(other, 'carol', 1);
    const sub = reader(await app.ctx.live.subscribe('balance', scope(ws), 'carol'));
    await adjust(other, 'carol', 5);
    await adjust(ws, 'carol', 7, 'live');
    await adjust(ws, 'dave', 9);
    await sub.quiet(500);
    await adjust(ws, 'carol', 3);
    expect((await sub.take(1))[0]!.entry.points).toBe(3);
    await sub.stop();
  });

  it('refuses an unknown participant with not_found', async () => {
    await expect(app.ctx.live.subscribe('balance', scope(ws), 'nobody')).rejects.toMatchObject({
      type: 'not_found',
    });
  });

  it('loses nothing when its LISTEN connection dies: it reconnects and catches up by id', async () => {
    await adjust(ws, 'erin', 1);
    const sub = reader(await app.ctx.live.subscribe('balance', scope(ws), 'erin'));
    const pid = app.ctx.live.listenerPid;
    expect(pid).toBeTruthy();
    const before = app.ctx.live.reconnects;
    await app.ctx.pool.query('select pg_terminate_backend($1)', [pid]);
    // Committed while nobody listens: read on reconnection.
    await adjust(ws, 'erin', 2);
    await eventually(async () => app.ctx.live.reconnects > before);
    await adjust(ws, 'erin', 3);
    expect((await sub.take(2)).map((c) => c.entry.points)).toEqual([2, 3]);
    await sub.stop();
  });

  it('ends a subscriber that does not read, once it is bufferLimit updates behind', async () => {
    const hub = new LiveHub({
      databaseUrl: app.databaseUrl,
      pool: app.ctx.pool,
      log: app.ctx.log,
      bufferLimit: 5,
    });
    try {
      await adjust(ws, 'frank', 1);
      const slow = await hub.subscribe('balance', scope(ws), 'frank');
      const fast = reader(await hub.subscribe('balance', scope(ws), 'frank'));
      for (let i = 0; i < 8; i++) await adjust(ws, 'frank', 1);
      expect(await fast.take(8)).toHaveLength(8);
      const last = await slow.next();
      expect(last.value).toBeInstanceOf(LiveEnded);
      expect(last.value).toMatchObject({ message: expect.stringMatching(/fell more than 5/) });
      expect((await slow.next()).done).toBe(true);
      expect(hub.size).toBe(1);
      await fast.stop();
      expect(hub.size).toBe(0);
    } finally {
      await hub.close();
    }
  });
});

describe('live badge awards', () => {
  it('sends an award made by a flow in the worker, after it commits', async () => {
    const flow = await ws.api('/v1/flows', {
      body: {
        name: 'first order',
        event_type: 'order.completed',
        actions: [{ type: 'award_badge', badge: 'first-order', tier: 'gold' }],
      },
    });
    expect(flow.status).toBe(201);
    await adjust(ws, 'gina', 1);
    const sub = reader(await app.ctx.live.subscribe('badge', scope(ws), 'gina'));
    await ws.api('/v1/events', { body: { event_type: 'order.completed', participant: 'gina' } });
    const [award] = await sub.take(1, 10_000);
    expect(award).toMatchObject({
      external_id: 'gina',
      badge: { key: 'first-order', tier: 'gold' },
      flow_run_id: expect.any(String),
    });
    await sub.stop();
  });
});

describe('what the triggers cost writes nobody watches', () => {
  it('sends NOTIFY only for watched participants, and stops when the last subscriber leaves', async () => {
    const listener = new (await import('pg')).default.Client({ connectionString: app.databaseUrl });
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (m) => heard.push(m.payload ?? ''));
    await listener.query('listen svc_live');
    try {
      const quietOnes = await adjust(ws, 'unwatched', 5);
      expect(quietOnes.status).toBe(201);
      await adjust(ws, 'watched', 5);
      const sub = reader(await app.ctx.live.subscribe('balance', scope(ws), 'watched'));
      await adjust(ws, 'watched', 1);
      await adjust(ws, 'unwatched', 1);
      await sub.take(1);
      await eventually(async () => heard.length >= 1);
      const { rows } = await app.ctx.pool.query('select id::text from participants where external_id = $1', [
        'watched',
      ]);
      expect(heard).toEqual([`l:${rows[0]!.id}`]);
      await sub.stop();
      await eventually(async () => {
        const w = await app.ctx.pool.query('select 1 from live_watches where participant_id = $1', [
          rows[0]!.id,
        ]);
        return w.rowCount === 0;
      });
      await adjust(ws, 'watched', 1);
      await new Promise((r) => setTimeout(r, 200)); // the window in which a NOTIFY would arrive
      expect(heard).toHaveLength(1);
    } finally {
      await listener.end();
    }
  });
});
