/**
 * Suite `integrators` (docs/benchmarks.md): what issue 29 promises integrators, against the
 * suites' process (role all: it ingests while its own workers process) and its database.
 * Parts (BENCH_INTEGRATORS_PARTS, default `batch,signing,simulate`; they run signing, simulate,
 * then batch, which leaves the database half a million events bigger):
 *
 *  1. batch: `POST /v1/events` at BENCH_CONNECTIONS (64), one event a request, against
 *     `POST /v1/events/batch` at BENCH_BATCH_CONNECTIONS (4), 1,000 events a request, both of a
 *     type whose flow awards a point, for 1,000 participants made beforehand, in alternating
 *     windows of BENCH_DURATION seconds (BENCH_INTEGRATORS_ROUNDS rounds) after a warm-up of each
 *     and an ANALYZE. Ingest alone, as scenario `events.post` measures it: the process's workers
 *     are held back meanwhile by a share lock on the participants (the engine locks them for
 *     update; ingest only reads them and its foreign-key checks take key-share locks). Events/s
 *     are the events answered 202 (a batch's items one by one: each `received`, not a replay, in
 *     request order) over the window. Target: batch ≥ 5× single. Then the lock is released and
 *     the backlog's processing timed, and exactly once checked: every event of the type stored
 *     (those answered and any a request cut off at a window's end left) is `processed`, with one
 *     completed run of the flow and one ledger credit; every answered id is stored, none twice.
 *  2. signing: the webhooks suite's burst (bench/webhooks.ts: 1,000 results to 10 live
 *     subscriptions, 10,000 deliveries) to ten subscriptions signing with one secret, and to ten
 *     whose secret was rotated with a grace (each delivery carries two signatures in
 *     `X-Svc-Signature` and two in `webhook-signature`, each checked by the receiver), the other
 *     ten paused, after a warm-up burst: baseline, one, two, baseline, two, one, baseline, where
 *     the baseline is the bare undici sender (one signature). Target: two secrets ≥ 0.5× the
 *     mean bare sender.
 *  3. simulate: `POST /v1/events/simulate` of an event whose flow awards points, a badge and an
 *     e-mail (rendered and recorded, then rolled back), for 1,000 existing participants in turn,
 *     at 1 and at BENCH_SIM_CONNECTIONS (4) connections for BENCH_DURATION seconds each. Target:
 *     p99 < 20 ms at 1 connection. Then nothing stored: no event of the type, no run of its
 *     flow, no message, no badge more than before.
 *
 * Env: BENCH_INTEGRATORS_PARTS, BENCH_INTEGRATORS_ROUNDS (2), BENCH_BATCH_CONNECTIONS (4),
 * BENCH_SIM_CONNECTIONS (4), BENCH_CONNECTIONS (64), BENCH_DURATION (10), BENCH_WARMUP (3),
 * BENCH_WEBHOOK_RESULTS (1000).
 */
import autocannon, { type Request, type Result } from 'autocannon';
import pg from 'pg';
import { withClient } from './postgres.ts';
import { eventRequests, orderLikeBody } from './scenarios.ts';
import type { Suite, SuiteContext } from './suites.ts';
import {
  bareSender,
  RESULTS,
  reset,
  runBurst,
  SECRET,
  type Stats,
  SUBSCRIPTIONS,
  startReceiver,
} from './webhooks.ts';

const PARTS = (process.env.BENCH_INTEGRATORS_PARTS ?? 'batch,signing,simulate').split(',');
const ROUNDS = Math.max(1, Number(process.env.BENCH_INTEGRATORS_ROUNDS ?? 2));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const BATCH_CONNECTIONS = Number(process.env.BENCH_BATCH_CONNECTIONS ?? 4);
const SIM_CONNECTIONS = Number(process.env.BENCH_SIM_CONNECTIONS ?? 4);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP_S = Number(process.env.BENCH_WARMUP ?? 3);
const BATCH_SIZE = 1000;
const PARTICIPANTS = 1000;
const TARGET = { batchRatio: 5, signingRatio: 0.5, simulateP99Ms: 20 };

/** The batch part's event type (a flow awards 1 point) and the simulation's (points, badge, e-mail). */
const ORDER = 'integrators.order';
const SIMULATED = 'integrators.checkout';
/** The second secret of the signing part: the one a rotation brings in. */
const ROTATED = 'whsec_bench_rotated_secret_9876543210';

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const verdict = (met: boolean) => (met ? 'met' : 'NOT met');

