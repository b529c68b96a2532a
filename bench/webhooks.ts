/**
 * Suite `webhooks`: delivery throughput and latency of the real service against a bare sender.
 *
 * Burst: 10 live subscriptions (the live key's workspace) to a local receiver that answers 200 at
 * once; RESULTS results committed in one transaction (emitResult, as the engine does) fan out to
 * RESULTS × 10 deliveries; deliveries/s from the commit to the last one received. Baseline in
 * the same run: the same number of signed POSTs (same body shape, HMAC per request) from a bare
 * undici loop (keep-alive Agent) at the service's delivery concurrency, to the same receiver,
 * right before and right after the service's run. Target ≥ 0.5×.
 *
 * Steady: results committed one per transaction at STEADY_RATE/s for BENCH_DURATION seconds,
 * first to one subscription (200 deliveries/s), then to all ten (2,000 deliveries/s);
 * outbox-to-received latency p50/p99 (receiver clock minus the body's `created_at`). Target
 * p50 < 200 ms at 200 results/s.
 *
 * Env: BENCH_WEBHOOK_RESULTS (1000), BENCH_WEBHOOK_STEADY_RATE (200), BENCH_DURATION (10 s).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import pg from 'pg';
import { Agent, request } from 'undici';
import { v7 as uuidv7 } from 'uuid';
import { withTransaction } from '../src/db/tx.ts';
import { signPayload } from '../src/lib/secrets.ts';
import { emitResult, emitResults } from '../src/services/outbox/emit.ts';
import { ROOT } from './processes.ts';
import type { Suite, SuiteContext } from './suites.ts';

export const SUBSCRIPTIONS = 10;
export const RESULTS = Number(process.env.BENCH_WEBHOOK_RESULTS ?? 1000);
const STEADY_RATE = Number(process.env.BENCH_WEBHOOK_STEADY_RATE ?? 200);
const STEADY_S = Number(process.env.BENCH_DURATION ?? 10);
export const SECRET = 'whsec_bench_receiver_secret_0123456789';
const TARGET = { ratio: 0.5, p50Ms: 200 };

export interface Stats {
  count: number;
  bad: number;
  unique: number;
  p50: number | null;
  p99: number | null;
  max: number | null;
  /** Deliveries by how many of the receiver's secrets signed them (bench/webhooks-receiver.ts). */
  signed_by: Record<string, number>;
}

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The receiver (bench/webhooks-receiver.ts), accepting signatures by any of `secrets`. */
export async function startReceiver(secrets = [SECRET]): Promise<{ url: string; proc: ChildProcess }> {
  const proc = spawn(process.execPath, ['bench/webhooks-receiver.ts'], {
    cwd: ROOT,
    env: { ...process.env, RECEIVER_SECRETS: secrets.join(',') },
    stdio: ['ignore', 'pipe', 2],
  });
  const port = await new Promise<string>((resolve, reject) => {
    proc.once('exit', (code) => reject(new Error(`receiver exited (${code})`)));
    proc.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim()));
  });
  return { url: `http://127.0.0.1:${port}`, proc };
}

export const stats = async (url: string): Promise<Stats> =>
  (await fetch(`${url}/__stats`)).json() as Promise<Stats>;
export const reset = (url: string) => fetch(`${url}/__reset`, { method: 'POST' }).then((r) => r.text());

export async function waitForCount(url: string, n: number, timeoutMs: number): Promise<Stats> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const s = await stats(url);
    if (s.count >= n || Date.now() > deadline) return s;
    await sleep(20);
  }
}

