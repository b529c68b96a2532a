/**
 * Suite `lifecycle`: the data lifecycle job deleting a large backlog while ingest goes on.
 *
 * Load: BENCH_LIFECYCLE_ROWS (5,000,000) processed events received 400 days ago, and as many
 * succeeded webhook deliveries (each with its outbox row) from 40 days ago, in bulk SQL
 * (generate_series) with back-dated UUIDv7 ids, as the service itself would have written them.
 * Then, against the running service (API + workers), POST /v1/events with autocannon
 * (BENCH_LIFECYCLE_CONNECTIONS = 32):
 *   1. undisturbed, for BENCH_DURATION s (at most 10), after a CHECKPOINT of the load;
 *   2. after the ingested events are processed, while the lifecycle job (sent through pg-boss, run
 *      by the service's worker, default batches) deletes the backlog: from when a worker takes the
 *      job until it completes (at least 3 s, at most BENCH_LIFECYCLE_MAX_S = 600);
 *   3. undisturbed again, once the job has ended and the backlog is processed.
 * Reports ingest requests/s of each, the ratio of 2 to the faster of 1 and 3 (target ≥ 0.8×),
 * and rows deleted per second
 * (the svc_retention_rows_total metric over the job's own start and completion times). Correctness: no old row is left, and every event
 * ingested during the run is still there.
 */
import autocannon, { type Request, type Result } from 'autocannon';
import pg from 'pg';
import { PgBoss } from 'pg-boss';
import { LIFECYCLE_QUEUE, PGBOSS_SCHEMA } from '../src/jobs/queues.ts';
import { uuidv7Floor } from '../src/lib/uuid7.ts';
import { eventRequests } from './scenarios.ts';
import type { Suite, SuiteContext } from './suites.ts';

const N = Number(process.env.BENCH_LIFECYCLE_ROWS ?? 5_000_000);
const CONNECTIONS = Number(process.env.BENCH_LIFECYCLE_CONNECTIONS ?? 32);
const DURATION_S = Math.min(Number(process.env.BENCH_DURATION ?? 10), 10);
const MAX_S = Number(process.env.BENCH_LIFECYCLE_MAX_S ?? 600);
const TARGET_RATIO = 0.8;
/** Rows per INSERT of the load: bounded statements, as a restore would do. */
const LOAD_CHUNK = 500_000;

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A back-dated UUIDv7 in SQL: `ms` (epoch milliseconds) leads, then the version nibble, then noise. */
const uuidAt = (ms: string, noise: string) =>
  `(lpad(to_hex(${ms}), 12, '0') || '7' || substr(md5(${noise}), 1, 19))::uuid`;

/** The suite's ingest load: page views over 1,000 participants, each request a first delivery. */
const ingestRequests = (ctx: SuiteContext): Request[] =>
  eventRequests(ctx.apiKey, `lifecycle-${ctx.runId}`, (i) => ({
    event_type: 'page.viewed',
    participant: { external_id: `lc_${i % 1000}` },
    payload: { page: `/p/${i % 97}` },
  }));

/** `svc_retention_*` counters of the service, by their label value. */
async function retentionMetrics(url: string) {
  const text = await (await fetch(`${url}/metrics`)).text();
  const read = (re: RegExp) => {
    const out: Record<string, number> = {};
    for (const m of text.matchAll(re)) out[m[1]!] = Number(m[2]);
    return out;
  };
  return {
    rows: read(/^svc_retention_rows_total\{task="([a-z_]+)"\} (\d+)/gm),
    runs: read(/^svc_retention_runs_total\{outcome="([a-z_]+)"\} (\d+)/gm),
  };
}

