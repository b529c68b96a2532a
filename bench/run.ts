/**
 * `npm run bench`: the real service (`node src/cli.ts serve`) and a bare node:http + pg baseline
 * (bench/baseline.ts), both child processes on a fresh database, driven one after the other by
 * autocannon (in this process) at the same concurrency. One JSON line per scenario and target on
 * stdout; notes on stderr. Exits 1 when a target stored fewer rows than it answered 2xx for.
 *
 * Scenario `events.post.all` measures the default single-process deployment (`svc serve`, role
 * all: ingest while its own workers process every accepted event) against the same baseline, and
 * times how long its backlog takes to drain once the load stops (target: 2 s).
 *
 * Each target gets a warm-up, then ANALYZE (a fresh database has no planner statistics until
 * autovacuum's first pass, about a minute in; without them the service's idempotency lookup
 * picks the wrong index — BENCH_ANALYZE=0 measures that cold start), then the measured run.
 *
 * Env: DATABASE_URL (else local Postgres on 127.0.0.1:5432, else embedded), BENCH_CONNECTIONS
 * (64), BENCH_DURATION (10 s per round), BENCH_ROUNDS (3 alternating rounds per target), BENCH_WARMUP (3 s), BENCH_ANALYZE (1), BASELINE_POOL_MAX (16),
 * BENCH_ONLY (one scenario), BENCH_TARGETS (e.g. `service`), BENCH_SERVICE_NODE_ARGS (extra node
 * flags for the service, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`), BENCH_BASELINE_NODE_ARGS (the
 * same for the baseline), BENCH_KEEP_DB=1 (keep the
 * database for inspection). Other variables (e.g. SVC_ROLE=api) reach the service unchanged.
 */
import os from 'node:os';
import autocannon, { type Request, type Result } from 'autocannon';
import { type BenchDatabase, benchDatabase, withClient } from './postgres.ts';
import {
  cpuSnapshot,
  cpuUse,
  RssSampler,
  runCli,
  type ServerProcess,
  startServerProcess,
} from './processes.ts';
import { type Scenario, type ScenarioContext, scenarios, type TargetName } from './scenarios.ts';
import { suites } from './suites.ts';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP_S = Number(process.env.BENCH_WARMUP ?? 3);
const ANALYZE = process.env.BENCH_ANALYZE !== '0';
const BASELINE_POOL_MAX = process.env.BASELINE_POOL_MAX ?? '16';
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const TARGET = { ratio: 1.0, p99Ms: 50 };

const note = (msg: string) => process.stderr.write(`bench: ${msg}\n`);
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

interface Line {
  scenario: string;
  target: TargetName;
  /** 1..ROUNDS for one measured window; `all` for the summary of a target's rounds. */
  round: number | 'all';
  connections: number;
  duration_s: number;
  requests_per_sec: number;
  p50_ms: number;
  p99_ms: number;
  non_2xx: number;
  errors: number;
  server_rss_mb: number | null;
  ratio_vs_baseline: number | null;
  responses_2xx: number;
  stored_rows: number | null;
  /** Summary lines only: the worst round's p99. */
  p99_ms_worst_round?: number;
  /** Scenarios with a backlog: seconds from the load stopping until the target owed nothing (summary: the worst round). */
  drain_s?: number;
}

/** How long the default deployment may take to finish processing once the load stops. */
const DRAIN_TARGET_S = 2;