/** The baseline: `n` signed POSTs from `concurrency` loops over one keep-alive undici Agent. */
export async function bareSender(
  url: string,
  n: number,
  concurrency: number,
  tenant: string,
): Promise<number> {
  const agent = new Agent({ connections: concurrency });
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const i = next++;
        const id = uuidv7();
        const body = JSON.stringify({
          id,
          type: 'points.changed',
          tenant,
          created_at: new Date().toISOString(),
          data: { participant: { external_id: `p-${i % 100}` }, i },
        });
        const res = await request(`${url}/s${i % SUBSCRIPTIONS}`, {
          method: 'POST',
          dispatcher: agent,
          headers: {
            'content-type': 'application/json',
            'x-svc-delivery-id': id,
            'x-svc-event-type': 'points.changed',
            'x-svc-signature': signPayload(SECRET, body),
          },
          body,
        });
        await res.body.text();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await agent.close();
  return n / seconds;
}

/**
 * The burst: RESULTS results committed in one transaction (emitResults, as the engine emits them)
 * fan out to every active subscription of the workspace's live mode; waits until the receiver has
 * `RESULTS × active` of them (at most 120 s). Answers deliveries/s from the commit to the last one
 * received, what the receiver counted, and how many of these deliveries the log marks `succeeded`
 * (the receiver can be ahead of the log by the last batch of outcomes: waited for, 30 s at most).
 */
export async function runBurst(
  pool: pg.Pool,
  receiverUrl: string,
  workspaceId: string,
  active = SUBSCRIPTIONS,
): Promise<{ rate: number; received: Stats; succeeded: number }> {
  const total = RESULTS * active;
  const outboxIds = await withTransaction(pool, (sql) =>
    emitResults(
      sql,
      Array.from({ length: RESULTS }, (_, i) => ({
        workspaceId,
        mode: 'live' as const,
        type: 'points.changed' as const,
        data: { participant: { external_id: `p-${i % 100}` }, i },
      })),
    ),
  );
  const t0 = performance.now();
  const received = await waitForCount(receiverUrl, total, 120_000);
  const rate = received.count / ((performance.now() - t0) / 1000);
  const succeededCount = async () =>
    (
      await pool.query<{ n: number }>(
        `select count(*)::int as n from webhook_deliveries where outbox_id = any($1::uuid[]) and status = 'succeeded'`,
        [outboxIds],
      )
    ).rows[0]!.n;
  let succeeded = await succeededCount();
  for (const deadline = Date.now() + 30_000; succeeded < total && Date.now() < deadline; ) {
    await sleep(100);
    succeeded = await succeededCount();
  }
  return { rate, received, succeeded };
}

