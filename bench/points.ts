/**
 * Suite `points`: the points lifecycle under load (docs/points.md). Three parts, each against its
 * baseline in the same run (BENCH_POINTS_PARTS: a comma-separated subset of `redeem,engine,expiry`,
 * default all three, in that order):
 *
 *  - redeem: the `rewards` suite's uncontended redemptions (bench/rewards.ts) by participants who
 *    each hold BENCH_POINTS_OPEN_LOTS (20) open lots, one credit per lot, expiring a month apart,
 *    so every debit picks the soonest among them; against the bare transaction
 *    (bench/rewards-baseline.ts). Target ≥ 0.8× the bare transaction's redemptions/s.
 *  - engine: the `engine` suite's throughput run (bench/engine.ts: BENCH_ENGINE_EVENTS events,
 *    points and a badge per event) twice, first as it is, then with the bench workspace's programme
 *    set to a fixed 12-month expiry rounded to the month and a daily cap of 1,000,000 points (reset
 *    afterwards); each against the bare pg-boss loop. Target ≥ 0.2× with expiry and the cap on.
 *  - expiry: BENCH_POINTS_LOTS (1,000,000) lots, 10 per participant, in a workspace of the suite's
 *    own, loaded in bulk SQL as the service writes them (participants with balance = Σ lots, one
 *    credit per lot, the lots), not yet due. Then, against the running service (API + workers,
 *    LOYALTY_TICK_SECONDS=1 from bench/run.ts), POST /v1/events with autocannon
 *    (BENCH_POINTS_CONNECTIONS = 32):
 *      1. undisturbed, for BENCH_DURATION s (at most 10);
 *      2. from the moment one UPDATE makes every lot due (`expires_at` a minute ago, the month-end
 *         case where a programme's lots all fall due at once) until no lot with remaining > 0 and
 *         expires_at ≤ now() is left (polled; at least 3 s, at most BENCH_POINTS_MAX_S = 600): the
 *         service's own loyalty tick expires them, on its one worker;
 *      3. undisturbed again, once the events of 2 are processed.
 *    Reports lots/s and the time (target < 60 s at 1,000,000 lots), and ingest during 2 against the
 *    faster of 1 and 3 (target ≥ 0.8×).
 *
 * Correctness: expiry: every lot expired exactly once (one expiry entry per lot, `lot:<entry_id>`,
 * for all its points, and its allocation; no lot among two expiry entries' allocations; every lot
 * remaining 0 with expired_at set), and for every participant balance = Σ ledger = Σ lots (= 0);
 * every ingested event kept. redeem: as the `rewards` suite, and balance = Σ ledger = Σ open lots.
 * engine: as the `engine` suite, and with the programme on, every credit and its lot carry an
 * expiry and each participant's daily earning counts add up to its balance.
 */
import autocannon, { type Request, type Result } from 'autocannon';
import pg from 'pg';
import { uuidv7Floor } from '../src/lib/uuid7.ts';
import { bareLoop, createBenchFlow, N as ENGINE_EVENTS, patchProgram, throughput } from './engine.ts';
import { runCli } from './processes.ts';
import { uncontended } from './rewards.ts';
import { eventRequests } from './scenarios.ts';
import type { Suite, SuiteContext } from './suites.ts';

const LOTS_PER_PARTICIPANT = 10;
const PARTICIPANTS = Math.max(
  1,
  Math.round(Number(process.env.BENCH_POINTS_LOTS ?? 1_000_000) / LOTS_PER_PARTICIPANT),
);
const LOTS = PARTICIPANTS * LOTS_PER_PARTICIPANT;
const OPEN_LOTS = Number(process.env.BENCH_POINTS_OPEN_LOTS ?? 20);
const CONNECTIONS = Number(process.env.BENCH_POINTS_CONNECTIONS ?? 32);
const DURATION_S = Math.min(Number(process.env.BENCH_DURATION ?? 10), 10);
const MAX_S = Number(process.env.BENCH_POINTS_MAX_S ?? 600);
const PARTS = new Set((process.env.BENCH_POINTS_PARTS ?? 'redeem,engine,expiry').split(','));
const TARGET = { expiryS: 60, ingestRatio: 0.8, redeemRatio: 0.8, engineRatio: 0.2 };
/** The programme of the engine variant (the issue's: expiry and a daily cap on, neither binding). */
const PROGRAM = {
  points_expiry: { mode: 'fixed', after: 'P12M', round_to: 'month' },
  earning_caps: [{ period: 'day', max_points: 1_000_000 }],
};
/** Participants per INSERT of the expiry load (10 lots each): bounded statements. */
const LOAD_CHUNK = 20_000;

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function workspaceIdOf(pool: pg.Pool, slug: string): Promise<string> {
  const { rows } = await pool.query<{ id: string }>('select id from workspaces where slug = $1', [slug]);
  return rows[0]!.id;
}

