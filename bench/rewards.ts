/**
 * Suite `rewards`: redemption throughput and the code pool at scale.
 *
 *   - uncontended: POST /v1/redemptions by BENCH_RW_PARTICIPANTS (5,000) participants over
 *     BENCH_RW_REWARDS (200) physical rewards with counted stock (autocannon, BENCH_RW_CONNECTIONS
 *     = 32, BENCH_DURATION s), against a baseline in the same run (bench/rewards-baseline.ts:
 *     node:http + pg, the same two conditional UPDATEs and one INSERT in a bare transaction, on
 *     the same tables). Target ≥ 0.6× the baseline's redemptions/s.
 *   - contended: 500 concurrent redemptions of one voucher reward holding 100 codes (500
 *     participants, all able to pay). All must finish, exactly 100 fulfilled, no code twice;
 *     target p99 < 500 ms. Printed beside it: the p50/p99 of 500 concurrent GET /healthz on the
 *     same keep-alive sockets, the floor this machine puts under any 500-way burst.
 *   - import: 100,000 codes as one text/plain body to POST /v1/rewards/{id}/codes, and
 *     generation of 100,000 codes. Target < 5 s each.
 * BENCH_RW_PARTS=contended (or any comma-separated subset of uncontended,contended,import) runs
 * only those parts.
 * Correctness: 201s = redemption rows, every service participant's balance = its ledger sum = its
 * open lots. The `points` suite runs the uncontended part again with 20 open lots per participant.
 */
import autocannon, { type Request, type Result } from 'autocannon';
import pg from 'pg';
import { startServerProcess } from './processes.ts';
import type { Suite, SuiteContext } from './suites.ts';

const PARTICIPANTS = Number(process.env.BENCH_RW_PARTICIPANTS ?? 5_000);
const REWARDS = Number(process.env.BENCH_RW_REWARDS ?? 200);
const CONNECTIONS = Number(process.env.BENCH_RW_CONNECTIONS ?? 32);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP_S = Number(process.env.BENCH_WARMUP ?? 3);
const CONTENDED = 500;
const CONTENDED_CODES = 100;
const IMPORT_CODES = 100_000;
const TARGET = { ratio: 0.6, contendedP99Ms: 500, importS: 5 };
/** BENCH_RW_PARTS: a comma-separated subset of `uncontended,contended,import` (default: all three). */
const PARTS = new Set((process.env.BENCH_RW_PARTS ?? 'uncontended,contended,import').split(','));

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const pick = (n: number) => Math.floor(Math.random() * n);

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

/**
 * Open lots each service participant of a redemption run holds: one never-expiring lot (the
 * `rewards` suite), or several, each a credit of its own expiring a month after the one before
 * (the `points` suite), all far beyond the notice horizon so no `points.expiring` runs meanwhile.
 */
export interface RedeemRun {
  /** The `suite` and `scenario` of the printed lines. */
  suite: string;
  scenario: string;
  /** Keeps a run's participants and rewards apart from another run's in the same database. */
  tag: string;
  lots: number;
  /** The least redemptions/s against the bare transaction's. */
  targetRatio: number;
}

