/**
 * Suite `live`: GraphQL subscriptions under load, and a GraphQL read against the REST calls it
 * replaces.
 *
 * Fan-out: an API-role process of its own serves SUBSCRIBERS graphql-ws sockets, one
 * `balanceChanged` subscription each (one participant each). RATE changes per second for
 * BENCH_DURATION seconds are committed by another process, the suite's service (role all), as
 * REST point adjustments, so every frame crosses processes through Postgres.
 * Latency is frame receipt minus the commit, stamped by an independent LISTEN on the service's
 * channel (Postgres delivers a NOTIFY at commit); also reported: from the entry's `created_at`
 * (its transaction's start: an upper bound) and from the committing request's 201 (a lower
 * bound). Every change must arrive exactly once. Memory per idle subscriber: the API process's RSS with all sockets subscribed,
 * minus before, over SUBSCRIBERS. Targets: p50 < 50 ms, p99 < 250 ms, nothing lost or doubled.
 *
 * Baseline in the same run: a bare `ws` server (bench/live-baseline.ts) that LISTENs on one
 * channel and relays each NOTIFY payload to the socket of its participant; the bench sends one
 * `pg_notify` per change at the same rate, timestamped at commit. Ratio = service p50 / baseline p50.
 *
 * Read: autocannon on `participant(externalId) { … summary { … } badges { … } }` over GraphQL
 * against the REST show + summary + badges it replaces (three requests = one unit). Target ≥ 0.5×.
 *
 * Env: BENCH_LIVE_SUBSCRIBERS (1000), BENCH_LIVE_RATE (200), BENCH_DURATION (10 s).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import autocannon, { type Options, type Result } from 'autocannon';
import { createClient } from 'graphql-ws';
import pg from 'pg';
import WebSocket from 'ws';
import { ROOT, RssSampler, startServerProcess } from './processes.ts';
import type { Suite, SuiteContext } from './suites.ts';

const SUBSCRIBERS = Number(process.env.BENCH_LIVE_SUBSCRIBERS ?? 1000);
const RATE = Number(process.env.BENCH_LIVE_RATE ?? 200);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const TARGET = { p50Ms: 50, p99Ms: 250, readRatio: 0.5 };

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : null;

function rssMb(pid: number): number | null {
  const s = new RssSampler(pid);
  s.start(50);
  return s.stop();
}

/** Sends `n` jobs at `rate` per second, `concurrency` in flight at most. */
async function paced(n: number, rate: number, job: (i: number) => Promise<void>): Promise<void> {
  const started = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < n; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    inFlight.push(job(i));
  }
  await Promise.all(inFlight);
}

async function startBaseline(dbUrl: string): Promise<{ url: string; proc: ChildProcess }> {
  const proc = spawn(process.execPath, ['bench/live-baseline.ts'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: dbUrl },
    stdio: ['ignore', 'pipe', 2],
  });
  const port = await new Promise<string>((resolve, reject) => {
    proc.once('exit', (code) => reject(new Error(`live baseline exited (${code})`)));
    proc.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim()));
  });
  return { url: `ws://127.0.0.1:${port}`, proc };
}