// --- redeem ---------------------------------------------------------------------------------

function redeem(ctx: SuiteContext, pool: pg.Pool, workspaceId: string): Promise<boolean> {
  ctx.note(
    `points: redemptions by participants holding ${OPEN_LOTS} open lots each, against the bare transaction`,
  );
  return uncontended(ctx, pool, workspaceId, {
    suite: 'points',
    scenario: 'redeem_open_lots',
    tag: '-lots',
    lots: OPEN_LOTS,
    targetRatio: TARGET.redeemRatio,
  });
}

// --- engine ---------------------------------------------------------------------------------

async function engine(ctx: SuiteContext, pool: pg.Pool, workspaceId: string): Promise<boolean> {
  const plainType = `bench.points.plain.${ctx.runId}`;
  const lifecycleType = `bench.points.lifecycle.${ctx.runId}`;
  for (const t of [plainType, lifecycleType]) await createBenchFlow(ctx, t);
  const analyze = () =>
    pool.query(
      'analyze events, participants, ledger_entries, point_lots, earning_counts, program_settings, flow_runs, participant_badges, participant_event_counts, outbox',
    );
  ctx.note(`points: bare pg-boss loop over ${ENGINE_EVENTS} no-op jobs`);
  const bare = await bareLoop(ctx, 'points-noop');
  await analyze();
  ctx.note(`points: engine, ${ENGINE_EVENTS} events, programme without expiry or caps`);
  const plain = await throughput(ctx, workspaceId, plainType, 'ptp');
  await patchProgram(ctx, PROGRAM);
  let lifecycle: Awaited<ReturnType<typeof throughput>>;
  try {
    await analyze();
    ctx.note(`points: engine, ${ENGINE_EVENTS} events, programme ${JSON.stringify(PROGRAM)}`);
    lifecycle = await throughput(ctx, workspaceId, lifecycleType, 'ptl');
  } finally {
    await patchProgram(ctx, { points_expiry: null, earning_caps: [] });
  }
  // With the programme on: every credit carries its expiry into its lot, and the daily counters
  // (no cap bound: 1,000,000 a day) add up to what each participant earned.
  const { rows } = await pool.query<Record<string, string>>(
    `with p as (select id, balance from participants where workspace_id = $1 and external_id like $2)
     select (select count(*) from ledger_entries l join p on p.id = l.participant_id where l.points > 0) as credits,
            (select count(*) from ledger_entries l join p on p.id = l.participant_id
              where l.points > 0 and (l.expires_at is null or l.capped_points <> 0)) as credits_without_expiry_or_capped,
            (select count(*) from point_lots o join p on p.id = o.participant_id
               join ledger_entries l on l.id = o.entry_id
              where o.expires_at is distinct from l.expires_at) as lots_not_as_credit,
            (select count(*) from p where p.balance <> coalesce((select sum(c.points) from earning_counts c
              where c.participant_id = p.id and c.scope = 'program' and c.period like 'day:%'), 0)) as counts_not_balance`,
    [workspaceId, `ptl-${ctx.runId}-%`],
  );
  const check = Object.fromEntries(Object.entries(rows[0]!).map(([k, v]) => [k, Number(v)]));
  const checked =
    check.credits! > 0 &&
    check.credits_without_expiry_or_capped === 0 &&
    check.lots_not_as_credit === 0 &&
    check.counts_not_balance === 0;
  if (!checked) ctx.note(`points: engine variant check failed: ${JSON.stringify(check)}`);
  const ratio = lifecycle.perSec / bare;
  ctx.print({
    suite: 'points',
    scenario: 'engine_expiry_and_cap',
    events: ENGINE_EVENTS,
    participants: Math.round(ENGINE_EVENTS / 10),
    program: PROGRAM,
    events_per_sec: round(lifecycle.perSec),
    events_per_sec_without: round(plain.perSec),
    baseline_jobs_per_sec: round(bare),
    ratio_vs_baseline: round(ratio, 3),
    ratio_vs_baseline_without: round(plain.perSec / bare, 3),
    target_ratio: TARGET.engineRatio,
    meets_target: ratio >= TARGET.engineRatio,
    checks: check,
  });
  return plain.ok && lifecycle.ok && checked;
}