async function load(pool: pg.Pool, workspaceId: string, run: RedeemRun) {
  // Service participants get their points through ledger entries (balance = ledger sum holds);
  // the ledger's trigger opens a lot per credit.
  await pool.query(
    `with p as (
       insert into participants (workspace_id, mode, external_id, balance)
       select $1, 'test', 'rw' || $3 || '-' || g, 1000000000 from generate_series(0, $2::int - 1) g
       returning id, balance)
     insert into ledger_entries (workspace_id, mode, participant_id, points, balance_after, source, reason, expires_at)
     select $1, 'test', id, balance / $4::int, balance / $4::int * (k + 1), 'adjustment', 'bench funding',
            case when $4::int = 1 then null else now() + (k + 1) * interval '1 month' end
       from p, generate_series(0, $4::int - 1) k order by p.id, k`,
    [workspaceId, PARTICIPANTS, run.tag, run.lots],
  );
  await pool.query(
    `insert into participants (workspace_id, mode, external_id, balance)
     select $1, 'test', 'rb' || $3 || '-' || g, 1000000000 from generate_series(0, $2::int - 1) g`,
    [workspaceId, PARTICIPANTS, run.tag],
  );
  const rewards = await pool.query<{ id: string; cost_points: string; name: string }>(
    `insert into rewards (workspace_id, mode, name, type, cost_points, stock, stock_remaining)
     select $1, 'test', 'bench' || $3 || '-' || kind || '-' || g, 'physical', 1 + g % 50, 100000000, 100000000
       from generate_series(0, $2::int - 1) g, (values ('svc'), ('base')) k(kind)
     returning id, cost_points, name`,
    [workspaceId, REWARDS, run.tag],
  );
  for (const t of ['participants', 'rewards', 'ledger_entries', 'redemptions', 'reward_codes', 'point_lots'])
    await pool.query(`analyze ${t}`);
  const of = (kind: string) =>
    rewards.rows
      .filter((r) => r.name.startsWith(`bench${run.tag}-${kind}-`))
      .map((r) => ({ id: Number(r.id), cost: Number(r.cost_points) }));
  return { service: of('svc'), baseline: of('base') };
}

const REDEEM_UNCONTENDED: RedeemRun = {
  suite: 'rewards',
  scenario: 'redeem_uncontended',
  tag: '',
  lots: 1,
  targetRatio: TARGET.ratio,
};

/**
 * Uncontended redemptions by the service and by the bare transaction (bench/rewards-baseline.ts),
 * one after the other in this run; prints a line for each. Correctness: 201s = redemption rows,
 * every service participant's balance = its ledger sum = its open lots.
 */
export async function uncontended(
  ctx: SuiteContext,
  pool: pg.Pool,
  workspaceId: string,
  run: RedeemRun = REDEEM_UNCONTENDED,
): Promise<boolean> {
  const rewards = await load(pool, workspaceId, run);
  const baseline = await startServerProcess(
    'rewards-baseline',
    ['bench/rewards-baseline.ts'],
    { DATABASE_URL: ctx.db.url, BASELINE_POOL_MAX: '12' },
    '/readyz',
  );
  try {
    const service: Request[] = [
      {
        method: 'POST',
        path: '/v1/redemptions',
        headers: { authorization: `Bearer ${ctx.apiKey}`, 'content-type': 'application/json' },
        setupRequest: (req) => ({
          ...req,
          body: JSON.stringify({
            participant: `rw${run.tag}-${pick(PARTICIPANTS)}`,
            reward_id: rewards.service[pick(rewards.service.length)]!.id,
          }),
        }),
      },
    ];
    const bare: Request[] = [
      {
        method: 'POST',
        path: '/redeem',
        headers: { 'content-type': 'application/json' },
        setupRequest: (req) => {
          const r = rewards.baseline[pick(rewards.baseline.length)]!;
          return {
            ...req,
            body: JSON.stringify({
              workspace_id: workspaceId,
              participant: `rb${run.tag}-${pick(PARTICIPANTS)}`,
              reward_id: r.id,
              cost: r.cost,
            }),
          };
        },
      },
    ];
    await drive(ctx.service.url, service, WARMUP_S);
    await drive(baseline.url, bare, WARMUP_S);
    const serviceRows = async () =>
      Number(
        (
          await pool.query<{ n: string }>(
            `select count(*) as n from redemptions x join rewards r on r.id = x.reward_id where r.name like $1`,
            [`bench${run.tag}-svc-%`],
          )
        ).rows[0]!.n,
      );
    const warmRows = await serviceRows();
    const svc = await drive(ctx.service.url, service, DURATION_S);
    const base = await drive(baseline.url, bare, DURATION_S);
    const stored = (await serviceRows()) - warmRows;
    const mismatches = await pool.query<{ n: string; lots: string }>(
      `select count(*) filter (where balance <> ledger or balance <> lots) as n, coalesce(sum(open), 0) as lots from (
         select p.balance,
                (select coalesce(sum(l.points), 0) from ledger_entries l where l.participant_id = p.id) as ledger,
                (select coalesce(sum(o.remaining), 0) from point_lots o where o.participant_id = p.id) as lots,
                (select count(*) from point_lots o where o.participant_id = p.id and o.remaining > 0) as open
           from participants p where p.workspace_id = $1 and p.external_id like $2) m`,
      [workspaceId, `rw${run.tag}-%`],
    );
    const ratio = svc.requests.average / base.requests.average;
    const ok2xx = svc['2xx'];
    // Requests still in flight when autocannon stops commit without being counted: rows ≥ 2xx.
    const consistent =
      stored >= ok2xx && stored <= ok2xx + CONNECTIONS && Number(mismatches.rows[0]!.n) === 0;
    for (const [target, r] of [
      ['service', svc],
      ['baseline', base],
    ] as const)
      ctx.print({
        suite: run.suite,
        scenario: run.scenario,
        target,
        participants: PARTICIPANTS,
        ...(target === 'service' ? { open_lots_per_participant: run.lots } : {}),
        rewards: REWARDS,
        connections: CONNECTIONS,
        duration_s: DURATION_S,
        redemptions_per_sec: round(r.requests.average),
        p50_ms: r.latency.p50,
        p99_ms: r.latency.p99,
        non_2xx: r.non2xx,
        errors: r.errors,
        ...(target === 'service'
          ? {
              ratio_vs_baseline: round(ratio, 3),
              target_ratio: run.targetRatio,
              meets_target: ratio >= run.targetRatio,
              responses_2xx: ok2xx,
              stored_rows: stored,
              balances_equal_ledger_and_lots: Number(mismatches.rows[0]!.n) === 0,
              open_lots_after: Number(mismatches.rows[0]!.lots),
            }
          : {}),
      });
    return consistent && svc.non2xx === 0 && svc.errors === 0;
  } finally {
    await baseline.stop();
  }
}

