/**
 * Suite `engine`: event processing. Four parts in one run, against the service's own worker
 * (role all) and database:
 *  1. baseline: the same number of no-op jobs moved through pg-boss by a bare `fetch(100)` +
 *     `complete` loop in this process — what the queue alone allows;
 *  2. throughput: N events (default 100k) over N/10 participants, inserted in bulk SQL with their
 *     `events.process` jobs (100 events per job, like a full ingest batch), processed by a flow
 *     that awards points (1 per currency unit) and a badge; events/s from the jobs' commit until
 *     the last one is `processed`;
 *  3. latency: events POSTed at a steady rate (500/s) through `/v1/events`; ingest (request
 *     sent) → `processed_at` (set with clock_timestamp() just before the engine commits), p50/p99;
 *  4. referrals (bench/engine-referrals.ts): the throughput run with a referral programme in the
 *     workspace and events without codes against the same without a programme (target ≥ 0.95×),
 *     and friends signing up with advocates' codes against the same sign-ups without.
 * Env: BENCH_ENGINE_EVENTS (100000), BENCH_ENGINE_RATE (500), BENCH_ENGINE_LATENCY_S (10),
 * BENCH_ENGINE_REFERRALS (1; 0 skips part 4), BENCH_ENGINE_REFERRAL_FRIENDS (10000),
 * BENCH_ENGINE_REFERRAL_ADVOCATES (100).
 */
import { PgBoss } from 'pg-boss';
import { Pool } from 'undici';
import { v7 as uuidv7 } from 'uuid';
import { referralParts } from './engine-referrals.ts';
import { withClient } from './postgres.ts';
import type { Suite, SuiteContext } from './suites.ts';