// --- expiry ---------------------------------------------------------------------------------

/** The expiry's ingest load: page views over 1,000 participants of the bench workspace. */
const ingestRequests = (ctx: SuiteContext): Request[] =>
  eventRequests(ctx.apiKey, `points-${ctx.runId}`, (i) => ({
    event_type: 'page.viewed',
    participant: { external_id: `pv_${i % 1000}` },
    payload: { page: `/p/${i % 97}` },
  }));

/**
 * PARTICIPANTS participants with LOTS_PER_PARTICIPANT credits each (10, 20, … points), their
 * lots expiring in 30 days (beyond the notice horizon: no `points.expiring` meanwhile).
 */
async function loadLots(ctx: SuiteContext, pool: pg.Pool, workspaceId: string): Promise<void> {
  const started = performance.now();
  const loader = await pool.connect();
  try {
    // Generated rows are consistent by construction: skip the foreign-key and ledger triggers, as
    // pg_restore does, and write the lots the ledger's trigger would have opened. Without a
    // superuser the trigger opens them itself (slower, the same rows).
    const replica = await loader.query('set session_replication_role = replica').then(
      () => true,
      () => false,
    );
    const perParticipant = (5 * LOTS_PER_PARTICIPANT * (LOTS_PER_PARTICIPANT + 1)).toString();
    const lots = replica
      ? `insert into point_lots (workspace_id, mode, participant_id, entry_id, points, remaining, expires_at)
         select $1, 'test', participant_id, id, points, points, expires_at from e order by id`
      : 'select count(*) from e';
    for (let from = 0; from < PARTICIPANTS; from += LOAD_CHUNK) {
      const to = Math.min(PARTICIPANTS, from + LOAD_CHUNK) - 1;
      await loader.query(
        `with p as (
           insert into participants (workspace_id, mode, external_id, balance, lifetime_points)
           select $1, 'test', 'pt-' || g, $4::bigint, $4::bigint from generate_series($2::int, $3::int) g
           returning id
         ), e as (
           insert into ledger_entries (workspace_id, mode, participant_id, points, balance_after, reason, source, expires_at)
           select $1, 'test', p.id, 10 * (k + 1), 5 * (k + 1) * (k + 2), 'bench load', 'adjustment',
                  now() + interval '30 days'
             from p, generate_series(0, $5::int - 1) k order by p.id, k
           returning id, participant_id, points, expires_at
         ) ${lots}`,
        [workspaceId, from, to, perParticipant, LOTS_PER_PARTICIPANT],
      );
      ctx.note(`points: loaded ${(to + 1) * LOTS_PER_PARTICIPANT} of ${LOTS} lots`);
    }
  } finally {
    await loader.query('reset session_replication_role').catch(() => {});
    loader.release();
  }
  // As after any bulk load: statistics, the visibility map, and the dirty pages flushed here
  // rather than by a checkpoint inside a measured window (see bench/lifecycle.ts).
  await pool.query('vacuum (analyze) participants, ledger_entries, point_lots, lot_allocations');
  await pool.query('checkpoint');
  ctx.note(`points: load and vacuum took ${round((performance.now() - started) / 1000)} s`);
}

/** Waits until every event ingested since `since` is processed, so a window starts with no backlog. */
async function drained(pool: pg.Pool, since: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const { rows } = await pool.query<{ n: number }>(
      `select count(*)::int as n from events where id >= $1 and status = 'received'`,
      [since],
    );
    if (rows[0]!.n === 0) return;
    await sleep(500);
  }
}

/**
 * Whether any lot of the workspace is still due. Through the due index, soonest first, so a poll
 * reads a few pages however many lots have expired (a plain EXISTS was planned as a sequential
 * scan of every lot, ten times a second, beside the expiry it measures).
 */
