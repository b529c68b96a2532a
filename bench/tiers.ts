/**
 * Suite `tiers`: tier programmes at scale (docs/tiers.md). Four parts, each against its target or
 * baseline in the same run (BENCH_TIERS_PARTS: a comma-separated subset of
 * `read,preview,change,engine`, default all four, in that order):
 *
 *  - load (for read, preview and change): BENCH_TIERS_PARTICIPANTS (1,000,000) participants in a
 *    workspace of the suite's own, in bulk SQL as the service would have left them under a
 *    `lifetime` programme (levels member 0, silver 1,000, gold 5,000; policy none, so qualifying
 *    points are lifetime points and no ledger is needed): lifetime points spread evenly over
 *    0..9,999 (participant g has (g × 7919) mod 10,000, so every id range holds every score),
 *    their level set from them, and one `qualified` move in the history per participant above
 *    member. The programme is PUT (and applied) before the load.
 *  - read: `GET /v1/participants/{external_id}` (with its `tier`) of random participants over
 *    HTTP (autocannon, BENCH_TIERS_READ_CONNECTIONS = 4, BENCH_DURATION s, at most 5), beside the
 *    floor of an authenticated GET doing one trivial read (`GET /v1/tiers`). Target p99 < 20 ms.
 *  - preview: `POST /v1/tiers/preview` lowering gold to 4,000, three times. Target < 5 s each; its
 *    moves must be exactly the upgrades the change then makes.
 *  - change: `PUT /v1/tiers` lowering gold to 4,000, which upgrades a tenth of the participants
 *    (100,000 of 1,000,000) silver → gold: the service's loyalty tick walks every participant
 *    (LOYALTY_TICK_SECONDS=1 from bench/run.ts). Timed from the PUT until `applied_version ≥
 *    version` (at most BENCH_TIERS_MAX_S = 600; the last batch's moves commit with that update),
 *    target < 60 s, while POST /v1/events runs (BENCH_TIERS_CONNECTIONS = 32) against the bench
 *    workspace: its rate during the walk against the faster of an undisturbed window before and
 *    one after (BENCH_DURATION s each, at most 10), target ≥ 0.8×, as bench/points.ts measures
 *    expiry against ingest.
 *  - engine: the `engine` suite's throughput run (bench/engine.ts: BENCH_ENGINE_EVENTS events,
 *    points and a badge per event) in a workspace of its own, first with no tier programme, then
 *    after PUT of a `rolling` 12-month programme (one_down, a month's grace; member 0, silver 100,
 *    gold 250), so every credit also writes its window credit and a tenth of the participants
 *    move up twice; each against the bare pg-boss loop. Target ≥ 0.2× with the programme on.
 *
 * Correctness: change: exactly the expected participants moved, each once, silver → gold, with one
 * `tier.changed` each, and every participant's level is what their points support; preview: its
 * moves are those. engine: as the `engine` suite, and with the programme on, every participant's
 * tier_points = Σ of their window credits = their balance (nothing reversed or spent), one window
 * credit per positive credit, their level the one their points support, and their last move's
 * `to` their level.
 */
import autocannon, { type Request, type Result } from 'autocannon';
import pg from 'pg';
import { uuidv7Floor } from '../src/lib/uuid7.ts';
import { bareLoop, createBenchFlow, N as ENGINE_EVENTS, throughput } from './engine.ts';
import { runCli } from './processes.ts';
import { eventRequests } from './scenarios.ts';
import type { Suite, SuiteContext } from './suites.ts';

const PARTICIPANTS = Math.max(1, Number(process.env.BENCH_TIERS_PARTICIPANTS ?? 1_000_000));
const READ_CONNECTIONS = Number(process.env.BENCH_TIERS_READ_CONNECTIONS ?? 4);
const CONNECTIONS = Number(process.env.BENCH_TIERS_CONNECTIONS ?? 32);
const READ_S = Math.min(Number(process.env.BENCH_DURATION ?? 5), 5);
const DURATION_S = Math.min(Number(process.env.BENCH_DURATION ?? 10), 10);
const MAX_S = Number(process.env.BENCH_TIERS_MAX_S ?? 600);
const PARTS = new Set((process.env.BENCH_TIERS_PARTS ?? 'read,preview,change,engine').split(','));
const TARGET = { readP99Ms: 20, previewS: 5, changeS: 60, ingestRatio: 0.8, engineRatio: 0.2 };
/** Participants per INSERT of the load: bounded statements. */
const LOAD_CHUNK = 100_000;