/** A JSON request of the bench's test key (or `key`); throws on anything but 2xx. */
async function call(
  ctx: SuiteContext,
  path: string,
  body?: unknown,
  opts: { method?: string; key?: string } = {},
) {
  const res = await fetch(`${ctx.service.url}${path}`, {
    method: opts.method ?? (body === undefined ? 'GET' : 'POST'),
    headers: { authorization: `Bearer ${opts.key ?? ctx.apiKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${opts.method ?? 'POST'} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

const drive = async (
  url: string,
  requests: Request[],
  connections: number,
  seconds: number,
): Promise<Result> =>
  await autocannon({ url, connections, pipelining: 1, duration: seconds, timeout: 30, requests });

/** An order event of the batch part; `i` is unique in the run. */
const orderEvent = (i: number) => orderLikeBody(i, ORDER, 'int', PARTICIPANTS);

// --- batch ----------------------------------------------------------------------------------

/** What the batch part's answers told: every id answered 202, and what was wrong with any answer. */
interface Answers {
  ids: Set<string>;
  /** Items answered (single: one a 202; batch: one a result). */
  items: number;
  /** A batch answer with the wrong count, order, status or `replayed`. */
  malformed: number;
}

/** `POST /v1/events`, one event a request, each with its own key; records each 202's id. */
function singleRequests(ctx: SuiteContext, answers: Answers): Request[] {
  return eventRequests(ctx.apiKey, `int-${ctx.runId}-single`, orderEvent).map((r) => ({
    ...r,
    onResponse: (status: number, body: string) => {
      if (status !== 202) return;
      answers.items++;
      answers.ids.add((JSON.parse(body) as { event_id: string }).event_id);
    },
  }));
}

let batches = 0;

/** `POST /v1/events/batch` of BATCH_SIZE events, each with its own key; records each item's id. */
function batchRequests(ctx: SuiteContext, answers: Answers): Request[] {
  return [
    {
      method: 'POST',
      path: '/v1/events/batch',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ctx.apiKey}` },
      setupRequest: (req) => {
        const b = batches++;
        const events = Array.from({ length: BATCH_SIZE }, (_, j) => ({
          ...orderEvent(1e9 + b * BATCH_SIZE + j),
          idempotency_key: `int-${ctx.runId}-batch-${b}-${j}`,
        }));
        return { ...req, body: JSON.stringify({ events }) };
      },
      onResponse: (status: number, body: string) => {
        if (status !== 202) return;
        const { data } = JSON.parse(body) as {
          data: { index: number; event_id: string; status: string; replayed: boolean }[];
        };
        if (data.length !== BATCH_SIZE) answers.malformed++;
        data.forEach((d, j) => {
          if (d.index !== j || d.status !== 'received' || d.replayed) answers.malformed++;
          answers.items++;
          answers.ids.add(d.event_id);
        });
      },
    },
  ];
}

/** Events the workers still owe (their jobs not completed), polled until none: the seconds it took. */
async function drain(ctx: SuiteContext, limitS: number): Promise<number | null> {
  const t0 = performance.now();
  for (;;) {
    const n = await withClient(ctx.db.url, async (c) => {
      const { rows } = await c.query<{ n: number }>(
        `select count(*)::int as n from pgboss.job where name = 'events.process' and state < 'completed'`,
      );
      return rows[0]!.n;
    });
    if (n === 0) return round((performance.now() - t0) / 1000, 2);
    if (performance.now() - t0 > limitS * 1000) return null;
    await sleep(200);
  }
}

