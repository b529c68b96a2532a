import type { ChildProcess } from 'node:child_process';
import { type Client, createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startWorkerProcess } from './factories.ts';
import { eventually, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

/**
 * Across processes, through Postgres alone: this file's app serves the API only (no workers), and
 * a real `svc serve --role worker` child process runs the flows. A change the worker commits
 * reaches a graphql-ws subscriber of the API process.
 */
let app: TestApp;
let ws: TestWorkspace;
let worker: ChildProcess | null = null;
const clients: Client[] = [];

beforeAll(async () => {
  app = await startTestApp({ role: 'api' });
  ws = await app.workspace();
  worker = await startWorkerProcess(app.databaseUrl);
}, 60_000);
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  if (worker) {
    const exited = new Promise((r) => worker!.once('exit', r));
    worker.kill('SIGTERM');
    await exited;
  }
  await app?.close();
});

describe('live updates across processes', () => {
  it('a flow award committed by a worker process reaches a subscriber on the API process', async () => {
    const flow = await ws.api('/v1/flows', {
      body: {
        name: 'order points',
        event_type: 'order.completed',
        actions: [
          { type: 'award_points', points: 10, reason: 'order' },
          { type: 'award_badge', badge: 'buyer' },
        ],
      },
    });
    expect(flow.status).toBe(201);
    await ws.api('/v1/participants/erin/points', { body: { points: 1, reason: 'seed' } });
    const client = createClient({
      url: `${app.url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${ws.keys.test}` },
      retryAttempts: 0,
    });
    clients.push(client);
    const balances: number[] = [];
    const badges: string[] = [];
    client.subscribe<{ balanceChanged: { balance: number } }>(
      { query: 'subscription { balanceChanged(externalId: "erin") { balance } }' },
      {
        next: (r) => r.data && balances.push(r.data.balanceChanged.balance),
        error: () => {},
        complete: () => {},
      },
    );
    client.subscribe<{ badgeAwarded: { badge: { key: string } } }>(
      { query: 'subscription { badgeAwarded(externalId: "erin") { badge { key } } }' },
      {
        next: (r) => r.data && badges.push(r.data.badgeAwarded.badge.key),
        error: () => {},
        complete: () => {},
      },
    );
    await eventually(async () => app.ctx.live.size >= 2);
    const event = await ws.api('/v1/events', {
      body: { event_type: 'order.completed', participant: 'erin' },
    });
    expect(event.status).toBe(202);
    await eventually(async () => balances.length === 1 && badges.length === 1, 15_000);
    expect(balances).toEqual([11]);
    expect(badges).toEqual(['buyer']);
    // Processed by the worker, not this process: it runs no workers.
    const { rows } = await app.ctx.pool.query('select status from events where id = $1', [
      event.body.event_id,
    ]);
    expect(rows[0]?.status).toBe('processed');
  }, 30_000);
});