async function api(ctx: SuiteContext, path: string, init: { body?: string; contentType?: string } = {}) {
  const res = await fetch(`${ctx.service.url}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${ctx.apiKey}`,
      'content-type': init.contentType ?? 'application/json',
    },
    body: init.body,
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

async function contended(ctx: SuiteContext, pool: pg.Pool, workspaceId: string): Promise<boolean> {
  const reward = await api(ctx, '/v1/rewards', {
    body: JSON.stringify({ name: `bench-hot-${ctx.runId}`, type: 'voucher_code', cost_points: 10 }),
  });
  await api(ctx, `/v1/rewards/${reward.body.id}/codes/generate`, {
    body: JSON.stringify({ count: CONTENDED_CODES }),
  });
  await pool.query(
    `with p as (
       insert into participants (workspace_id, mode, external_id, balance)
       select $1, 'test', 'rc-' || g, 100 from generate_series(0, $2::int - 1) g returning id, balance)
     insert into ledger_entries (workspace_id, mode, participant_id, points, balance_after, source, reason)
     select $1, 'test', id, balance, balance, 'adjustment', 'bench funding' from p`,
    [workspaceId, CONTENDED],
  );
  // The floor on this machine: 500 concurrent requests that touch nothing (GET /healthz). The
  // first round opens the sockets (reused below, as a client's keep-alive pool would be).
  const healthz = async () => {
    const ms = await Promise.all(
      Array.from({ length: CONTENDED }, async () => {
        const t = performance.now();
        await (await fetch(`${ctx.service.url}/healthz`)).arrayBuffer();
        return performance.now() - t;
      }),
    );
    return ms.sort((a, b) => a - b);
  };
  await healthz();
  const floor = await healthz();
  const started = performance.now();
  const results = await Promise.all(
    Array.from({ length: CONTENDED }, async (_, i) => {
      const t = performance.now();
      const r = await api(ctx, '/v1/redemptions', {
        body: JSON.stringify({ participant: `rc-${i}`, reward_id: reward.body.id }),
      }).catch(() => ({ status: 0, body: {} as Record<string, any> }));
      return { ...r, ms: performance.now() - t };
    }),
  );
  const wallMs = performance.now() - started;
  const latencies = results.map((r) => r.ms).sort((a, b) => a - b);
  const p = (q: number) =>
    round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!);
  const fulfilled = results.filter((r) => r.status === 201);
  const outOfStock = results.filter((r) => r.status === 422 && r.body.error?.type === 'out_of_stock').length;
  const codes = new Set(fulfilled.map((r) => r.body.fulfilment?.code));
  const finished = fulfilled.length + outOfStock === CONTENDED;
  ctx.print({
    suite: 'rewards',
    scenario: 'redeem_contended_voucher',
    concurrent: CONTENDED,
    codes: CONTENDED_CODES,
    fulfilled: fulfilled.length,
    out_of_stock: outOfStock,
    other: CONTENDED - fulfilled.length - outOfStock,
    distinct_codes: codes.size,
    wall_ms: round(wallMs),
    p50_ms: p(0.5),
    p99_ms: p(0.99),
    max_ms: round(latencies.at(-1)!),
    target_p99_ms: TARGET.contendedP99Ms,
    meets_target: p(0.99) < TARGET.contendedP99Ms,
    healthz_floor_p50_ms: round(floor[Math.floor(0.5 * CONTENDED)]!),
    healthz_floor_p99_ms: round(floor[Math.floor(0.99 * CONTENDED)]!),
  });
  return finished && fulfilled.length === CONTENDED_CODES && codes.size === CONTENDED_CODES;
}

