import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIFECYCLE_QUEUE } from '../src/jobs/queues.ts';
import { workerProcesses } from './factories.ts';
import { eventually, startTestApp, type TestApp } from './helpers.ts';

// A real `svc serve --role worker` with WORKER_PORT: what a supervisor probes and Prometheus
// scrapes on a process that serves no API. The app serves the API only.
let app: TestApp;
const { start: startWorker, kill, killAll } = workerProcesses(() => app.databaseUrl);

beforeAll(async () => {
  app = await startTestApp({ role: 'api' });
});
afterAll(async () => {
  killAll();
  await app?.close();
});

describe('a worker process with WORKER_PORT', () => {
  it('answers health, readiness and its own metrics, and serves nothing else', async () => {
    const worker = await startWorker({ WORKER_PORT: '0' });
    expect(worker.http).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const base = worker.http!;

    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect(health.headers.get('x-request-id')).toMatch(/^req_/);
    expect(await health.json()).toEqual({ ok: true });
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ok: true, database: 'up' });

    // No API: the envelope's 404, with a request id, for a route the API process would serve.
    for (const path of ['/v1/participants', '/graphql', '/dashboard', '/']) {
      const res = await fetch(`${base}${path}`);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('x-request-id')).toMatch(/^req_/);
      expect((await res.json()).error.type).toBe('not_found');
    }

    // What only a worker counts is scrapeable there: a lifecycle run, done by this worker.
    const metrics = () => fetch(`${base}/metrics`).then((r) => r.text());
    expect(await metrics()).toMatch(/^svc_queue_depth\{queue="events\.process"\} \d+$/m);
    await app.ctx.boss.send(LIFECYCLE_QUEUE, {});
    await eventually(
      // At least this run (an hourly one may fall in the same minute).
      async () => /^svc_retention_runs_total\{outcome="completed"\} [1-9]\d*$/m.test(await metrics()),
      30_000,
    );
    await kill(worker);
  }, 90_000);

  it('listens on no port without WORKER_PORT', async () => {
    const worker = await startWorker();
    expect(worker.http).toBeNull();
    await kill(worker);
  }, 60_000);

  it('warns at start when its Postgres runs with autovacuum off, and only then', async () => {
    // This machine's Postgres has it off (its CI configuration); the embedded one has it on.
    const { rows } = await app.ctx.pool.query<{ on: boolean }>(
      `select current_setting('autovacuum')::boolean as on`,
    );
    const worker = await startWorker();
    const warnings = worker
      .log()
      .split('\n')
      .filter((l) => l.includes('autovacuum off'))
      .map((l) => JSON.parse(l) as { level: number; msg: string });
    expect(warnings).toHaveLength(rows[0]!.on ? 0 : 1);
    for (const w of warnings) {
      expect(w.level).toBe(40); // warn
      expect(w.msg).toContain('run VACUUM ANALYZE regularly');
    }
    await kill(worker);
  }, 60_000);
});