const level = (key: string, name: string, threshold: number) => ({ key, name, threshold });
const THRESHOLDS = { silver: 1000, gold: 5000, goldLowered: 4000 };
/** The loaded workspace's programme, and the change the preview and the change part make. */
const programme = (gold: number) => ({
  qualification: { window: 'lifetime' },
  downgrade: { policy: 'none' },
  levels: [
    level('member', 'Member', 0),
    level('silver', 'Silver', THRESHOLDS.silver),
    level('gold', 'Gold', gold),
  ],
});
/** The engine part's programme: a rolling window, so every credit writes its window credit. */
const ENGINE_PROGRAMME = {
  qualification: { window: 'rolling', duration: 'P12M' },
  downgrade: { policy: 'one_down', grace: 'P1M' },
  levels: [level('member', 'Member', 0), level('silver', 'Silver', 100), level('gold', 'Gold', 250)],
};

/** Participant g's lifetime points: every score 0..9,999 once in each 10,000 ids (7919 is prime). */
const pointsOf = (g: number) => (g * 7919) % 10_000;
const POINTS_SQL = '(g::bigint * 7919) % 10000';

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const counts = (row: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)])) as Record<string, number>;

async function call(ctx: SuiteContext, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${ctx.service.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text);
}

/** A workspace of the suite's own with a full-access test key. */
async function workspace(ctx: SuiteContext, pool: pg.Pool, slug: string) {
  const ws = await runCli(['workspace', 'create', slug, '--name', slug], ctx.env);
  const key = await runCli(['keys', 'create', '--workspace', String(ws.slug), '--mode', 'test'], ctx.env);
  const { rows } = await pool.query<{ id: string }>('select id from workspaces where slug = $1', [ws.slug]);
  return { id: rows[0]!.id, slug: String(ws.slug), key: String(key.key) };
}

/**
 * Waits until the tier job has applied the workspace's latest programme version: the seconds that
 * took (null after `limitS`), and when its walk's first batch had committed (the cursor moved).
 */
async function applied(
  pool: pg.Pool,
  workspaceId: string,
  limitS = MAX_S,
): Promise<{ s: number; firstBatchS: number } | null> {
  const t0 = performance.now();
  let firstBatchS: number | null = null;
  for (;;) {
    const { rows } = await pool.query<{ done: boolean; cursor: string }>(
      `select applied_version >= version as done, cursor from tier_programs where workspace_id = $1 and mode = 'test'`,
      [workspaceId],
    );
    const s = (performance.now() - t0) / 1000;
    if (firstBatchS === null && rows[0] && rows[0].cursor !== '0') firstBatchS = s;
    if (rows[0]?.done) return { s, firstBatchS: firstBatchS ?? s };
    if (s > limitS) return null;
    await sleep(100);
  }
}

// --- load -----------------------------------------------------------------------------------

async function load(ctx: SuiteContext, pool: pg.Pool, workspaceId: string): Promise<void> {
  const started = performance.now();
  const loader = await pool.connect();
  try {
    // Generated rows are consistent by construction: skip the foreign-key and live triggers, as
    // pg_restore does (needs a superuser; without one the load is just slower).
    await loader.query('set session_replication_role = replica').catch(() => {});
    for (let from = 1; from <= PARTICIPANTS; from += LOAD_CHUNK) {
      const to = Math.min(PARTICIPANTS, from + LOAD_CHUNK - 1);
      await loader.query(
        `with p as (
           insert into participants (workspace_id, mode, external_id, balance, lifetime_points, tier_key, tier_since)
           select $1, 'test', 'tr-' || g, s, s,
                  case when s >= $4 then 'gold' when s >= $5 then 'silver' end,
                  case when s >= $5 then now() - interval '30 days' end
             from (select g, ${POINTS_SQL} as s from generate_series($2::int, $3::int) g) x
           returning id, lifetime_points, tier_key, tier_since
         )
         insert into tier_history (workspace_id, mode, participant_id, from_key, from_name, to_key, to_name, reason,
                                   qualifying_points, at)
         select $1, 'test', id, 'member', 'Member', tier_key, case tier_key when 'gold' then 'Gold' else 'Silver' end,
                'qualified', lifetime_points, tier_since
           from p where tier_key is not null order by id`,
        [workspaceId, from, to, THRESHOLDS.gold, THRESHOLDS.silver],
      );
      ctx.note(`tiers: loaded ${to} of ${PARTICIPANTS} participants`);
    }
  } finally {
    await loader.query('reset session_replication_role').catch(() => {});
    loader.release();
  }
  // As after any bulk load: statistics, the visibility map, and the dirty pages flushed here
  // rather than by a checkpoint inside a measured window (see bench/lifecycle.ts).
  await pool.query('vacuum (analyze) participants, tier_history');
  await pool.query('checkpoint');
  ctx.note(`tiers: load and vacuum took ${round((performance.now() - started) / 1000)} s`);
}