async function anyDue(pool: pg.Pool, workspaceId: string): Promise<boolean> {
  const { rows } = await pool.query(
    `select 1 from point_lots where workspace_id = $1 and remaining > 0 and expires_at <= now()
      order by expires_at limit 1`,
    [workspaceId],
  );
  return rows.length > 0;
}

/** Every lot expired exactly once, and balance = Σ ledger = Σ lots for every participant. */
async function expiryChecks(pool: pg.Pool, workspaceId: string): Promise<Record<string, number>> {
  const { rows } = await pool.query<Record<string, string>>(
    `with x as (
       select e.id, e.points, e.reference from ledger_entries e
        where e.workspace_id = $1 and e.mode = 'test' and e.source = 'expiry'
     ), by_reference as (
       select reference, count(*) as n, min(points) as points from x group by reference
     ), allocated as (
       select a.lot_id, count(*) as n, sum(a.points) as points
         from lot_allocations a join x on x.id = a.entry_id group by a.lot_id
     ), per_lot as (
       select l.points, l.remaining, l.expired_at, coalesce(r.n, 0) as entries, r.points as entry_points,
              coalesce(a.n, 0) as allocations, a.points as allocated
         from point_lots l
         left join by_reference r on r.reference = 'lot:' || l.entry_id
         left join allocated a on a.lot_id = l.id
        where l.workspace_id = $1
     ), per_participant as (
       select p.balance, coalesce(e.points, 0) as ledger, coalesce(l.points, 0) as lots
         from participants p
         left join (select participant_id, sum(points) as points from ledger_entries
                     where workspace_id = $1 group by 1) e on e.participant_id = p.id
         left join (select participant_id, sum(remaining) as points from point_lots
                     where workspace_id = $1 group by 1) l on l.participant_id = p.id
        where p.workspace_id = $1
     )
     select (select count(*) from per_lot) as lots,
            (select count(*) from x) as expiry_entries,
            (select count(*) from per_lot where remaining <> 0 or expired_at is null) as lots_not_expired,
            (select count(*) from per_lot
              where entries <> 1 or entry_points <> -points or allocations <> 1 or allocated <> points)
              as lots_not_expired_once,
            (select count(*) from allocated where n > 1) as lots_in_two_expiry_entries,
            (select count(*) from per_participant) as participants,
            (select count(*) from per_participant where balance <> ledger or balance <> lots or balance <> 0)
              as balance_not_ledger_or_lots`,
    [workspaceId],
  );
  return Object.fromEntries(Object.entries(rows[0]!).map(([k, v]) => [k, Number(v)]));
}

