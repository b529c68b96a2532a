/**
 * The `engine` suite's referral part (docs/referrals.md): what a referral programme costs the
 * engine. Two scenarios, each in workspaces of its own, after the suite's own figures:
 *
 *  1. programme, no codes: the suite's throughput run (bench/engine.ts: BENCH_ENGINE_EVENTS events
 *     over a tenth as many participants, points and a badge per event) in a workspace without a
 *     referral programme and in one with a programme whose qualifying type is the load's own, so
 *     every batch reads its participants' pending referrals (none) with the batch's programme read;
 *     the events carry no code. Four runs, off / on / on / off, so a slower database later in the
 *     run weighs on both alike; the ratio of the means (on / off). Target ≥ 0.95: no measurable
 *     cost.
 *  2. codes: BENCH_ENGINE_REFERRAL_FRIENDS (10,000) new participants, each with a sign-up (no
 *     flow) and an event of the qualifying type (points and a badge), committed with the
 *     participants so each sign-up creates its participant as ingest would; once without codes,
 *     then with each sign-up carrying one of BENCH_ENGINE_REFERRAL_ADVOCATES (100) advocates'
 *     codes (read from the API), so every friend is attributed and qualified: the code lookup
 *     (its code rows locked only under an advocate limit: this programme sets none), the referral rows, the friend's credit, badge and
 *     `referral.qualified` in the engine's batch. events/s with codes against without, and the
 *     seconds until the service's referral job has written every advocate's grant (hold P1D).
 *
 * Correctness: (1) the throughput run's own checks, and no referral in either workspace; (2)
 * every event processed; without codes, no referral; with codes, one qualified referral per
 * friend, each with one friend credit, one `referral.qualified`, the friend's badge, and in the
 * end one pending grant to its advocate (each advocate's pending points = their friends × the
 * advocate's points).
 */
import pg from 'pg';
import { PgBoss } from 'pg-boss';
import { v7 as uuidv7 } from 'uuid';
import { createBenchFlow, N as ENGINE_EVENTS, throughput } from './engine.ts';
import { runCli } from './processes.ts';
import type { SuiteContext } from './suites.ts';

const TARGET = { programmeRatio: 0.95 };
const FRIEND_POINTS = 10;
const ADVOCATE_POINTS = 25;

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
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

/** A workspace of the part's own with a full-access test key. */
async function workspace(ctx: SuiteContext, pool: pg.Pool, slug: string) {
  const ws = await runCli(['workspace', 'create', slug, '--name', slug], ctx.env);
  const key = await runCli(['keys', 'create', '--workspace', String(ws.slug), '--mode', 'test'], ctx.env);
  const { rows } = await pool.query<{ id: string }>('select id from workspaces where slug = $1', [ws.slug]);
  return { id: rows[0]!.id, key: String(key.key) };
}

/** The programme of the `on` workspace: `type` qualifies; points and a badge on each side. */
const programme = (type: string) => ({
  qualifying_event_type: type,
  qualify_within: 'P30D',
  hold: 'P1D',
  friend_actions: [
    { type: 'award_points', points: FRIEND_POINTS },
    { type: 'award_badge', badge: 'referred' },
  ],
  advocate_actions: [
    { type: 'award_points', points: ADVOCATE_POINTS },
    { type: 'award_badge', badge: 'ambassador' },
  ],
});

const analyze = (pool: pg.Pool) =>
  pool.query(
    'analyze events, participants, ledger_entries, point_lots, flow_runs, participant_badges, participant_event_counts, outbox, referrals, referral_codes',
  );