// --- read -----------------------------------------------------------------------------------

async function read(ctx: SuiteContext, key: string): Promise<boolean> {
  const auth = { authorization: `Bearer ${key}` };
  const drive = (requests: Request[]) =>
    autocannon({
      url: ctx.service.url,
      connections: READ_CONNECTIONS,
      pipelining: 1,
      duration: READ_S,
      timeout: 10,
      requests,
    });
  const pick = () => 1 + Math.floor(Math.random() * PARTICIPANTS);
  let ok = true;
  for (const [scenario, requests] of [
    // The floor: an authenticated GET doing one trivial read, on the same machine and load.
    ['floor_get_tiers', [{ method: 'GET', path: '/v1/tiers', headers: auth }]],
    [
      'read_participant',
      [
        {
          method: 'GET',
          headers: auth,
          setupRequest: (req) => ({ ...req, path: `/v1/participants/tr-${pick()}` }),
        },
      ],
    ],
  ] as [string, Request[]][]) {
    const r = await drive(requests);
    const floor = scenario.startsWith('floor');
    ctx.print({
      suite: 'tiers',
      scenario,
      participants: PARTICIPANTS,
      connections: READ_CONNECTIONS,
      requests_per_sec: round(r.requests.average),
      p50_ms: r.latency.p50,
      p99_ms: r.latency.p99,
      non_2xx: r.non2xx,
      errors: r.errors,
      ...(floor ? {} : { target_p99_ms: TARGET.readP99Ms, meets_target: r.latency.p99 < TARGET.readP99Ms }),
    });
    ok = ok && r.non2xx === 0 && r.errors === 0;
  }
  // What the reads answered: each sampled participant's level is the one their points reach.
  let wrong = 0;
  for (let i = 0; i < 25; i++) {
    const g = pick();
    const p = await call(ctx, key, 'GET', `/v1/participants/tr-${g}`);
    const s = pointsOf(g);
    const want = s >= THRESHOLDS.gold ? 'gold' : s >= THRESHOLDS.silver ? 'silver' : 'member';
    if (p.tier?.key !== want || p.tier?.qualifying_points !== s) wrong++;
  }
  if (wrong) ctx.note(`tiers: ${wrong}/25 participants read with another tier than their points support`);
  return ok && wrong === 0;
}

// --- preview --------------------------------------------------------------------------------

/** The upgrades lowering gold makes: participants with 4,000..4,999 points. */
function expectedUpgrades(): number {
  let n = 0;
  for (let g = 1; g <= PARTICIPANTS; g++) {
    const s = pointsOf(g);
    if (s >= THRESHOLDS.goldLowered && s < THRESHOLDS.gold) n++;
  }
  return n;
}