/** Events of a throughput run (also the points suite's variant with expiry and caps on). */
export const N = Number(process.env.BENCH_ENGINE_EVENTS ?? 100_000);
const RATE = Number(process.env.BENCH_ENGINE_RATE ?? 500);
const LATENCY_S = Number(process.env.BENCH_ENGINE_LATENCY_S ?? 10);
const TARGET = { ratio: 0.25, p50Ms: 50, p99Ms: 200 };

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function api(ctx: SuiteContext, path: string, body: unknown, method = 'POST') {
  const res = await fetch(`${ctx.service.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${ctx.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** The bench's flow for `type`: points (1 per currency unit of `payload.total`) and a badge. */
export async function createBenchFlow(ctx: SuiteContext, type: string): Promise<void> {
  await api(ctx, '/v1/flows', {
    name: `bench ${type}`,
    event_type: type,
    actions: [
      { type: 'award_points', points: { '*': [{ var: 'payload.total' }, 1] } },
      { type: 'award_badge', badge: `bench-${ctx.runId}` },
    ],
  });
}

/** `PATCH /v1/program` of the bench workspace's test mode (the points suite's variant). */
export const patchProgram = (ctx: SuiteContext, body: unknown) => api(ctx, '/v1/program', body, 'PATCH');

/** The bare pg-boss loop: N no-op jobs, one `fetch(100)` + `complete` at a time. Answers jobs/s. */
export async function bareLoop(ctx: SuiteContext, tag = 'noop'): Promise<number> {
  const boss = new PgBoss({
    connectionString: ctx.db.url,
    schema: 'pgboss',
    supervise: false,
    schedule: false,
  });
  boss.on('error', () => {});
  await boss.start();
  const queue = `bench.${tag}.${ctx.runId}`;
  await boss.createQueue(queue);
  for (let i = 0; i < N; i += 5000)
    await boss.insert(
      queue,
      Array.from({ length: Math.min(5000, N - i) }, (_, j) => ({ data: { n: i + j } })),
    );
  // Fresh planner statistics, as run.ts gives the HTTP scenarios after their warm-up: without
  // them pg-boss's fetch UPDATE is planned as a nested loop over a table believed empty, and
  // 100k jobs crawl at tens per second.
  await withClient(ctx.db.url, (c) => c.query('analyze pgboss.job_common'));
  const t0 = performance.now();
  let moved = 0;
  for (;;) {
    const jobs = await boss.fetch(queue, { batchSize: 100 });
    if (!jobs.length) break;
    await boss.complete(
      queue,
      jobs.map((j) => j.id),
    );
    moved += jobs.length;
  }
  const seconds = (performance.now() - t0) / 1000;
  await boss.deleteQueue(queue).catch(() => {});
  await boss.stop();
  if (moved !== N) throw new Error(`bare loop moved ${moved} of ${N} jobs`);
  return N / seconds;
}

/**
 * The throughput run: N events of `type` (its flow made by {@link createBenchFlow}) over N/10
 * participants named `<tag>-<run id>-<n>`, processed by the service's worker; events/s.
 */
export async function throughput(
  ctx: SuiteContext,
  workspaceId: string,
  type: string,
  tag = 'eng',
): Promise<{ perSec: number; ok: boolean }> {
  const participants = Math.max(1, Math.round(N / 10));
  const ids = Array.from({ length: N }, () => uuidv7());
  const boss = new PgBoss({
    connectionString: ctx.db.url,
    schema: 'pgboss',
    supervise: false,
    schedule: false,
  });
  boss.on('error', () => {});
  await boss.start();
  const perSec = await withClient(ctx.db.url, async (c) => {
    await c.query(
      `insert into participants (workspace_id, mode, external_id)
       select $1, 'test', $2 || '-' || g from generate_series(0, $3 - 1) g`,
      [workspaceId, `${tag}-${ctx.runId}`, participants],
    );
    const { rows: ps } = await c.query<{ id: string; external_id: string }>(
      `select id, external_id from participants where workspace_id = $1 and external_id like $2`,
      [workspaceId, `${tag}-${ctx.runId}-%`],
    );
    const pid = new Map(ps.map((p) => [p.external_id, p.id]));
    // occurred_at to the millisecond, as ingest stores it (a JavaScript Date): the engine hands an
    // event's time to its statements as one, and a window ending at it must include the event.
    for (let i = 0; i < N; i += 10_000) {
      const slice = ids.slice(i, i + 10_000);
      const ext = slice.map((_, j) => `${tag}-${ctx.runId}-${(i + j) % participants}`);
      await c.query(
        `insert into events (id, workspace_id, mode, event_type, participant_id, external_id, payload, occurred_at, status, source)
         select id, $1, 'test', $2, pid, ext, jsonb_build_object('total', total), date_trunc('milliseconds', now()), 'received', 'api'
           from unnest($3::uuid[], $4::bigint[], $5::text[], $6::numeric[]) x(id, pid, ext, total)`,
        [
          workspaceId,
          type,
          slice,
          ext.map((e) => pid.get(e)),
          ext,
          slice.map((_, j) => ((i + j) % 50) + 0.5),
        ],
      );
    }
    await c.query('analyze events');
    await c.query('analyze participants');
    // The jobs in one transaction: processing starts when they commit.
    const jobs = [];
    for (let i = 0; i < N; i += 100) jobs.push({ id: uuidv7(), data: { eventIds: ids.slice(i, i + 100) } });
    const t0 = performance.now();
    await c.query('begin');
    await boss.insert('events.process', jobs, {
      db: { executeSql: (text, values) => c.query(text, values) },
    });
    await c.query('commit');
    // Statistics for the jobs just committed (see bareLoop): a few milliseconds, inside the clock.
    await c.query('analyze pgboss.job_common');
    // Done when none of these jobs is left to run: a job completes only after the transaction
    // that processed its events committed (the correctness check below then finds every event
    // `processed`). The poll looks jobs up by primary key, cheaply: while the last 20 jobs (run
    // last: same priority, fetched oldest first) are not all done, only those; then all 1,000.
    // Counting `received` events instead scanned 100k+ event rows every 100 ms, a third of a
    // core taken from the engine, and even the 1,000 lookups cost 13 ms a poll.
    const jobIds = jobs.map((j) => j.id);
    const deadline = Date.now() + 300_000;
    let tailDone = false;
    for (;;) {
      const { rows } = await c.query<{ n: string }>(
        `select count(*) n from pgboss.job
          where name = 'events.process' and id = any($1::uuid[]) and state < 'completed'`,
        [tailDone ? jobIds : jobIds.slice(-20)],
      );
      if (Number(rows[0]!.n) === 0 && tailDone) break;
      if (Number(rows[0]!.n) === 0) {
        tailDone = true;
        continue;
      }
      if (Date.now() > deadline) throw new Error(`${rows[0]!.n} jobs still to run after 300 s`);
      await sleep(100);
    }
    return N / ((performance.now() - t0) / 1000);
  });
  await boss.stop();

  // Correctness: one ledger entry per event (sum = the totals, floored), one badge per participant.
  const check = await withClient(ctx.db.url, async (c) => {
    const { rows } = await c.query<{
      entries: string;
      points: string;
      badges: string;
      balances: string;
      failed: string;
    }>(
      `select (select count(*) from ledger_entries l where l.workspace_id = $1 and l.idempotency_key like any($3)) entries,
              (select coalesce(sum(points), 0) from ledger_entries l where l.workspace_id = $1 and l.idempotency_key like any($3)) points,
              (select count(*) from participant_badges b join participants p on p.id = b.participant_id
                where p.workspace_id = $1 and p.external_id like $2) badges,
              (select coalesce(sum(balance), 0) from participants p where p.workspace_id = $1 and p.external_id like $2) balances,
              (select count(*) from events where workspace_id = $1 and event_type = $4 and status <> 'processed') failed`,
      [workspaceId, `${tag}-${ctx.runId}-%`, ['%'], type],
    );
    return rows[0]!;
  });
  let expectedPoints = 0;
  for (let i = 0; i < N; i++) expectedPoints += Math.floor((i % 50) + 0.5);
  const ok =
    Number(check.failed) === 0 &&
    Number(check.badges) === participants &&
    Number(check.balances) === expectedPoints;
  if (!ok)
    ctx.note(
      `engine: correctness check failed: ${JSON.stringify(check)} (expected points ${expectedPoints})`,
    );
  return { perSec, ok };
}

async function latency(
  ctx: SuiteContext,
  type: string,
): Promise<{ p50: number; p99: number; ingestP50: number; sent: number; ok: boolean }> {
  const total = RATE * LATENCY_S;
  const sentAt = new Map<string, number>();
  // The load generator shares the cores with the service and Postgres: undici's request API on a
  // keep-alive pool costs a fraction of what `fetch` does per request (a third of a core at
  // 500/s), CPU the service would otherwise lose to its own client.
  const http = new Pool(ctx.service.url, { connections: 64 });
  const post = async (body: unknown) => {
    const res = await http.request({
      path: '/v1/events',
      method: 'POST',
      headers: { authorization: `Bearer ${ctx.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.body.text();
    if (res.statusCode !== 202) throw new Error(`POST /v1/events: ${res.statusCode} ${text}`);
    return JSON.parse(text) as { event_id: string };
  };
  const t0 = Date.now();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = t0 + (i * 1000) / RATE;
    const wait = due - Date.now();
    if (wait > 1) await sleep(wait);
    pending.push(
      (async () => {
        const at = Date.now();
        const body = await post({
          event_type: type,
          participant: `lat-${ctx.runId}-${i % 1000}`,
          payload: { total: (i % 20) + 1 },
        });
        sentAt.set(body.event_id, at);
      })(),
    );
  }
  await Promise.all(pending);
  await http.close();
  const ids = [...sentAt.keys()];
  const rows = await withClient(ctx.db.url, async (c) => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const { rows } = await c.query<{
        id: string;
        status: string;
        received_at: Date;
        processed_at: Date | null;
      }>(`select id, status, received_at, processed_at from events where id = any($1::uuid[])`, [ids]);
      if (rows.every((r) => r.status !== 'received') || Date.now() > deadline) return rows;
      await sleep(200);
    }
  });
  const lat = rows
    .filter((r) => r.processed_at)
    .map((r) => new Date(r.processed_at!).getTime() - sentAt.get(r.id)!)
    .sort((a, b) => a - b);
  // The split: request sent → its ingest transaction began (received_at): HTTP queueing under load.
  const ingest = rows.map((r) => new Date(r.received_at).getTime() - sentAt.get(r.id)!).sort((a, b) => a - b);
  const pct = (list: number[], p: number) =>
    list[Math.min(list.length - 1, Math.floor((p / 100) * list.length))] ?? Number.NaN;
  return {
    p50: pct(lat, 50),
    p99: pct(lat, 99),
    ingestP50: pct(ingest, 50),
    sent: total,
    ok: lat.length === total && rows.every((r) => r.status === 'processed'),
  };
}