async function imports(ctx: SuiteContext): Promise<boolean> {
  const suffix = Math.random().toString(36).slice(2, 10).toUpperCase();
  const text = `${Array.from({ length: IMPORT_CODES }, (_, i) => `IMP-${suffix}-${i.toString(36).toUpperCase()}`).join('\n')}\n`;
  const target = await api(ctx, '/v1/rewards', {
    body: JSON.stringify({ name: `bench-import-${ctx.runId}`, type: 'voucher_code', cost_points: 1 }),
  });
  let t = performance.now();
  const imported = await api(ctx, `/v1/rewards/${target.body.id}/codes`, {
    body: text,
    contentType: 'text/plain',
  });
  const importS = (performance.now() - t) / 1000;
  const gen = await api(ctx, '/v1/rewards', {
    body: JSON.stringify({ name: `bench-generate-${ctx.runId}`, type: 'voucher_code', cost_points: 1 }),
  });
  t = performance.now();
  const generated = await api(ctx, `/v1/rewards/${gen.body.id}/codes/generate`, {
    body: JSON.stringify({ count: IMPORT_CODES, prefix: 'GEN-' }),
  });
  const generateS = (performance.now() - t) / 1000;
  ctx.print({
    suite: 'rewards',
    scenario: 'codes_import_text',
    codes: IMPORT_CODES,
    body_bytes: Buffer.byteLength(text),
    seconds: round(importS, 2),
    imported: imported.body.imported,
    target_s: TARGET.importS,
    meets_target: importS < TARGET.importS,
  });
  ctx.print({
    suite: 'rewards',
    scenario: 'codes_generate',
    codes: IMPORT_CODES,
    seconds: round(generateS, 2),
    generated: generated.body.generated,
    target_s: TARGET.importS,
    meets_target: generateS < TARGET.importS,
  });
  return imported.body.imported === IMPORT_CODES && generated.body.generated === IMPORT_CODES;
}

export const rewardsSuite: Suite = {
  name: 'rewards',
  async run(ctx) {
    const pool = new pg.Pool({ connectionString: ctx.db.url, max: 4 });
    try {
      const { rows } = await pool.query<{ id: string }>('select id from workspaces where slug = $1', [
        ctx.workspaceSlug,
      ]);
      const workspaceId = rows[0]!.id;
      let ok = true;
      if (PARTS.has('uncontended')) ok = (await uncontended(ctx, pool, workspaceId)) && ok;
      if (PARTS.has('contended')) ok = (await contended(ctx, pool, workspaceId)) && ok;
      if (PARTS.has('import')) ok = (await imports(ctx)) && ok;
      return ok;
    } finally {
      await pool.end();
    }
  },
};