async function load(ctx: SuiteContext, pool: pg.Pool, workspaceId: string) {
  const started = performance.now();
  const loader = await pool.connect();
  try {
    // Generated rows are consistent by construction: skip the per-row FK triggers, as pg_restore
    // does (needs a superuser; without one the load is just slower).
    await loader.query('set session_replication_role = replica').catch(() => {});
    const sub = await loader.query<{ id: string }>(
      `insert into webhook_subscriptions (id, workspace_id, mode, url, event_types, secret_enc)
       values (${uuidAt(`(extract(epoch from now() - interval '500 days') * 1000)::bigint`, `'sub'`)},
               $1, 'test', 'https://example.com/hook', '["*"]', 'bench')
       returning id`,
      [workspaceId],
    );
    for (let from = 1; from <= N; from += LOAD_CHUNK) {
      const to = Math.min(N, from + LOAD_CHUNK - 1);
      // Events 400 days old, one millisecond apart.
      await loader.query(
        `insert into events (id, workspace_id, mode, event_type, external_id, payload, occurred_at, received_at,
                             status, source, processed_at)
         select ${uuidAt('t0 + g', `'e' || g`)}, $1, 'test', 'page.viewed', 'old_' || (g % 1000),
                '{"page":"/old"}', to_timestamp((t0 + g) / 1000.0), to_timestamp((t0 + g) / 1000.0),
                'processed', 'api', to_timestamp((t0 + g) / 1000.0)
           from generate_series($2::int, $3::int) g,
                (select (extract(epoch from now() - interval '400 days') * 1000)::bigint as t0) t`,
        [workspaceId, from, to],
      );
      // Results and their succeeded deliveries 40 days old.
      await loader.query(
        `with o as (
           insert into outbox (id, workspace_id, mode, type, data, created_at)
           select ${uuidAt('t0 + g', `'o' || g`)}, $1, 'test', 'points.changed',
                  jsonb_build_object('participant', jsonb_build_object('external_id', 'old_' || (g % 1000))),
                  to_timestamp((t0 + g) / 1000.0)
             from generate_series($2::int, $3::int) g,
                  (select (extract(epoch from now() - interval '40 days') * 1000)::bigint as t0) t
           returning id, created_at)
         insert into webhook_deliveries (id, workspace_id, mode, subscription_id, outbox_id, type, body, status,
                                         attempt_count, created_at, updated_at)
         select ${uuidAt('(extract(epoch from o.created_at) * 1000)::bigint', `'d' || o.id::text`)}, $1, 'test', $4,
                o.id, 'points.changed', '{"type":"points.changed"}', 'succeeded', 1, o.created_at, o.created_at
           from o`,
        [workspaceId, from, to, sub.rows[0]!.id],
      );
      ctx.note(`lifecycle: loaded ${to} of ${N} old events and deliveries`);
    }
  } finally {
    await loader.query('reset session_replication_role').catch(() => {});
    loader.release();
  }
  // As after any bulk load: statistics, and the visibility map, before measuring.
  await pool.query('vacuum (analyze) events, outbox, webhook_deliveries');
  // The load's dirty pages are flushed here, not by a checkpoint during the undisturbed window
  // (at 5M rows that window otherwise ran at half speed, p99 717 ms).
  await pool.query('checkpoint');
  const s = (performance.now() - started) / 1000;
  ctx.note(`lifecycle: load and vacuum took ${round(s)} s`);
}

/** Old rows left: a primary-key range count, cheap once they are gone. */
async function oldLeft(pool: pg.Pool) {
  const { rows } = await pool.query<{ events: number; deliveries: number; outbox: number }>(
    `select (select count(*) from events where id < $1 and status = 'processed')::int as events,
            (select count(*) from webhook_deliveries where id < $2)::int as deliveries,
            (select count(*) from outbox where id < $2)::int as outbox`,
    [
      uuidv7Floor(new Date(Date.now() - 365 * 86_400_000)),
      uuidv7Floor(new Date(Date.now() - 30 * 86_400_000)),
    ],
  );
  return rows[0]!;
}

/** Waits until every event ingested so far is processed, so the next window starts with no backlog. */
async function drained(pool: pg.Pool, since: string) {
  for (let i = 0; i < 600; i++) {
    const { rows } = await pool.query<{ n: number }>(
      `select count(*)::int as n from events where id >= $1 and status = 'received'`,
      [since],
    );
    if (rows[0]!.n === 0) return;
    await sleep(500);
  }
}