async function batchPart(ctx: SuiteContext): Promise<boolean> {
  const flow = (await call(ctx, '/v1/flows', {
    name: 'integrators: a point an order',
    event_type: ORDER,
    actions: [{ type: 'award_points', points: 1 }],
  })) as { id: string };
  // The participants first (by one batch of a type no flow listens to), with the e-mail every
  // later event carries: ingest then only reads them.
  await call(ctx, '/v1/events/batch', {
    events: Array.from({ length: PARTICIPANTS }, (_, p) => ({
      event_type: 'integrators.seen',
      participant: { external_id: `int_${p}`, email: `int_${p}@example.com` },
      payload: {},
    })),
  });
  await drain(ctx, 120);
  const answers: Answers = { ids: new Set(), items: 0, malformed: 0 };
  const url = ctx.service.url;

  // Ingest alone, as scenario `events.post` measures it on an API-only process: the process's
  // own workers are held back by a share lock on the participants (the engine locks them for
  // update first; ingest's reads and foreign-key checks are not blocked), so no window pays for
  // processing. Released after the last window: the backlog is then processed and timed.
  const hold = new pg.Client({ connectionString: ctx.db.url });
  await hold.connect();
  let held = true;
  try {
    await hold.query('begin');
    await hold.query(
      `select p.id from participants p join workspaces w on w.id = p.workspace_id
        where w.slug = $1 and p.mode = 'test' and p.external_id like 'int_%' for share of p`,
      [ctx.workspaceSlug],
    );

    ctx.note(`integrators batch: warm-up ${WARMUP_S} s of each (processing held back)`);
    await drive(url, singleRequests(ctx, answers), CONNECTIONS, WARMUP_S);
    await drive(url, batchRequests(ctx, answers), BATCH_CONNECTIONS, WARMUP_S);
    await withClient(ctx.db.url, (c) => c.query('analyze'));

    const windows: { kind: 'single' | 'batch'; round: number; perSec: number }[] = [];
    let ok = true;
    for (let r = 1; r <= ROUNDS; r++) {
      for (const kind of ['single', 'batch'] as const) {
        const before = answers.items;
        ctx.note(`integrators batch: ${kind} round ${r}, ${DURATION_S} s`);
        const res =
          kind === 'single'
            ? await drive(url, singleRequests(ctx, answers), CONNECTIONS, DURATION_S)
            : await drive(url, batchRequests(ctx, answers), BATCH_CONNECTIONS, DURATION_S);
        const perSec = (answers.items - before) / res.duration;
        if (res.non2xx || res.errors) {
          ctx.note(`integrators batch: ${kind} round ${r}: ${res.non2xx} non-2xx, ${res.errors} errors`);
          ok = false;
        }
        windows.push({ kind, round: r, perSec });
        ctx.print({
          suite: 'integrators',
          part: 'batch',
          window: kind,
          round: r,
          connections: kind === 'single' ? CONNECTIONS : BATCH_CONNECTIONS,
          events_per_request: kind === 'single' ? 1 : BATCH_SIZE,
          duration_s: round(res.duration, 2),
          requests_per_sec: round(res.requests.total / res.duration),
          events_per_sec: round(perSec),
          p50_ms: res.latency.p50,
          p99_ms: res.latency.p99,
          non_2xx: res.non2xx,
          errors: res.errors,
        });
      }
    }
    await hold.query('commit');
    held = false;
    ctx.note(
      `integrators batch: processing released; ${answers.ids.size} events answered, waiting for the workers`,
    );
    const drainS = await drain(ctx, 900);
    return await batchVerdict(ctx, flow.id, answers, windows, ok, { drainS });
  } finally {
    if (held) await hold.query('rollback').catch(() => {});
    await hold.end();
  }
}

