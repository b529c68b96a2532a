import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers.ts';

// A pooled client checked out across something slow (a message's SMTP send holds its session lock
// on one) whose connection Postgres ends (a restart): pg emits `error` on that client, and without
// a listener Node ends the process. Found by the chaos run (docs/chaos.md), where both workers died
// on every Postgres restart. Vitest fails the file on such an uncaught error.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

describe('a checked-out pool client whose connection is terminated', () => {
  it('fails its next query instead of ending the process; the pool carries on', async () => {
    const pool = app.ctx.pool;
    const client = await pool.connect();
    const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
    await app.ctx.pool.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
    // The FATAL message arrives while no query is active: the `error` event itself.
    await new Promise((r) => setTimeout(r, 300));
    await expect(client.query('select 1')).rejects.toThrow();
    client.release();
    const again = await pool.query<{ one: number }>('select 1 as one');
    expect(again.rows[0]!.one).toBe(1);
  });
});