async function run(ctx: SuiteContext): Promise<boolean> {
  const receiver = await startReceiver();
  const pool = new pg.Pool({ connectionString: ctx.db.url, max: 8 });
  const subs: string[] = [];
  const api = (path: string, init: { method?: string; body?: unknown } = {}) =>
    fetch(`${ctx.service.url}${path}`, {
      method: init.method ?? (init.body ? 'POST' : 'GET'),
      headers: { authorization: `Bearer ${ctx.liveKey}`, 'content-type': 'application/json' },
      body: init.body ? JSON.stringify(init.body) : undefined,
    });
  let ok = true;
  try {
    const { rows } = await pool.query<{ id: string }>('select id from workspaces where slug = $1', [
      ctx.workspaceSlug,
    ]);
    const workspaceId = rows[0]!.id;
    for (let i = 0; i < SUBSCRIPTIONS; i++) {
      const res = await api('/v1/webhook-subscriptions', {
        body: { url: `${receiver.url}/s${i}`, event_types: ['*'], secret: SECRET },
      });
      if (res.status !== 201) {
        ctx.note(
          `webhooks: cannot subscribe (${res.status} ${await res.text()}); is EGRESS_ALLOW_CIDRS=127.0.0.1/32 set?`,
        );
        return false;
      }
      subs.push(((await res.json()) as { id: string }).id);
    }
    const concurrency = Number(ctx.env.WEBHOOK_CONCURRENCY ?? 64);
    const total = RESULTS * SUBSCRIPTIONS;

    // The machine is shared and its load drifts: the baseline runs right before and right after
    // the service, and the ratio is against their mean.
    await reset(receiver.url);
    const baselineBefore = await bareSender(receiver.url, total, concurrency, ctx.workspaceSlug);
    const base = await stats(receiver.url);

    // --- burst: RESULTS results in one transaction → total deliveries ---
    await reset(receiver.url);
    const { rate: serviceRate, received: burst, succeeded } = await runBurst(pool, receiver.url, workspaceId);
    const burstOk = burst.count >= total && burst.bad === 0 && burst.unique === total && succeeded === total;
    if (!burstOk)
      ctx.note(`webhooks burst check failed: ${JSON.stringify({ burst, states: { succeeded } })}`);
    ok &&= burstOk;

    const baselineAfter = await bareSender(receiver.url, total, concurrency, ctx.workspaceSlug);
    const baselineRate = (baselineBefore + baselineAfter) / 2;
    ctx.print({
      suite: 'webhooks',
      phase: 'burst',
      subscriptions: SUBSCRIPTIONS,
      results: RESULTS,
      deliveries: total,
      concurrency,
      service_deliveries_per_sec: round(serviceRate),
      baseline_deliveries_per_sec: round(baselineRate),
      baseline_before_after: [round(baselineBefore), round(baselineAfter)],
      ratio_vs_baseline: round(serviceRate / baselineRate, 2),
      target_ratio: TARGET.ratio,
      outbox_to_received_p50_ms: burst.p50,
      outbox_to_received_p99_ms: burst.p99,
      received: burst.count,
      signatures_valid: burst.count - burst.bad,
      baseline_received: base.count,
    });

    // --- steady: STEADY_RATE results/s, one transaction each; first to one subscription (the
    // other nine paused), then fanned out to all ten ---
    const steady = async (active: number, seconds: number) => {
      await reset(receiver.url);
      const n = Math.round(STEADY_RATE * seconds);
      const started = performance.now();
      const inflight: Promise<unknown>[] = [];
      for (let i = 0; i < n; i++) {
        const due = started + (i * 1000) / STEADY_RATE;
        const wait = due - performance.now();
        if (wait > 1) await sleep(wait);
        inflight.push(
          withTransaction(pool, (sql) =>
            emitResult(sql, { workspaceId, mode: 'live', type: 'badge.awarded', data: { i } }),
          ),
        );
      }
      await Promise.all(inflight);
      const emitSeconds = (performance.now() - started) / 1000;
      const got = await waitForCount(receiver.url, n * active, 60_000);
      const fine = got.count === n * active && got.bad === 0 && got.unique === n * active;
      if (!fine) ctx.note(`webhooks steady (${active} subscriptions) check failed: ${JSON.stringify(got)}`);
      ok &&= fine;
      ctx.print({
        suite: 'webhooks',
        phase: 'steady',
        subscriptions: active,
        results_per_sec: round(n / emitSeconds),
        deliveries_per_sec: round((n * active) / emitSeconds),
        outbox_to_received_p50_ms: got.p50,
        outbox_to_received_p99_ms: got.p99,
        outbox_to_received_max_ms: got.max,
        target_p50_ms: TARGET.p50Ms,
        received: got.count,
        signatures_valid: got.count - got.bad,
      });
    };
    const setStatus = async (ids: string[], status: 'active' | 'paused') => {
      for (const id of ids)
        await api(`/v1/webhook-subscriptions/${id}`, { method: 'PATCH', body: { status } });
    };
    await setStatus(subs.slice(1), 'paused');
    await steady(1, STEADY_S);
    await setStatus(subs.slice(1), 'active');
    // Fanned out to ten this is 2,000 deliveries/s, beyond what one worker sends on this machine
    // (see the burst line): kept short, it shows how latency grows past capacity.
    await steady(SUBSCRIPTIONS, Math.min(STEADY_S, 2));
    return ok;
  } finally {
    // Later suites must not fan out to this receiver.
    for (const id of subs) await api(`/v1/webhook-subscriptions/${id}`, { method: 'DELETE' }).catch(() => {});
    await pool.end();
    receiver.proc.kill('SIGTERM');
  }
}

export const webhooksSuite: Suite = { name: 'webhooks', run };
