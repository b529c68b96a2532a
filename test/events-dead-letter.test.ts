import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { PROCESS_EVENT_QUEUE } from '../src/jobs/queues.ts';
import { type RunningServer, startServer } from '../src/server.ts';
import { eventually, startTestApp, type TestApp, type TestWorkspace, testEnv } from './helpers.ts';

// An API-only process accepts the events; their jobs are then driven by hand through pg-boss to
// the end of their retries, as a worker dying on every attempt would leave them.
let app: TestApp;
let ws: TestWorkspace;
let worker: RunningServer | undefined;

beforeAll(async () => {
  app = await startTestApp({ role: 'api' });
  ws = await app.workspace();
});
afterAll(async () => {
  await worker?.shutdown();
  await app?.close();
});

describe('events whose processing never finished', () => {
  it('are stored failed, with the reason, once their job has run out of retries', async () => {
    const accepted = await ws.api('/v1/events', { body: { type: 'abandoned', participant: 'a1' } });
    expect(accepted.status).toBe(202);
    const id = accepted.body.event_id as string;
    const boss = app.ctx.boss;
    const [job] = await boss.fetch(PROCESS_EVENT_QUEUE, { batchSize: 1 });
    expect(job?.data).toEqual({ eventIds: [id] });
    // The last attempt: what a worker that died on every earlier one leaves behind.
    await app.ctx.pool.query('update pgboss.job set retry_count = retry_limit where id = $1', [job!.id]);
    await boss.fail(PROCESS_EVENT_QUEUE, job!.id, { error: 'worker died' });
    expect((await ws.api(`/v1/events/${id}`)).body.status).toBe('received');

    worker = await startServer(loadConfig(testEnv(app.databaseUrl)), { role: 'worker' });
    const shown = await eventually(async () => {
      const r = await ws.api(`/v1/events/${id}`);
      return r.body.status === 'failed' ? r.body : null;
    });
    expect(shown.error).toMatch(/did not finish/);
  });
});