async function preview(ctx: SuiteContext, key: string, upgrades: number): Promise<boolean> {
  const times: number[] = [];
  let answer: { moves: { from: string | null; to: string | null; count: number }[] } | null = null;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    answer = await call(ctx, key, 'POST', '/v1/tiers/preview', programme(THRESHOLDS.goldLowered));
    times.push((performance.now() - t0) / 1000);
  }
  const moves = answer!.moves;
  const right =
    moves.length === 1 &&
    moves[0]!.from === 'silver' &&
    moves[0]!.to === 'gold' &&
    moves[0]!.count === upgrades;
  if (!right) ctx.note(`tiers: preview moves ${JSON.stringify(moves)}, expected ${upgrades} silver → gold`);
  const worst = Math.max(...times);
  ctx.print({
    suite: 'tiers',
    scenario: 'preview',
    participants: PARTICIPANTS,
    preview_s: times.map((t) => round(t, 3)),
    worst_s: round(worst, 3),
    moves,
    target_s: TARGET.previewS,
    meets_target: worst < TARGET.previewS,
  });
  return right;
}

// --- change ---------------------------------------------------------------------------------

/** The change's ingest load: page views over 1,000 participants of the bench workspace. */
const ingestRequests = (ctx: SuiteContext): Request[] =>
  eventRequests(ctx.apiKey, `tiers-${ctx.runId}`, (i) => ({
    event_type: 'page.viewed',
    participant: { external_id: `tv_${i % 1000}` },
    payload: { page: `/p/${i % 97}` },
  }));

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

/** Every participant moved once, silver → gold, with its result, and every level what the points support. */
async function changeChecks(pool: pg.Pool, workspaceId: string): Promise<Record<string, number>> {
  const { rows } = await pool.query<Record<string, string>>(
    `with m as (select participant_id, from_key, to_key from tier_history
                 where workspace_id = $1 and mode = 'test' and reason = 'programme_change')
     select (select count(*) from m) as moves,
            (select count(*) from m where from_key <> 'silver' or to_key <> 'gold') as moves_not_silver_to_gold,
            (select count(*) from (select participant_id from m group by 1 having count(*) > 1) d) as moved_twice,
            (select count(*) from outbox where workspace_id = $1 and mode = 'test' and type = 'tier.changed') as results,
            (select count(*) from participants where workspace_id = $1 and mode = 'test'
              and coalesce(tier_key, 'member') <> case when lifetime_points >= $2 then 'gold'
                                                       when lifetime_points >= $3 then 'silver' else 'member' end)
              as level_not_supported`,
    [workspaceId, THRESHOLDS.goldLowered, THRESHOLDS.silver],
  );
  return counts(rows[0]!);
}