/** The batch part's summary line: the ratio, the processing of the backlog, exactly once. */
async function batchVerdict(
  ctx: SuiteContext,
  flowId: string,
  answers: Answers,
  windows: { kind: 'single' | 'batch'; perSec: number }[],
  ok: boolean,
  processing: { drainS: number | null },
): Promise<boolean> {
  const mean = (kind: string) => {
    const w = windows.filter((x) => x.kind === kind);
    return w.reduce((a, x) => a + x.perSec, 0) / w.length;
  };
  const single = mean('single');
  const batch = mean('batch');
  const ratio = batch / single;

  // Exactly once: every event the run stored, answered or cut off with its request.
  const check = await withClient(ctx.db.url, async (c) => {
    const { rows } = await c.query<{
      stored: number;
      processed: number;
      wrong_run_count: number;
      runs_not_completed: number;
      wrong_credit_count: number;
    }>(
      `with mine as (
         select e.id, e.status from events e join workspaces w on w.id = e.workspace_id
          where w.slug = $1 and e.mode = 'test' and e.event_type = $2),
       runs as (select event_id, count(*)::int as n, count(*) filter (where status = 'completed')::int as done
                  from flow_runs where flow_id = $3 group by 1),
       credits as (select split_part(idempotency_key, ':', 1) as eid, count(*)::int as n
                     from ledger_entries where source = 'flow' and idempotency_key like '%:' || $3 || ':0' group by 1)
       select count(*)::int as stored,
              count(*) filter (where m.status = 'processed')::int as processed,
              count(*) filter (where coalesce(r.n, 0) <> 1)::int as wrong_run_count,
              count(*) filter (where coalesce(r.done, 0) <> 1)::int as runs_not_completed,
              count(*) filter (where coalesce(cr.n, 0) <> 1)::int as wrong_credit_count
         from mine m left join runs r on r.event_id = m.id left join credits cr on cr.eid = m.id::text`,
      [ctx.workspaceSlug, ORDER, flowId],
    );
    const ids = [...answers.ids];
    let answeredStored = 0;
    for (let i = 0; i < ids.length; i += 50_000) {
      const { rows: found } = await c.query<{ n: number }>(
        `select count(*)::int as n from events where id = any($1::uuid[]) and event_type = $2`,
        [ids.slice(i, i + 50_000), ORDER],
      );
      answeredStored += found[0]!.n;
    }
    return {
      ...rows[0]!,
      answered: answers.items,
      answered_ids: ids.length,
      answered_stored: answeredStored,
    };
  });
  const exactlyOnce =
    check.answered > 0 &&
    check.answered_ids === check.answered &&
    check.answered_stored === check.answered &&
    check.stored >= check.answered &&
    check.processed === check.stored &&
    check.wrong_run_count + check.runs_not_completed + check.wrong_credit_count === 0 &&
    answers.malformed === 0;
  const met = ratio >= TARGET.batchRatio;
  ctx.print({
    suite: 'integrators',
    part: 'batch',
    window: 'all',
    rounds: ROUNDS,
    single_events_per_sec: round(single),
    batch_events_per_sec: round(batch),
    batch_vs_single: round(ratio, 2),
    target_ratio: TARGET.batchRatio,
    meets_target: met,
    // Everything the windows left (answered, and cut off with their request) processed after the
    // workers were released, from the release to the last event.
    backlog_processed_s: processing.drainS,
    backlog_events_per_sec: processing.drainS ? round(check.stored / processing.drainS) : null,
    malformed_batch_answers: answers.malformed,
    ...check,
    exactly_once: exactlyOnce,
  });
  ctx.note(
    `integrators batch: ${round(batch)} events/s in batches of ${BATCH_SIZE} against ${round(single)} events/s ` +
      `one a request: ${round(ratio, 2)}×; target ≥ ${TARGET.batchRatio}× ${verdict(met)}; ` +
      `${check.stored} events stored, ${check.processed} processed, ${check.wrong_run_count + check.wrong_credit_count} ` +
      `with other than one run and one credit: exactly once ${exactlyOnce ? 'held' : 'FAILED'}`,
  );
  return ok && exactlyOnce;
}

// --- signing --------------------------------------------------------------------------------