/** Scenario 1: the throughput run without and with a programme (no codes); false when a check failed. */
async function programmeNoCodes(ctx: SuiteContext, pool: pg.Pool, bare: number): Promise<boolean> {
  const off = await workspace(ctx, pool, `ref-off-${ctx.runId}`);
  const on = await workspace(ctx, pool, `ref-on-${ctx.runId}`);
  const offType = `bench.ref.off.${ctx.runId}`;
  const onType = `bench.ref.on.${ctx.runId}`;
  await createBenchFlow({ ...ctx, apiKey: off.key }, offType);
  await createBenchFlow({ ...ctx, apiKey: on.key }, onType);
  await call(ctx, on.key, 'PUT', '/v1/referrals/program', programme(onType));
  const runs: { with: boolean; perSec: number; ok: boolean }[] = [];
  for (const [i, withProgramme] of [false, true, true, false].entries()) {
    await analyze(pool);
    ctx.note(
      `engine: referrals, ${ENGINE_EVENTS} events without codes, ${withProgramme ? 'with' : 'without'} a programme (${i + 1}/4)`,
    );
    const ws = withProgramme ? on : off;
    const r = await throughput(
      { ...ctx, apiKey: ws.key },
      ws.id,
      withProgramme ? onType : offType,
      `ref${i}`,
    );
    runs.push({ with: withProgramme, ...r });
  }
  const { rows } = await pool.query<{ n: string }>(
    'select count(*) n from referrals where workspace_id = any($1::uuid[])',
    [[off.id, on.id]],
  );
  const without = mean(runs.filter((r) => !r.with).map((r) => r.perSec));
  const withIt = mean(runs.filter((r) => r.with).map((r) => r.perSec));
  const ok = runs.every((r) => r.ok) && Number(rows[0]!.n) === 0;
  const ratio = withIt / without;
  ctx.print({
    suite: 'engine',
    scenario: 'referral_programme_no_codes',
    events: ENGINE_EVENTS,
    participants: Math.round(ENGINE_EVENTS / 10),
    runs: runs.map((r) => ({ programme: r.with, events_per_sec: round(r.perSec) })),
    events_per_sec_without: round(without),
    events_per_sec_with: round(withIt),
    ratio_with_vs_without: round(ratio, 3),
    ratio_vs_baseline: round(withIt / bare, 3),
    ratio_vs_baseline_without: round(without / bare, 3),
    referrals_made: Number(rows[0]!.n),
    target_ratio: TARGET.programmeRatio,
    meets_target: ratio >= TARGET.programmeRatio,
  });
  if (!ok)
    ctx.note(
      `engine: referral programme check failed: ${rows[0]!.n} referrals, runs ${JSON.stringify(runs)}`,
    );
  return ok;
}

/**
 * `friends` new participants `<tag>-<n>` and their events, committed together (so each sign-up
 * created its participant, as ingest leaves it): a sign-up of `signupType` (carrying advocate
 * `n mod codes.length`'s code when `codes` is given), then one of `orderType`; processed by the
 * service's worker. events/s from the jobs' commit until the last job is done.
 */