async function expiry(ctx: SuiteContext, pool: pg.Pool): Promise<boolean> {
  const ws = await runCli(['workspace', 'create', `points-${ctx.runId}`, '--name', 'Points'], ctx.env);
  const lotsWorkspace = String(ws.id);
  ctx.note(`points: loading ${LOTS} lots over ${PARTICIPANTS} participants (workspace ${ws.slug})`);
  await loadLots(ctx, pool, lotsWorkspace);
  const runStart = uuidv7Floor(new Date());

  const undisturbedWindow = async (): Promise<Result> => {
    const r = await autocannon({
      url: ctx.service.url,
      connections: CONNECTIONS,
      duration: DURATION_S,
      timeout: 10,
      requests: ingestRequests(ctx),
    });
    await drained(pool, runStart);
    return r;
  };
  const undisturbedBefore = await undisturbedWindow();

  // Every lot falls due at once; the window opens when that commits …
  const updateStart = performance.now();
  await pool.query(
    `update point_lots set expires_at = now() - interval '1 minute' where workspace_id = $1 and remaining > 0`,
    [lotsWorkspace],
  );
  const t0 = performance.now();
  ctx.note(`points: ${LOTS} lots made due in ${round((t0 - updateStart) / 1000)} s; expiring`);
  const during = autocannon({
    url: ctx.service.url,
    connections: CONNECTIONS,
    duration: MAX_S,
    timeout: 10,
    requests: ingestRequests(ctx),
  });
  // … and the expiry ends when no due lot is left (the window stays open at least 3 s).
  let expiryS: number | null = null;
  let lastNote = t0;
  for (;;) {
    const elapsed = performance.now() - t0;
    if (expiryS === null && !(await anyDue(pool, lotsWorkspace))) {
      expiryS = (performance.now() - t0) / 1000;
      ctx.note(`points: no lot due after ${round(expiryS, 2)} s`);
    }
    if (expiryS !== null && elapsed >= 3_000) break;
    if (elapsed > MAX_S * 1000) break;
    if (performance.now() - lastNote > 10_000) {
      lastNote = performance.now();
      ctx.note(`points: still expiring after ${round(elapsed / 1000)} s`);
    }
    await sleep(200);
  }
  during.stop();
  const disturbed = await during;
  const { rows: span } = await pool.query<{ first: Date | null; last: Date | null }>(
    `select min(created_at) as first, max(created_at) as last from ledger_entries
      where workspace_id = $1 and source = 'expiry'`,
    [lotsWorkspace],
  );
  await drained(pool, runStart);
  const undisturbedAfter = await undisturbedWindow();
  const undisturbed =
    undisturbedAfter.requests.average > undisturbedBefore.requests.average
      ? undisturbedAfter
      : undisturbedBefore;

  const checks = await expiryChecks(pool, lotsWorkspace);
  const ingested = await pool.query<{ n: number }>(`select count(*)::int as n from events where id >= $1`, [
    runStart,
  ]);
  const accepted = (undisturbedBefore['2xx'] ?? 0) + (disturbed['2xx'] ?? 0) + (undisturbedAfter['2xx'] ?? 0);
  const ratio = undisturbed.requests.average ? disturbed.requests.average / undisturbed.requests.average : 0;
  const ok =
    expiryS !== null &&
    checks.lots === LOTS &&
    checks.expiry_entries === LOTS &&
    checks.participants === PARTICIPANTS &&
    checks.lots_not_expired! + checks.lots_not_expired_once! + checks.lots_in_two_expiry_entries! === 0 &&
    checks.balance_not_ledger_or_lots === 0 &&
    ingested.rows[0]!.n >= accepted &&
    undisturbedBefore.non2xx + disturbed.non2xx + undisturbedAfter.non2xx === 0;
  const first = span[0]?.first;
  const last = span[0]?.last;
  ctx.print({
    suite: 'points',
    scenario: 'expiry',
    lots: LOTS,
    participants: PARTICIPANTS,
    lots_per_participant: LOTS_PER_PARTICIPANT,
    expiry_s: expiryS === null ? null : round(expiryS, 2),
    lots_per_sec: expiryS ? round(LOTS / expiryS) : 0,
    // From the first expiry batch's transaction to the last one's: the time less the wait for a tick.
    first_to_last_batch_s: first && last ? round((last.getTime() - first.getTime()) / 1000, 2) : null,
    target_s: TARGET.expiryS,
    connections: CONNECTIONS,
    ingest_undisturbed_rps: round(undisturbed.requests.average),
    ingest_undisturbed_p99_ms: undisturbed.latency.p99,
    ingest_undisturbed_before_after_rps: [
      round(undisturbedBefore.requests.average),
      round(undisturbedAfter.requests.average),
    ],
    ingest_during_expiry_rps: round(disturbed.requests.average),
    ingest_during_expiry_p99_ms: disturbed.latency.p99,
    ingest_window_s: round(disturbed.duration, 1),
    ratio: round(ratio, 2),
    target_ratio: TARGET.ingestRatio,
    meets_target: expiryS !== null && expiryS < TARGET.expiryS && ratio >= TARGET.ingestRatio,
    checks,
    accepted_2xx: accepted,
    ingested_rows: ingested.rows[0]!.n,
  });
  if (!ok) ctx.note(`points: expiry check failed: ${JSON.stringify(checks)}`);
  return ok;
}

export const pointsSuite: Suite = {
  name: 'points',
  async run(ctx) {
    const pool = new pg.Pool({ connectionString: ctx.db.url, max: 4 });
    try {
      const workspaceId = await workspaceIdOf(pool, ctx.workspaceSlug);
      let ok = true;
      if (PARTS.has('redeem')) ok = (await redeem(ctx, pool, workspaceId)) && ok;
      if (PARTS.has('engine')) ok = (await engine(ctx, pool, workspaceId)) && ok;
      if (PARTS.has('expiry')) {
        // The earlier parts' writes are flushed before the expiry's windows.
        await pool.query('checkpoint');
        ok = (await expiry(ctx, pool)) && ok;
      }
      return ok;
    } finally {
      await pool.end();
    }
  },
};