/** Polls `backlog` until it is 0; the seconds that took (null after `limitS`). */
async function drain(backlog: () => Promise<number>, limitS: number): Promise<number | null> {
  const t0 = performance.now();
  for (;;) {
    if ((await backlog()) === 0) return round((performance.now() - t0) / 1000, 2);
    if (performance.now() - t0 > limitS * 1000) return null;
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function drive(url: string, requests: Request[], seconds: number): Promise<Result> {
  return await autocannon({
    url,
    connections: CONNECTIONS,
    pipelining: 1,
    duration: seconds,
    timeout: 10,
    requests,
  });
}

async function measure(
  scenario: Scenario,
  target: TargetName,
  servers: Partial<Record<TargetName, ServerProcess>>,
  db: BenchDatabase,
  ctx: ScenarioContext,
): Promise<Omit<Line, 'round'>> {
  const server = servers[target]!;
  const stored = (): Promise<number | null> =>
    scenario.stored ? withClient(db.url, (c) => scenario.stored!(target, c)) : Promise.resolve(null);
  const rss = new RssSampler(server.pid);
  rss.start();
  note(`${scenario.name} → ${target}: warm-up ${WARMUP_S} s`);
  await drive(server.url, scenario.requests(target, ctx), WARMUP_S);
  // The bare baseline processes nothing: it owes no backlog.
  const backlog =
    scenario.backlog && target !== 'baseline'
      ? () => withClient(db.url, (c) => scenario.backlog!(target, c))
      : null;
  // The warm-up's backlog is worked off before the measured run starts.
  if (backlog) await drain(backlog, 120);
  if (ANALYZE) await withClient(db.url, (c) => c.query('analyze'));
  const before = await stored();

  note(`${scenario.name} → ${target}: ${DURATION_S} s at ${CONNECTIONS} connections`);
  const pids = Object.fromEntries(
    Object.entries({
      bench: process.pid,
      ...Object.fromEntries(Object.entries(servers).map(([n, p]) => [n, p.pid])),
    }),
  ) as Record<string, number>;
  const cpu0 = cpuSnapshot(pids, db.name);
  const t0 = performance.now();
  const r = await drive(server.url, scenario.requests(target, ctx), DURATION_S);
  const cpu = cpuUse(cpu0, cpuSnapshot(pids, db.name), (performance.now() - t0) / 1000);
  // Timed from the load stopping: what the target still had to process.
  const drained = backlog ? await drain(backlog, 60) : undefined;
  if (backlog)
    note(
      `${scenario.name} → ${target}: backlog drained ${drained === null ? 'NOT within 60 s' : `in ${drained} s`}`,
    );
  const maxRss = rss.stop();
  const after = await stored();

  const shares = Object.entries(cpu)
    .filter(([, pct]) => pct > 0)
    .sort(([, a], [, b]) => b - a)
    .map(([group, pct]) => `${group} ${pct}%`);
  note(
    `${scenario.name} → ${target}: CPU in % of one core (${os.cpus().length} cores): ${shares.join(', ')}`,
  );
  if (r.non2xx) note(`${scenario.name} → ${target}: status codes ${JSON.stringify(r.statusCodeStats)}`);
  return {
    scenario: scenario.name,
    target,
    connections: CONNECTIONS,
    duration_s: round(r.duration, 2),
    requests_per_sec: round(r.requests.total / r.duration),
    p50_ms: r.latency.p50,
    p99_ms: r.latency.p99,
    non_2xx: r.non2xx,
    errors: r.errors,
    server_rss_mb: maxRss,
    ratio_vs_baseline: null,
    responses_2xx: r['2xx'],
    stored_rows: before === null || after === null ? null : after - before,
    ...(drained === undefined ? {} : { drain_s: drained ?? Number.POSITIVE_INFINITY }),
  };
}

/**
 * Each target is measured ROUNDS times, alternating (baseline, service, baseline, service, …), so
 * a slow spell of this shared VM falls on both rather than on one; the summary line per target
 * averages requests/s over the rounds and takes the median round's p50 and p99 (the worst p99 is
 * kept beside it). The ratio is between the summaries.
 */
async function runScenario(
  scenario: Scenario,
  servers: Partial<Record<TargetName, ServerProcess>>,
  db: BenchDatabase,
  ctx: ScenarioContext,
): Promise<Line[]> {
  const only = process.env.BENCH_TARGETS?.split(',');
  const targets = scenario.targets.filter((t) => !only || only.includes(t));
  const lines: Line[] = [];
  for (let r = 1; r <= ROUNDS; r++) {
    for (const target of targets)
      lines.push({ ...(await measure(scenario, target, servers, db, ctx)), round: r });
  }
  const summaries = targets.map((target) => summarise(lines.filter((l) => l.target === target)));
  const base = summaries.find((l) => l.target === 'baseline');
  if (base) {
    for (const l of summaries) l.ratio_vs_baseline = round(l.requests_per_sec / base.requests_per_sec, 2);
    for (const l of lines) {
      const same = lines.find((b) => b.target === 'baseline' && b.round === l.round);
      if (same) l.ratio_vs_baseline = round(l.requests_per_sec / same.requests_per_sec, 2);
    }
  }
  return [...lines, ...summaries];
}

function summarise(rounds: Line[]): Line {
  const median = (xs: number[]) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return sorted[Math.floor((sorted.length - 1) / 2)]!;
  };
  const sum = (f: (l: Line) => number) => rounds.reduce((acc, l) => acc + f(l), 0);
  const stored = rounds.every((l) => l.stored_rows !== null) ? sum((l) => l.stored_rows!) : null;
  const rss = rounds.map((l) => l.server_rss_mb).filter((x): x is number => x !== null);
  return {
    ...rounds[0]!,
    round: 'all',
    duration_s: round(
      sum((l) => l.duration_s),
      2,
    ),
    requests_per_sec: round(sum((l) => l.requests_per_sec) / rounds.length),
    p50_ms: median(rounds.map((l) => l.p50_ms)),
    p99_ms: median(rounds.map((l) => l.p99_ms)),
    p99_ms_worst_round: Math.max(...rounds.map((l) => l.p99_ms)),
    ...(rounds[0]!.drain_s === undefined ? {} : { drain_s: Math.max(...rounds.map((l) => l.drain_s!)) }),
    non_2xx: sum((l) => l.non_2xx),
    errors: sum((l) => l.errors),
    server_rss_mb: rss.length ? Math.max(...rss) : null,
    ratio_vs_baseline: null,
    responses_2xx: sum((l) => l.responses_2xx),
    stored_rows: stored,
  };
}

/** Prints a scenario's lines and checks them; false when accepted requests went missing. */
function report(lines: Line[]): boolean {
  let ok = true;
  for (const l of lines) {
    process.stdout.write(`${JSON.stringify(l)}\n`);
    if (l.stored_rows !== null) {
      const kept = l.stored_rows >= l.responses_2xx;
      note(
        `${l.scenario} → ${l.target} (round ${l.round}): ${l.responses_2xx} responses 2xx, ${l.stored_rows} rows stored: ` +
          (kept ? 'every accepted request is stored' : 'ACCEPTED REQUESTS ARE MISSING'),
      );
      ok &&= kept;
    }
    if (l.target === 'all' && l.round === 'all' && l.ratio_vs_baseline !== null) {
      const met = l.ratio_vs_baseline >= TARGET.ratio && (l.drain_s ?? 0) <= DRAIN_TARGET_S;
      note(
        `${l.scenario}: one process (role all) at ${l.ratio_vs_baseline}× the baseline, p99 ${l.p99_ms} ms, ` +
          `backlog drained within ${l.drain_s} s of the load stopping (worst round); target ≥ ${TARGET.ratio}× ` +
          `with the backlog drained within ${DRAIN_TARGET_S} s ${met ? 'met' : 'NOT met'}`,
      );
    }
    if (l.target === 'service' && l.round === 'all' && l.ratio_vs_baseline !== null) {
      const met = l.ratio_vs_baseline >= TARGET.ratio && l.p99_ms < TARGET.p99Ms;
      note(
        `${l.scenario}: service at ${l.ratio_vs_baseline}× the baseline, p99 ${l.p99_ms} ms; target ` +
          `≥ ${TARGET.ratio}× with p99 < ${TARGET.p99Ms} ms ${met ? 'met' : 'NOT met'}`,
      );
    }
  }
  return ok;
}

async function main(): Promise<number> {
  const runId = Date.now().toString(36);
  const cleanups: (() => Promise<void>)[] = [];
  const cleanup = async () => {
    for (const fn of cleanups.splice(0).reverse()) await fn().catch((e) => note(`cleanup: ${e}`));
  };
  process.once('SIGINT', () => {
    note('interrupted; cleaning up');
    cleanup().finally(() => process.exit(130));
  });

  note(
    `node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), load average ` +
      `${os.loadavg()[0]!.toFixed(2)}: the load generator, both servers and Postgres share these cores`,
  );
  try {
    const db = await benchDatabase(note);
    const keep = process.env.BENCH_KEEP_DB === '1';
    cleanups.push(keep ? db.stopServer : db.drop);
    note(`database ${db.name} on ${db.origin} (${keep ? 'kept: BENCH_KEEP_DB=1' : 'dropped at the end'})`);
    // The server's settings the figures depend on, with the run's figures: a CI machine's
    // Postgres may differ from a deployment's (autovacuum off, small shared_buffers).
    const settings = await withClient(db.url, (c) =>
      c.query<{ name: string; setting: string }>(
        `select name, current_setting(name) as setting from pg_settings
          where name in ('server_version', 'autovacuum', 'shared_buffers', 'synchronous_commit', 'fsync', 'max_connections')
          order by name`,
      ),
    );
    note(`postgres: ${settings.rows.map((r) => `${r.name}=${r.setting}`).join(', ')}`);

    const env = {
      DATABASE_URL: db.url,
      RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: 'warn',
      SVC_SECRET: 'bench-secret-0123456789abcdef',
      NODE_ENV: 'production',
      // The suites' local receivers (webhooks, external fulfilment) are on loopback.
      EGRESS_ALLOW_CIDRS: '127.0.0.1/32',
      // Suite `points` times expiry from the moment lots fall due: the loyalty tick runs every second.
      LOYALTY_TICK_SECONDS: '1',
    };
    // The service runs as `npm start`, `npm run svc` and the units of docs/deploying.md run it:
    // V8's young generation capped at 16 MB semi-spaces (docs/deploying.md, "Memory").
    const nodeArgs = [
      '--max-semi-space-size=16',
      ...(process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(' '),
    ].filter(Boolean);
    note(
      `service: node ${[...nodeArgs, 'src/cli.ts serve'].join(' ')} (role ${process.env.SVC_ROLE ?? 'api'}), ` +
        'LOG_LEVEL=warn (request logs off), RATE_LIMIT_PER_MINUTE=0',
    );
    // Ingest is measured on an API-only process, as a deployment with separate workers runs it:
    // the target covers auth, validation, idempotency and the durable enqueue, not processing,
    // which the `engine` suite measures on its own.
    const ingestRole = process.env.SVC_ROLE ?? 'api';
    const service = await startServerProcess(
      'service',
      [...nodeArgs, 'src/cli.ts', 'serve'],
      { ...env, SVC_ROLE: ingestRole },
      '/readyz',
    );
    cleanups.push(service.stop);
    const ws = await runCli(['workspace', 'create', `bench-${runId}`, '--name', 'Bench'], env);
    const key = await runCli(['keys', 'create', '--workspace', String(ws.slug), '--mode', 'test'], env);
    const liveKey = await runCli(['keys', 'create', '--workspace', String(ws.slug), '--mode', 'live'], env);

    // The baseline's table: the service's `events` columns, defaults and indexes (no foreign keys:
    // it has no workspaces or participants), in its own schema of the same database.
    await withClient(db.url, (c) =>
      c.query('create schema baseline; create table baseline.events (like public.events including all)'),
    );
    note(
      `baseline: node bench/baseline.ts, pg.Pool max ${BASELINE_POOL_MAX}, one prepared INSERT per request`,
    );
    const baselineArgs = (process.env.BENCH_BASELINE_NODE_ARGS ?? '').split(' ').filter(Boolean);
    const baseline = await startServerProcess(
      'baseline',
      [...baselineArgs, 'bench/baseline.ts'],
      { DATABASE_URL: db.url, BASELINE_POOL_MAX },
      '/readyz',
    );
    cleanups.push(baseline.stop);
    note(`ANALYZE after each warm-up: ${ANALYZE ? 'yes' : 'no (cold planner statistics)'}`);

    const ctx: ScenarioContext = { runId, apiKey: String(key.key) };
    const only = process.env.BENCH_ONLY;
    let ok = true;
    for (const scenario of scenarios.filter((s) => !only || s.name === only)) {
      const servers: Partial<Record<TargetName, ServerProcess>> = { service, baseline };
      let all: ServerProcess | null = null;
      if (scenario.targets.includes('all')) {
        // The default deployment, started for this scenario only (it would otherwise process the
        // API-only scenarios' events during their measurement); their unprocessed jobs are
        // dropped first, so it works off only what it accepted itself.
        await withClient(db.url, (c) => c.query(`delete from pgboss.job where name = 'events.process'`));
        note(`${scenario.name}: node ${[...nodeArgs, 'src/cli.ts serve'].join(' ')} (role all)`);
        all = await startServerProcess(
          'all',
          [...nodeArgs, 'src/cli.ts', 'serve'],
          { ...env, SVC_ROLE: 'all' },
          '/readyz',
        );
        servers.all = all;
      }
      try {
        ok = report(await runScenario(scenario, servers, db, ctx)) && ok;
      } finally {
        await all?.stop();
      }
    }
    const chosen = suites.filter((s) => !only || only.split(',').includes(s.name));
    let suiteService = service;
    if (chosen.length) {
      // The suites run against a full process (API + workers). The HTTP scenarios' events were
      // only measured for ingest: their processing backlog is dropped so it does not load the suites.
      await service.stop();
      await withClient(db.url, (c) => c.query(`delete from pgboss.job where name = 'events.process'`));
      suiteService = await startServerProcess(
        'service',
        [...nodeArgs, 'src/cli.ts', 'serve'],
        { ...env, SVC_ROLE: 'all' },
        '/readyz',
      );
      cleanups.push(suiteService.stop);
    }
    for (const suite of chosen) {
      note(`suite ${suite.name}`);
      const passed = await suite.run({
        runId,
        apiKey: String(key.key),
        liveKey: String(liveKey.key),
        workspaceSlug: String(ws.slug),
        service: suiteService,
        db,
        env: { ...env, SVC_ROLE: 'all' },
        note,
        print: (line) => process.stdout.write(`${JSON.stringify(line)}\n`),
      });
      if (!passed) note(`suite ${suite.name}: a correctness check FAILED`);
      ok = passed && ok;
    }
    return ok ? 0 : 1;
  } finally {
    await cleanup();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`bench: ${(err as Error).stack ?? err}\n`);
    process.exit(1);
  },
);