async function friendsRun(
  ctx: SuiteContext,
  pool: pg.Pool,
  opts: {
    workspaceId: string;
    tag: string;
    friends: number;
    signupType: string;
    orderType: string;
    codes?: string[];
  },
): Promise<number> {
  const { workspaceId, tag, friends, signupType, orderType, codes } = opts;
  const signups = Array.from({ length: friends }, () => uuidv7());
  const orders = Array.from({ length: friends }, () => uuidv7());
  const boss = new PgBoss({
    connectionString: ctx.db.url,
    schema: 'pgboss',
    supervise: false,
    schedule: false,
  });
  boss.on('error', () => {});
  await boss.start();
  const c = await pool.connect();
  try {
    await c.query('begin');
    const { rows: ps } = await c.query<{ id: string; external_id: string }>(
      `insert into participants (workspace_id, mode, external_id)
       select $1, 'test', $2 || '-' || g from generate_series(0, $3 - 1) g returning id, external_id`,
      [workspaceId, tag, friends],
    );
    const ids = ps.map((p) => p.id);
    const ext = ps.map((p) => p.external_id);
    const insert = (eventIds: string[], type: string, referral: (string | null)[]) =>
      c.query(
        `insert into events (id, workspace_id, mode, event_type, participant_id, external_id, payload, occurred_at,
                             status, source, referral_code)
         select id, $1, 'test', $2, pid, ext, jsonb_build_object('total', 10), date_trunc('milliseconds', now()),
                'received', 'api', code
           from unnest($3::uuid[], $4::bigint[], $5::text[], $6::text[]) x(id, pid, ext, code)`,
        [workspaceId, type, eventIds, ids, ext, referral],
      );
    await insert(
      signups,
      signupType,
      codes ? ids.map((_, i) => codes[i % codes.length]!) : ids.map(() => null),
    );
    await insert(
      orders,
      orderType,
      ids.map(() => null),
    );
    await c.query('commit');
    await c.query('analyze events');
    await c.query('analyze participants');
    // The sign-ups' jobs before the orders', 100 events each, like full ingest batches.
    const all = [...signups, ...orders];
    const jobs = [];
    for (let i = 0; i < all.length; i += 100)
      jobs.push({ id: uuidv7(), data: { eventIds: all.slice(i, i + 100) } });
    const t0 = performance.now();
    await c.query('begin');
    await boss.insert('events.process', jobs, {
      db: { executeSql: (text, values) => c.query(text, values) },
    });
    await c.query('commit');
    await c.query('analyze pgboss.job_common');
    const jobIds = jobs.map((j) => j.id);
    const deadline = Date.now() + 300_000;
    for (;;) {
      const { rows } = await c.query<{ n: string }>(
        `select count(*) n from pgboss.job where name = 'events.process' and id = any($1::uuid[]) and state < 'completed'`,
        [jobIds],
      );
      if (Number(rows[0]!.n) === 0) break;
      if (Date.now() > deadline) throw new Error(`${rows[0]!.n} jobs still to run after 300 s`);
      await sleep(100);
    }
    return all.length / ((performance.now() - t0) / 1000);
  } finally {
    c.release();
    await boss.stop();
  }
}