async function signingPart(ctx: SuiteContext): Promise<boolean> {
  const receiver = await startReceiver([SECRET, ROTATED]);
  const pool = new pg.Pool({ connectionString: ctx.db.url, max: 8 });
  const live = { key: ctx.liveKey };
  // Set `one` signs with SECRET; set `two` was rotated to ROTATED with SECRET in its grace.
  const sets = { one: [] as string[], two: [] as string[] };
  const status = async (set: keyof typeof sets, to: 'active' | 'paused') => {
    for (const id of sets[set])
      await call(ctx, `/v1/webhook-subscriptions/${id}`, { status: to }, { ...live, method: 'PATCH' });
  };
  try {
    const { rows } = await pool.query<{ id: string }>('select id from workspaces where slug = $1', [
      ctx.workspaceSlug,
    ]);
    const workspaceId = rows[0]!.id;
    for (const set of ['one', 'two'] as const)
      for (let i = 0; i < SUBSCRIPTIONS; i++) {
        const s = (await call(
          ctx,
          '/v1/webhook-subscriptions',
          { url: `${receiver.url}/${set}${i}`, event_types: ['*'], secret: SECRET },
          live,
        )) as { id: string };
        sets[set].push(s.id);
      }
    for (const id of sets.two)
      await call(
        ctx,
        `/v1/webhook-subscriptions/${id}/rotate-secret`,
        { secret: ROTATED, grace_seconds: 3600 },
        live,
      );
    const concurrency = Number(ctx.env.WEBHOOK_CONCURRENCY ?? 64);
    const total = RESULTS * SUBSCRIPTIONS;
    let ok = true;
    const baselines: number[] = [];
    const rates = { one: [] as number[], two: [] as number[] };
    const received = { one: [] as Stats[], two: [] as Stats[] };
    const baseline = async () => {
      await reset(receiver.url);
      baselines.push(await bareSender(receiver.url, total, concurrency, ctx.workspaceSlug));
    };
    /** A burst to the ten subscriptions of `set` alone (the other ten paused), checked. */
    const burst = async (set: keyof typeof sets, measured = true) => {
      await status(set === 'one' ? 'two' : 'one', 'paused');
      await status(set, 'active');
      // The dispatchers hear of the change by NOTIFY; give it a moment.
      await sleep(500);
      await reset(receiver.url);
      const got = await runBurst(pool, receiver.url, workspaceId);
      const signers = set === 'one' ? 1 : 2;
      const r = got.received;
      const fine =
        r.count === total &&
        r.unique === total &&
        r.bad === 0 &&
        r.signed_by[signers] === total &&
        got.succeeded === total;
      if (!fine) ctx.note(`integrators signing: ${set} secret(s) check failed: ${JSON.stringify(got)}`);
      ok &&= fine;
      if (measured) {
        rates[set].push(got.rate);
        received[set].push(r);
      }
    };
    // Warm-up, then baseline / one / two / baseline / two / one / baseline: the machine's drift
    // falls on both sets, each measured between two baselines.
    await burst('one', false);
    await baseline();
    await burst('one');
    await burst('two');
    await baseline();
    await burst('two');
    await burst('one');
    await baseline();
    const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;
    const base = mean(baselines);
    const one = mean(rates.one);
    const two = mean(rates.two);
    const ratio = two / base;
    const met = ratio >= TARGET.signingRatio;
    ctx.print({
      suite: 'integrators',
      part: 'signing',
      subscriptions: SUBSCRIPTIONS,
      deliveries: total,
      concurrency,
      one_secret_deliveries_per_sec: round(one),
      two_secrets_deliveries_per_sec: round(two),
      baseline_deliveries_per_sec: round(base),
      one_secret_rounds: rates.one.map((x) => round(x)),
      two_secrets_rounds: rates.two.map((x) => round(x)),
      baseline_rounds: baselines.map((x) => round(x)),
      one_secret_vs_baseline: round(one / base, 2),
      two_secrets_vs_baseline: round(ratio, 2),
      two_secrets_vs_one: round(two / one, 2),
      target_ratio: TARGET.signingRatio,
      meets_target: met,
      two_secrets_p50_ms: received.two.map((r) => r.p50),
      two_secrets_p99_ms: received.two.map((r) => r.p99),
      signed_by_one: received.one.map((r) => r.signed_by),
      signed_by_two: received.two.map((r) => r.signed_by),
    });
    ctx.note(
      `integrators signing: two secrets at ${round(ratio, 2)}× the bare sender (one secret ${round(one / base, 2)}×, ` +
        `the second secret ${round(two / one, 2)}× one), every delivery signed by every secret in both headers: ` +
        `${ok ? 'yes' : 'NO'}; target ≥ ${TARGET.signingRatio}× ${verdict(met)}`,
    );
    return ok;
  } finally {
    for (const id of [...sets.one, ...sets.two])
      await call(ctx, `/v1/webhook-subscriptions/${id}`, undefined, { ...live, method: 'DELETE' }).catch(
        () => {},
      );
    await pool.end();
    receiver.proc.kill('SIGTERM');
  }
}

// --- simulate -------------------------------------------------------------------------------