async function run(ctx: SuiteContext): Promise<boolean> {
  const pool = new pg.Pool({ connectionString: ctx.db.url, max: 8 });
  const api = await startServerProcess(
    'service-api',
    ['src/cli.ts', 'serve', '--role', 'api'],
    { ...ctx.env, SVC_ROLE: 'api' },
    '/readyz',
  );
  const rest = (path: string, body?: unknown) =>
    fetch(`${ctx.service.url}${path}`, {
      method: body ? 'POST' : 'GET',
      headers: { authorization: `Bearer ${ctx.apiKey}`, 'content-type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
  const clients: ReturnType<typeof createClient>[] = [];
  let ok = true;
  try {
    // Participants, created through the same REST call the load uses.
    const ids = Array.from({ length: SUBSCRIBERS }, (_, i) => `live-${ctx.runId}-${i}`);
    for (let i = 0; i < ids.length; i += 50)
      await Promise.all(
        ids
          .slice(i, i + 50)
          .map((id) => rest(`/v1/participants/${id}/points`, { points: 1, reason: 'seed' })),
      );

    const idle = rssMb(api.pid);
    const received = new Map<string, { at: number; created: number; entry: string }[]>();
    const wsUrl = `${api.url.replace(/^http/, 'ws')}/graphql`;
    let subscribed = 0;
    for (let i = 0; i < ids.length; i += 100) {
      await Promise.all(
        ids.slice(i, i + 100).map(
          (id) =>
            new Promise<void>((resolve, reject) => {
              const client = createClient({
                url: wsUrl,
                webSocketImpl: WebSocket,
                connectionParams: { authorization: `Bearer ${ctx.apiKey}` },
                retryAttempts: 0,
                lazy: false,
                onNonLazyError: reject,
                on: { connected: () => resolve() },
              });
              clients.push(client);
              client.subscribe<{ balanceChanged: { entry: { id: string; createdAt: string } } }>(
                {
                  query:
                    'subscription($id: String!) { balanceChanged(externalId: $id) { balance entry { id createdAt } } }',
                  variables: { id },
                },
                {
                  next: ({ data }) => {
                    if (!data) return;
                    const list = received.get(id) ?? [];
                    list.push({
                      at: Date.now(),
                      created: Date.parse(data.balanceChanged.entry.createdAt),
                      entry: data.balanceChanged.entry.id,
                    });
                    received.set(id, list);
                  },
                  error: () => {},
                  complete: () => {},
                },
              );
              subscribed++;
            }),
        ),
      );
    }
    // Every subscription registered in the API process (its hub serves them all).
    await sleep(2_000);
    const loaded = rssMb(api.pid);
    const perSubscriberKb =
      idle !== null && loaded !== null ? round(((loaded - idle) * 1024) / SUBSCRIBERS, 1) : null;

    // The commit instant of each change, as an independent listener sees it: Postgres delivers a
    // NOTIFY when its transaction commits, so the bench LISTENs on the service's own channel too
    // and stamps each participant's notifications on arrival (the API process gets the same ones).
    const pidToExternal = new Map<string, string>();
    {
      const { rows } = await pool.query<{ id: string; external_id: string }>(
        'select id::text, external_id from participants where external_id = any($1)',
        [ids],
      );
      for (const r of rows) pidToExternal.set(r.id, r.external_id);
    }
    const committed = new Map<string, number[]>();
    const listener = new pg.Client({ connectionString: ctx.db.url });
    await listener.connect();
    listener.on('notification', (msg) => {
      const at = Date.now();
      const payload = msg.payload ?? '';
      if (!payload.startsWith('l:')) return;
      for (const pid of payload.slice(2).split(',')) {
        const ext = pidToExternal.get(pid);
        if (!ext) continue;
        const list = committed.get(ext) ?? [];
        list.push(at);
        committed.set(ext, list);
      }
    });
    await listener.query('listen svc_live');

    // The service: REST adjustments committed by the suite's process, frames from the API process.
    const total = RATE * DURATION_S;
    const sent = new Map<string, number>();
    // When the committing request's 201 arrived, by entry id: the commit happened before it, so
    // frame − acknowledged is a lower bound of commit → frame, as frame − created_at is an upper one.
    const acknowledged = new Map<string, number>();
    await paced(total, RATE, async (i) => {
      const id = ids[(i * 7919) % ids.length]!;
      const res = await rest(`/v1/participants/${id}/points`, { points: 1, reason: 'live bench' });
      if (res.status !== 201) ok = false;
      const body = (await res.json()) as { id?: string | number };
      acknowledged.set(String(body.id), Date.now());
      sent.set(id, (sent.get(id) ?? 0) + 1);
    });
    const deadline = Date.now() + 10_000;
    const count = () => [...received.values()].reduce((n, l) => n + l.length, 0);
    while (count() < total && Date.now() < deadline) await sleep(50);
    const latencies = [...received.values()]
      .flatMap((l) => l.map((r) => r.at - r.created))
      .sort((a, b) => a - b);
    await listener.end();
    // The k-th frame of a participant is its k-th commit (one REST adjustment, one statement, one
    // NOTIFY). Both are stamped by this process's event loop, so a frame handled before its
    // NOTIFY shows as a small negative number rather than being dropped.
    const sinceCommit = [...received.entries()]
      .flatMap(([ext, l]) => l.map((r, k) => r.at - (committed.get(ext)?.[k] ?? Number.NaN)))
      .filter((n) => !Number.isNaN(n))
      .sort((a, b) => a - b);
    const sinceAck = [...received.values()]
      .flatMap((l) => l.map((r) => r.at - (acknowledged.get(r.entry) ?? Number.NaN)))
      .filter((n) => !Number.isNaN(n))
      .sort((a, b) => a - b);
    let lost = 0;
    let doubled = 0;
    for (const [id, n] of sent) {
      const got = received.get(id) ?? [];
      const unique = new Set(got.map((r) => r.entry)).size;
      doubled += got.length - unique;
      lost += Math.max(0, n - unique);
    }
    const service = {
      p50: pct(sinceCommit, 50),
      p99: pct(sinceCommit, 99),
      max: sinceCommit.at(-1) ?? null,
    };
    for (const c of clients.splice(0)) await c.dispose();

    // The baseline: a bare ws relay of one NOTIFY per change, to sockets of the same count.
    const baseline = await startBaseline(ctx.db.url);
    const baseLat: number[] = [];
    const sockets: WebSocket[] = [];
    try {
      for (let i = 0; i < ids.length; i += 100)
        await Promise.all(
          ids.slice(i, i + 100).map(
            (id) =>
              new Promise<void>((resolve, reject) => {
                const s = new WebSocket(`${baseline.url}/?p=${encodeURIComponent(id)}`);
                s.on('open', () => resolve());
                s.on('error', reject);
                s.on('message', (m) => {
                  const t = Number(String(m).split(':')[1]);
                  baseLat.push(Date.now() - t);
                });
                sockets.push(s);
              }),
          ),
        );
      const notify = new pg.Pool({ connectionString: ctx.db.url, max: 8 });
      await paced(total, RATE, async (i) => {
        const id = ids[(i * 7919) % ids.length]!;
        // Timestamped just before the commit, as the service's entries are by created_at.
        await notify.query(
          `select pg_notify('bench_live', $1 || ':' || (extract(epoch from clock_timestamp()) * 1000)::bigint)`,
          [id],
        );
      });
      const bdeadline = Date.now() + 10_000;
      while (baseLat.length < total && Date.now() < bdeadline) await sleep(50);
      await notify.end();
    } finally {
      for (const s of sockets) s.terminate();
      baseline.proc.kill('SIGTERM');
    }
    baseLat.sort((a, b) => a - b);
    const base = { p50: pct(baseLat, 50), p99: pct(baseLat, 99) };

    const fine =
      lost === 0 &&
      doubled === 0 &&
      service.p50 !== null &&
      service.p99 !== null &&
      service.p50 < TARGET.p50Ms &&
      service.p99 < TARGET.p99Ms;
    if (lost || doubled) ctx.note(`live: ${lost} changes lost, ${doubled} doubled`);
    ctx.print({
      scenario: 'live.subscriptions',
      subscribers: subscribed,
      changes_per_sec: RATE,
      changes: total,
      frames: count(),
      lost,
      doubled,
      p50_ms: service.p50,
      p99_ms: service.p99,
      max_ms: service.max,
      commits_seen: sinceCommit.length,
      // Upper bound: from the entry's created_at, the start of the committing transaction.
      p50_from_created_ms: pct(latencies, 50),
      p99_from_created_ms: pct(latencies, 99),
      // Lower bound (from the 201 of the committing request; negative when the frame came first).
      p50_from_ack_ms: pct(sinceAck, 50),
      p99_from_ack_ms: pct(sinceAck, 99),
      baseline_p50_ms: base.p50,
      baseline_p99_ms: base.p99,
      baseline_frames: baseLat.length,
      // Date.now() resolves whole milliseconds: a 0 ms baseline counts as 1 ms in the ratios.
      latency_ratio_p50:
        service.p50 !== null && base.p50 !== null ? round(service.p50 / Math.max(1, base.p50), 2) : null,
      latency_ratio_p99:
        service.p99 !== null && base.p99 !== null ? round(service.p99 / Math.max(1, base.p99), 2) : null,
      api_rss_idle_mb: idle,
      api_rss_subscribed_mb: loaded,
      kb_per_idle_subscriber: perSubscriberKb,
      target: `p50 < ${TARGET.p50Ms} ms, p99 < ${TARGET.p99Ms} ms, none lost or doubled`,
      passed: fine,
    });

    // GraphQL read vs the REST calls it replaces (three requests = one unit).
    const id = ids[0]!;
    const headers = { authorization: `Bearer ${ctx.apiKey}`, 'content-type': 'application/json' };
    const gqlBody = JSON.stringify({
      query: `{ participant(externalId: "${id}") { externalId balance lifetimePoints summary { rank badgesCount redemptionsCount eventsCount } badges { key tier name } } }`,
    });
    const bench = async (opts: Omit<Options, 'connections' | 'duration'>): Promise<Result> =>
      await autocannon({ connections: 32, duration: DURATION_S, ...opts } as Options);
    const graphql = await bench({
      url: `${ctx.service.url}/graphql`,
      method: 'POST',
      headers,
      body: gqlBody,
    });
    const restRun = await bench({
      url: ctx.service.url,
      headers,
      requests: [
        { method: 'GET', path: `/v1/participants/${id}` },
        { method: 'GET', path: `/v1/participants/${id}/summary` },
        { method: 'GET', path: `/v1/participants/${id}/badges` },
      ],
    });
    const gqlRps = graphql.requests.average;
    const restUnits = restRun.requests.average / 3;
    const ratio = restUnits ? round(gqlRps / restUnits, 2) : null;
    const readOk =
      graphql.non2xx === 0 && restRun.non2xx === 0 && ratio !== null && ratio >= TARGET.readRatio;
    ctx.print({
      scenario: 'live.graphql_read',
      graphql_requests_per_sec: round(gqlRps),
      graphql_p99_ms: graphql.latency.p99,
      rest_units_per_sec: round(restUnits),
      rest_p99_ms: restRun.latency.p99,
      ratio_vs_rest: ratio,
      non_2xx: graphql.non2xx + restRun.non2xx,
      target: `≥ ${TARGET.readRatio}× the REST show + summary + badges`,
      passed: readOk,
    });
    // Latency targets are reported, not enforced (timings on a shared machine are noisy); loss is.
    return ok && lost === 0 && doubled === 0 && graphql.non2xx === 0;
  } finally {
    for (const c of clients) await c.dispose();
    await api.stop();
    await pool.end();
  }
}

export const liveSuite: Suite = { name: 'live', run };