export const lifecycleSuite: Suite = {
  name: 'lifecycle',
  async run(ctx) {
    const pool = new pg.Pool({ connectionString: ctx.db.url, max: 4 });
    const boss = new PgBoss({
      connectionString: ctx.db.url,
      schema: PGBOSS_SCHEMA,
      supervise: false,
      schedule: false,
      max: 2,
    });
    try {
      const { rows } = await pool.query<{ id: string }>('select id from workspaces where slug = $1', [
        ctx.workspaceSlug,
      ]);
      const workspaceId = rows[0]!.id;
      await load(ctx, pool, workspaceId);
      const runStart = uuidv7Floor(new Date());

      // 1. Ingest, undisturbed (the worker processes what it accepts, as in window 2); measured
      // again after the job (window 3), and the faster of the two is the reference.
      const undisturbedWindow = async (): Promise<Result> => {
        const result = await autocannon({
          url: ctx.service.url,
          connections: CONNECTIONS,
          duration: DURATION_S,
          timeout: 10,
          requests: ingestRequests(ctx),
        });
        await drained(pool, runStart);
        return result;
      };
      const undisturbedBefore = await undisturbedWindow();

      // 2. The same ingest while the lifecycle job deletes the backlog.
      await boss.start();
      const before = await retentionMetrics(ctx.service.url);
      const jobId = await boss.send(LIFECYCLE_QUEUE, {});
      if (!jobId) throw new Error('the lifecycle job was not queued');
      const job = () => boss.getJobById(LIFECYCLE_QUEUE, jobId);
      // The ingest window opens when a worker has taken the job (pg-boss polls the queue) …
      const waitStart = performance.now();
      while ((await job())?.state === 'created') {
        if (performance.now() - waitStart > 60_000) throw new Error('no worker took the lifecycle job');
        await sleep(100);
      }
      const windowStart = performance.now();
      const during = autocannon({
        url: ctx.service.url,
        connections: CONNECTIONS,
        duration: MAX_S,
        timeout: 10,
        requests: ingestRequests(ctx),
      });
      // … and closes when the job has ended (and not before 3 s, for a steady rate). Only an end
      // state ends the window: a read that finds no row or another state is asked again.
      const ended = (s: string | undefined) => s === 'completed' || s === 'failed' || s === 'cancelled';
      let state = (await job())?.state;
      while (!ended(state) || performance.now() - windowStart < 3_000) {
        if (performance.now() - windowStart > MAX_S * 1000) break;
        await sleep(100);
        const next = (await job())?.state;
        if (next !== state) ctx.note(`lifecycle: job ${state} → ${next}`);
        state = next;
      }
      during.stop();
      const disturbed = await during;
      const finished = await job();
      if (finished?.state !== 'completed') throw new Error(`the lifecycle job ended ${finished?.state}`);
      const jobS = (finished.completedOn!.getTime() - finished.startedOn.getTime()) / 1000;
      const after = await retentionMetrics(ctx.service.url);
      await drained(pool, runStart);
      const undisturbedAfter = await undisturbedWindow();
      const undisturbed =
        undisturbedAfter.requests.average > undisturbedBefore.requests.average
          ? undisturbedAfter
          : undisturbedBefore;

      const deleted = (task: string) => (after.rows[task] ?? 0) - (before.rows[task] ?? 0);
      const rowsDeleted = deleted('events') + deleted('webhook_deliveries') + deleted('outbox');
      const left = await oldLeft(pool);
      const ingested = await pool.query<{ n: number }>(
        `select count(*)::int as n from events where id >= $1`,
        [runStart],
      );
      const accepted =
        (undisturbedBefore['2xx'] ?? 0) + (disturbed['2xx'] ?? 0) + (undisturbedAfter['2xx'] ?? 0);
      const ratio = undisturbed.requests.average
        ? disturbed.requests.average / undisturbed.requests.average
        : 0;
      const ok =
        left.events === 0 &&
        left.deliveries === 0 &&
        left.outbox === 0 &&
        ingested.rows[0]!.n >= accepted &&
        undisturbedBefore.non2xx === 0 &&
        undisturbedAfter.non2xx === 0 &&
        disturbed.non2xx === 0;
      ctx.print({
        suite: 'lifecycle',
        rows_loaded: { events: N, webhook_deliveries: N, outbox: N },
        connections: CONNECTIONS,
        ingest_undisturbed_rps: round(undisturbed.requests.average),
        ingest_undisturbed_p99_ms: undisturbed.latency.p99,
        ingest_undisturbed_before_after_rps: [
          round(undisturbedBefore.requests.average),
          round(undisturbedAfter.requests.average),
        ],
        ingest_during_lifecycle_rps: round(disturbed.requests.average),
        ingest_during_lifecycle_p99_ms: disturbed.latency.p99,
        ratio: round(ratio, 2),
        target_ratio: TARGET_RATIO,
        lifecycle_s: round(jobS),
        rows_deleted: {
          events: deleted('events'),
          webhook_deliveries: deleted('webhook_deliveries'),
          outbox: deleted('outbox'),
        },
        rows_deleted_per_s: round(rowsDeleted / jobS),
        old_rows_left: left,
        accepted_2xx: accepted,
        ingested_rows: ingested.rows[0]!.n,
      });
      if (ratio < TARGET_RATIO)
        ctx.note(`lifecycle: ingest at ${round(ratio, 2)}× undisturbed, under ${TARGET_RATIO}×`);
      return ok;
    } finally {
      await boss.stop({ graceful: false }).catch(() => {});
      await pool.end();
    }
  },
};