async function simulatePart(ctx: SuiteContext): Promise<boolean> {
  await call(ctx, '/v1/message-templates', {
    key: 'integrators-thanks',
    channel: 'email',
    subject: 'Thanks, {{participant.name}}',
    body: 'You have {{participant.balance}} points.',
  });
  const flow = (await call(ctx, '/v1/flows', {
    name: 'integrators: checkout',
    event_type: SIMULATED,
    actions: [
      { type: 'award_points', points: { '*': [{ var: 'payload.total' }, 1] } },
      { type: 'award_badge', badge: `integrators-buyer-${ctx.runId}` },
      { type: 'send_message', template: 'integrators-thanks' },
    ],
  })) as { id: string };
  // The participants, made by one batch of an event type no flow listens to.
  await call(ctx, '/v1/events/batch', {
    events: Array.from({ length: PARTICIPANTS }, (_, p) => ({
      event_type: 'integrators.seen',
      participant: { external_id: `sim_${p}`, email: `sim_${p}@example.com`, name: `Sim ${p}` },
      payload: {},
    })),
  });
  await drain(ctx, 120);
  await withClient(ctx.db.url, (c) => c.query('analyze'));

  const footprint = () =>
    withClient(ctx.db.url, async (c) => {
      const { rows } = await c.query<Record<string, number>>(
        `select (select count(*)::int from events where event_type = $1) as events,
                (select count(*)::int from flow_runs where flow_id = $2) as runs,
                (select count(*)::int from messages) as messages,
                (select count(*)::int from participant_badges) as badges,
                (select count(*)::int from participants) as participants`,
        [SIMULATED, flow.id],
      );
      return rows[0]!;
    });
  const before = await footprint();

  let seq = 0;
  let wrong = 0;
  const requests: Request[] = [
    {
      method: 'POST',
      path: '/v1/events/simulate',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ctx.apiKey}` },
      setupRequest: (req) => {
        const p = (seq++ * 7919) % PARTICIPANTS;
        return {
          ...req,
          body: JSON.stringify({
            event: { event_type: SIMULATED, participant: `sim_${p}`, payload: { total: 10 + (p % 90) } },
          }),
        };
      },
      onResponse: (status: number, body: string) => {
        if (status !== 200) return;
        const s = JSON.parse(body) as {
          status: string;
          participant: { exists: boolean };
          flows: { matched: boolean; actions: { status: string }[] }[];
          balance: { before: number; after: number };
        };
        const actions = s.flows[0]?.actions ?? [];
        const right =
          s.status === 'processed' &&
          s.participant.exists &&
          s.flows.length === 1 &&
          s.flows[0]!.matched &&
          actions.length === 3 &&
          actions.every((a) => a.status === 'completed') &&
          s.balance.after > s.balance.before;
        if (!right) wrong++;
      },
    },
  ];

  await drive(ctx.service.url, requests, 1, WARMUP_S);
  let ok = true;
  let met = false;
  for (const connections of [1, SIM_CONNECTIONS]) {
    ctx.note(`integrators simulate: ${connections} connection(s), ${DURATION_S} s`);
    const r = await drive(ctx.service.url, requests, connections, DURATION_S);
    const target = connections === 1;
    if (target) met = r.latency.p99 < TARGET.simulateP99Ms;
    ok &&= r.non2xx === 0 && r.errors === 0;
    ctx.print({
      suite: 'integrators',
      part: 'simulate',
      connections,
      requests_per_sec: round(r.requests.total / r.duration),
      p50_ms: r.latency.p50,
      p90_ms: r.latency.p90,
      p99_ms: r.latency.p99,
      max_ms: r.latency.max,
      non_2xx: r.non2xx,
      errors: r.errors,
      ...(target ? { target_p99_ms: TARGET.simulateP99Ms, meets_target: met } : {}),
    });
  }
  const after = await footprint();
  const untouched = JSON.stringify(after) === JSON.stringify(before);
  ctx.print({
    suite: 'integrators',
    part: 'simulate',
    check: 'nothing_stored',
    before,
    after,
    untouched,
    wrong_answers: wrong,
  });
  ctx.note(
    `integrators simulate: p99 target < ${TARGET.simulateP99Ms} ms at 1 connection ${verdict(met)}; ` +
      `nothing stored ${untouched ? 'held' : 'FAILED'}; ${wrong} answers not as expected`,
  );
  return ok && untouched && wrong === 0;
}

async function run(ctx: SuiteContext): Promise<boolean> {
  let ok = true;
  // The batch part last: it leaves the database half a million events and credits bigger.
  if (PARTS.includes('signing')) ok = (await signingPart(ctx)) && ok;
  if (PARTS.includes('simulate')) ok = (await simulatePart(ctx)) && ok;
  if (PARTS.includes('batch')) ok = (await batchPart(ctx)) && ok;
  return ok;
}

export const integratorsSuite: Suite = { name: 'integrators', run };