export const engineSuite: Suite = {
  name: 'engine',
  async run(ctx) {
    const workspaceId = await withClient(ctx.db.url, async (c) => {
      const { rows } = await c.query<{ id: string }>(`select id from workspaces where slug = $1`, [
        ctx.workspaceSlug,
      ]);
      return rows[0]!.id;
    });
    const type = `bench.order.${ctx.runId}`;
    const latType = `bench.latency.${ctx.runId}`;
    for (const t of [type, latType]) await createBenchFlow(ctx, t);

    ctx.note(`engine: bare pg-boss loop over ${N} no-op jobs (fetch 100 + complete)`);
    const bare = await bareLoop(ctx);
    ctx.note(`engine: processing ${N} events over ${Math.round(N / 10)} participants`);
    const tp = await throughput(ctx, workspaceId, type);
    // The throughput run is the latency run's warm-up: like run.ts after each warm-up, give the
    // tables it filled from empty the statistics autovacuum would give them in service (it has
    // not run yet on a database this young). Without them the planner believes ledger_entries
    // (100k rows by now) is empty and the ledger's idempotency lookup scans the workspace's
    // entries through the wrong index: ~30 ms per batch at 20k rows, more at 100k.
    await withClient(ctx.db.url, (c) =>
      c.query(
        'analyze events, participants, ledger_entries, leaderboard_scores, leaderboard_count_deltas, flow_runs, participant_badges, participant_event_counts, outbox',
      ),
    );
    ctx.note(`engine: ingest → processed latency at ${RATE} events/s for ${LATENCY_S} s`);
    const lat = await latency(ctx, latType);
    const ratio = round(tp.perSec / bare, 3);
    ctx.print({
      suite: 'engine',
      events: N,
      participants: Math.round(N / 10),
      events_per_sec: round(tp.perSec),
      baseline_jobs_per_sec: round(bare),
      ratio_vs_baseline: ratio,
      latency_rate_per_sec: RATE,
      latency_events: lat.sent,
      latency_p50_ms: lat.p50,
      latency_p99_ms: lat.p99,
      latency_to_received_p50_ms: lat.ingestP50,
      target: TARGET,
      meets_target: ratio >= TARGET.ratio && lat.p50 < TARGET.p50Ms && lat.p99 < TARGET.p99Ms,
    });
    // What a referral programme costs events without a code, and what codes cost.
    const referrals = process.env.BENCH_ENGINE_REFERRALS === '0' || (await referralParts(ctx, bare));
    return tp.ok && lat.ok && referrals;
  },
};