/** Scenario 2: friends signing up without, then with, advocates' codes; false when a check failed. */
async function codes(ctx: SuiteContext, pool: pg.Pool, bare: number): Promise<boolean> {
  const friends = Math.max(100, Number(process.env.BENCH_ENGINE_REFERRAL_FRIENDS ?? 10_000));
  const advocates = Math.max(1, Number(process.env.BENCH_ENGINE_REFERRAL_ADVOCATES ?? 100));
  const ws = await workspace(ctx, pool, `ref-codes-${ctx.runId}`);
  const signupType = `bench.ref.signup.${ctx.runId}`;
  const orderType = `bench.ref.order.${ctx.runId}`;
  await createBenchFlow({ ...ctx, apiKey: ws.key }, orderType);
  await call(ctx, ws.key, 'PUT', '/v1/referrals/program', programme(orderType));
  // The advocates, and their codes as the API makes them on the first read.
  await pool.query(
    `insert into participants (workspace_id, mode, external_id)
     select $1, 'test', 'adv-' || g from generate_series(0, $2 - 1) g`,
    [ws.id, advocates],
  );
  const codes: string[] = [];
  for (let a = 0; a < advocates; a++)
    codes.push(String((await call(ctx, ws.key, 'GET', `/v1/participants/adv-${a}/referral-code`)).code));
  const run = { workspaceId: ws.id, friends, signupType, orderType };

  await analyze(pool);
  ctx.note(`engine: referrals, ${friends} new participants signing up without a code, then buying`);
  const without = await friendsRun(ctx, pool, { ...run, tag: `nocode-${ctx.runId}` });
  await analyze(pool);
  ctx.note(
    `engine: referrals, ${friends} friends signing up with ${advocates} advocates' codes, then qualifying`,
  );
  const t0 = Date.now();
  const withCodes = await friendsRun(ctx, pool, { ...run, tag: `code-${ctx.runId}`, codes });
  // The referral job (the service's loyalty tick, every second) writes each advocate's grant.
  const deadline = Date.now() + 300_000;
  let grantsWrittenS: number | null = null;
  for (;;) {
    const { rows } = await pool.query<{ n: string }>(
      `select count(*) n from referrals where workspace_id = $1 and grant_ids is null`,
      [ws.id],
    );
    if (Number(rows[0]!.n) === 0) {
      grantsWrittenS = (Date.now() - t0) / 1000;
      break;
    }
    if (Date.now() > deadline) break;
    await sleep(200);
  }
  const { rows } = await pool.query<Record<string, string>>(
    `with f as (select id, external_id from participants where workspace_id = $1 and external_id like $2),
     n as (select id from participants where workspace_id = $1 and external_id like $3),
     r as (select r.* from referrals r where r.workspace_id = $1)
     select (select count(*) from events where workspace_id = $1 and status <> 'processed') as not_processed,
            (select count(*) from r where friend_id in (select id from n)) as referrals_without_codes,
            (select count(*) from r where friend_id in (select id from f) and status = 'qualified') as qualified,
            (select count(*) from ledger_entries l where l.workspace_id = $1 and l.reference like 'referral:%'
               and l.idempotency_key = l.reference || ':friend:0' and l.points = $4) as friend_credits,
            (select count(*) from outbox where workspace_id = $1 and type = 'referral.qualified') as qualified_results,
            (select count(*) from participant_badges h join badges b on b.id = h.badge_id
              where h.workspace_id = $1 and b.key = 'referred') as friend_badges,
            (select count(*) from pending_grants g join r on g.idempotency_key = 'referral:' || r.id || ':advocate'
              where g.status = 'pending' and g.participant_id = r.advocate_id and g.points = $5) as advocate_grants,
            (select coalesce(sum(pending_points), 0) from participants where workspace_id = $1 and external_id like 'adv-%')
              as advocate_pending_points`,
    [ws.id, `code-${ctx.runId}-%`, `nocode-${ctx.runId}-%`, FRIEND_POINTS, ADVOCATE_POINTS],
  );
  const checks = counts(rows[0]!);
  const ok =
    checks.not_processed === 0 &&
    checks.referrals_without_codes === 0 &&
    checks.qualified === friends &&
    checks.friend_credits === friends &&
    checks.qualified_results === friends &&
    checks.friend_badges === friends &&
    checks.advocate_grants === friends &&
    checks.advocate_pending_points === friends * ADVOCATE_POINTS;
  if (!ok)
    ctx.note(`engine: referral codes check failed: ${JSON.stringify(checks)} (expected ${friends} friends)`);
  const events = 2 * friends;
  ctx.print({
    suite: 'engine',
    scenario: 'referral_codes',
    friends,
    advocates,
    events,
    events_per_sec_without_codes: round(without),
    events_per_sec_with_codes: round(withCodes),
    ratio_with_vs_without: round(withCodes / without, 3),
    ratio_vs_baseline_with_codes: round(withCodes / bare, 3),
    // The engine's extra time per referral (attributed and qualified), from the two rates.
    extra_ms_per_referral: round(((events / withCodes - events / without) * 1000) / friends, 3),
    grants_written_s: grantsWrittenS === null ? null : round(grantsWrittenS),
    checks,
  });
  return ok;
}

/** Both scenarios (after the suite's own figures); `bare`: the suite's bare pg-boss loop, jobs/s. */
export async function referralParts(ctx: SuiteContext, bare: number): Promise<boolean> {
  const pool = new pg.Pool({ connectionString: ctx.db.url, max: 4 });
  try {
    const noCodes = await programmeNoCodes(ctx, pool, bare);
    const withCodes = await codes(ctx, pool, bare);
    return noCodes && withCodes;
  } finally {
    await pool.end();
  }
}