async function change(ctx: SuiteContext, pool: pg.Pool, ws: { id: string; key: string }, upgrades: number) {
  const runStart = uuidv7Floor(new Date());
  const window = (duration: number) =>
    autocannon({
      url: ctx.service.url,
      connections: CONNECTIONS,
      duration,
      timeout: 10,
      requests: ingestRequests(ctx),
    });
  const undisturbedWindow = async (): Promise<Result> => {
    const r = await window(DURATION_S);
    await drained(pool, runStart);
    return r;
  };
  const undisturbedBefore = await undisturbedWindow();

  // The window opens with the PUT (the walk starts at the next tick) …
  const t0 = performance.now();
  const during = window(MAX_S);
  await call(ctx, ws.key, 'PUT', '/v1/tiers', programme(THRESHOLDS.goldLowered));
  // … and ends when the walk has applied the version (the window stays open at least 3 s).
  const done = await applied(pool, ws.id);
  const changeS = done?.s ?? null;
  const elapsed = (performance.now() - t0) / 1000;
  if (changeS !== null && elapsed < 3) await sleep((3 - elapsed) * 1000);
  during.stop();
  const disturbed = await during;
  ctx.note(
    `tiers: change ${changeS === null ? `NOT applied within ${MAX_S} s` : `applied in ${round(changeS, 2)} s`}`,
  );
  await drained(pool, runStart);
  const undisturbedAfter = await undisturbedWindow();
  const undisturbed =
    undisturbedAfter.requests.average > undisturbedBefore.requests.average
      ? undisturbedAfter
      : undisturbedBefore;

  const checks = await changeChecks(pool, ws.id);
  const ingested = await pool.query<{ n: number }>(`select count(*)::int as n from events where id >= $1`, [
    runStart,
  ]);
  const accepted = (undisturbedBefore['2xx'] ?? 0) + (disturbed['2xx'] ?? 0) + (undisturbedAfter['2xx'] ?? 0);
  const ratio = undisturbed.requests.average ? disturbed.requests.average / undisturbed.requests.average : 0;
  const ok =
    changeS !== null &&
    checks.moves === upgrades &&
    checks.results === upgrades &&
    checks.moves_not_silver_to_gold! + checks.moved_twice! + checks.level_not_supported! === 0 &&
    ingested.rows[0]!.n >= accepted &&
    undisturbedBefore.non2xx + disturbed.non2xx + undisturbedAfter.non2xx === 0;
  ctx.print({
    suite: 'tiers',
    scenario: 'programme_change',
    participants: PARTICIPANTS,
    upgrades,
    change_s: changeS === null ? null : round(changeS, 2),
    // The walk itself: from its first batch's commit (the tick starts it up to a second after the PUT).
    first_batch_after_s: done ? round(done.firstBatchS, 2) : null,
    participants_walked_per_sec:
      done && done.s > done.firstBatchS ? round(PARTICIPANTS / (done.s - done.firstBatchS)) : null,
    target_s: TARGET.changeS,
    connections: CONNECTIONS,
    ingest_undisturbed_rps: round(undisturbed.requests.average),
    ingest_undisturbed_p99_ms: undisturbed.latency.p99,
    ingest_undisturbed_before_after_rps: [
      round(undisturbedBefore.requests.average),
      round(undisturbedAfter.requests.average),
    ],
    ingest_during_change_rps: round(disturbed.requests.average),
    ingest_during_change_p99_ms: disturbed.latency.p99,
    ingest_window_s: round(disturbed.duration, 1),
    ratio: round(ratio, 2),
    target_ratio: TARGET.ingestRatio,
    meets_target: changeS !== null && changeS < TARGET.changeS && ratio >= TARGET.ingestRatio,
    checks,
    accepted_2xx: accepted,
    ingested_rows: ingested.rows[0]!.n,
  });
  if (!ok) ctx.note(`tiers: change check failed: ${JSON.stringify(checks)} (expected ${upgrades} moves)`);
  return ok;
}

// --- engine ---------------------------------------------------------------------------------

/** With the programme on: tier points = window credits = balance, the level they support, the last move's `to`. */
async function engineChecks(
  pool: pg.Pool,
  workspaceId: string,
  like: string,
): Promise<Record<string, number>> {
  const { rows } = await pool.query<Record<string, string>>(
    `with p as (select id, balance, tier_points, coalesce(tier_key, 'member') as level from participants
                 where workspace_id = $1 and mode = 'test' and external_id like $2),
     c as (select c.participant_id, sum(c.points) as points, count(*) filter (where c.points > 0) as n
             from tier_credits c join p on p.id = c.participant_id group by 1),
     l as (select l.participant_id, count(*) as n from ledger_entries l join p on p.id = l.participant_id
            where l.points > 0 group by 1)
     select (select count(*) from p) as participants,
            (select coalesce(sum(n), 0) from l) as credits,
            (select coalesce(sum(n), 0) from c) as window_credits,
            (select count(*) from tier_history h join p on p.id = h.participant_id) as moves,
            (select count(*) from p left join c on c.participant_id = p.id
              where p.tier_points <> coalesce(c.points, 0) or p.tier_points <> p.balance) as points_not_credits_or_balance,
            (select count(*) from p left join c on c.participant_id = p.id left join l on l.participant_id = p.id
              where coalesce(c.n, 0) <> coalesce(l.n, 0)) as credits_not_in_window,
            (select count(*) from p where p.level <> case when p.tier_points >= $4 then 'gold'
                                                          when p.tier_points >= $3 then 'silver' else 'member' end)
              as level_not_supported,
            (select count(*) from p where p.level <> coalesce((select h.to_key from tier_history h
               where h.participant_id = p.id order by h.id desc limit 1), 'member')) as level_not_last_move`,
    [workspaceId, like, ENGINE_PROGRAMME.levels[1]!.threshold, ENGINE_PROGRAMME.levels[2]!.threshold],
  );
  return counts(rows[0]!);
}

async function engine(ctx: SuiteContext, pool: pg.Pool): Promise<boolean> {
  // A workspace of its own: the programme is PUT on it with few participants to walk, and ending
  // it would move every participant of the bench workspace (a million after `leaderboards`).
  const ws = await workspace(ctx, pool, `tiers-engine-${ctx.runId}`);
  const own: SuiteContext = { ...ctx, apiKey: ws.key };
  const plainType = `bench.tiers.plain.${ctx.runId}`;
  const tieredType = `bench.tiers.tiered.${ctx.runId}`;
  for (const t of [plainType, tieredType]) await createBenchFlow(own, t);
  const analyze = () =>
    pool.query(
      'analyze events, participants, ledger_entries, point_lots, flow_runs, participant_badges, participant_event_counts, outbox, tier_credits, tier_history, tier_programs',
    );
  ctx.note(`tiers: bare pg-boss loop over ${ENGINE_EVENTS} no-op jobs`);
  const bare = await bareLoop(ctx, 'tiers-noop');
  await analyze();
  ctx.note(`tiers: engine, ${ENGINE_EVENTS} events, no tier programme`);
  const plain = await throughput(own, ws.id, plainType, 'ttp');
  await call(ctx, ws.key, 'PUT', '/v1/tiers', ENGINE_PROGRAMME);
  // The walk (a new window: recounted from the ledger) is over before the measured run.
  if ((await applied(pool, ws.id)) === null)
    throw new Error('the engine workspace’s tier programme was not applied');
  await analyze();
  ctx.note(`tiers: engine, ${ENGINE_EVENTS} events, programme ${JSON.stringify(ENGINE_PROGRAMME)}`);
  const tiered = await throughput(own, ws.id, tieredType, 'ttt');
  const checks = await engineChecks(pool, ws.id, `ttt-${ctx.runId}-%`);
  const checked =
    checks.credits! > 0 &&
    checks.window_credits === checks.credits &&
    checks.moves! > 0 &&
    checks.points_not_credits_or_balance! +
      checks.credits_not_in_window! +
      checks.level_not_supported! +
      checks.level_not_last_move! ===
      0;
  if (!checked) ctx.note(`tiers: engine variant check failed: ${JSON.stringify(checks)}`);
  const ratio = tiered.perSec / bare;
  ctx.print({
    suite: 'tiers',
    scenario: 'engine_rolling_programme',
    events: ENGINE_EVENTS,
    participants: Math.round(ENGINE_EVENTS / 10),
    programme: ENGINE_PROGRAMME,
    events_per_sec: round(tiered.perSec),
    events_per_sec_without: round(plain.perSec),
    baseline_jobs_per_sec: round(bare),
    ratio_vs_baseline: round(ratio, 3),
    ratio_vs_baseline_without: round(plain.perSec / bare, 3),
    target_ratio: TARGET.engineRatio,
    meets_target: ratio >= TARGET.engineRatio,
    checks,
  });
  return plain.ok && tiered.ok && checked;
}

export const tiersSuite: Suite = {
  name: 'tiers',
  async run(ctx) {
    const pool = new pg.Pool({ connectionString: ctx.db.url, max: 4 });
    try {
      let ok = true;
      if (PARTS.has('read') || PARTS.has('preview') || PARTS.has('change')) {
        const ws = await workspace(ctx, pool, `tiers-${ctx.runId}`);
        // The programme first, on an empty workspace (nothing to walk); the load then writes the
        // standings it gives.
        await call(ctx, ws.key, 'PUT', '/v1/tiers', programme(THRESHOLDS.gold));
        if ((await applied(pool, ws.id, 60)) === null) throw new Error('the tier programme was not applied');
        ctx.note(`tiers: loading ${PARTICIPANTS} participants (workspace ${ws.slug})`);
        await load(ctx, pool, ws.id);
        const upgrades = expectedUpgrades();
        if (PARTS.has('read')) ok = (await read(ctx, ws.key)) && ok;
        if (PARTS.has('preview')) ok = (await preview(ctx, ws.key, upgrades)) && ok;
        if (PARTS.has('change')) ok = (await change(ctx, pool, ws, upgrades)) && ok;
      }
      if (PARTS.has('engine')) {
        await pool.query('checkpoint');
        ok = (await engine(ctx, pool)) && ok;
      }
      return ok;
    } finally {
      await pool.end();
    }
  },
};
