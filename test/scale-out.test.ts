import { type ChildProcess, execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { type Client, createClient } from 'graphql-ws';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { freePort } from '../bench/processes.ts';
import { startSmtp } from '../scripts/chaos/stubs.ts';
import { eventually, freshDatabase, request, testEnv } from './helpers.ts';
import { type Receiver, startReceiver } from './webhooks-receiver.ts';

/**
 * A deployment of two API processes and two worker processes (`svc serve --role api|worker`, real
 * child processes) on one database, with a webhook receiver and an SMTP server on loopback. What
 * the processes share goes through Postgres; this file proves each shared part holds across them:
 *
 * - the rate limit: requests to both API processes count against one budget per key;
 * - the leaderboard compactor: both workers run it, one writes at a time;
 * - webhook dispatch: two dispatchers, every delivery reaches the receiver exactly once;
 * - messages: every message is sent once (one e-mail per message id);
 * - live updates: a GraphQL subscriber on API process A sees a change committed through B.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
/** Below 200 a lease is one point, so the shared counter is exact (src/lib/rate-limit.ts). */
const LIMIT = 150;
const EVENTS = 100;
const PARTICIPANTS = 40;

interface Proc {
  name: string;
  child: ChildProcess;
  url: string;
  log: string[];
  exited: Promise<number | null>;
}

let databaseUrl: string;
let db: pg.Pool;
let receiver: Receiver;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
const procs: Proc[] = [];
let api: [Proc, Proc];
let liveKey: string;
let testKey: string;
let workspaceId: string;
const clients: Client[] = [];

beforeAll(async () => {
  databaseUrl = await freshDatabase();
  db = new pg.Pool({ connectionString: databaseUrl, max: 3 });
  await recordCompactions(db);
  receiver = await startReceiver();
  smtp = await startSmtp();
  const env = {
    RATE_LIMIT_PER_MINUTE: String(LIMIT),
    SMTP_URL: smtp.url,
    LOG_LEVEL: 'info',
    // The default store (Postgres); the Redis one is shared the same way (rate-limit.test.ts).
    REDIS_URL: '',
  };
  // The workspace and its keys (through the CLI) while the four processes start.
  const setup = (async () => {
    const ws = await cli(['workspace', 'create', 'scale']);
    workspaceId = String(ws.id);
    const [live, test] = await Promise.all([
      cli(['keys', 'create', '--workspace', 'scale', '--mode', 'live']),
      cli(['keys', 'create', '--workspace', 'scale', '--mode', 'test']),
    ]);
    liveKey = String(live.key);
    testKey = String(test.key);
  })();
  const [a, b] = await Promise.all([
    spawnServe('api-a', 'api', env),
    spawnServe('api-b', 'api', env),
    spawnServe('worker-a', 'worker', env),
    spawnServe('worker-b', 'worker', env),
  ]);
  api = [a!, b!];
  await setup;
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await Promise.all(
    procs.map(async (p) => {
      if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
      await p.exited;
    }),
  );
  await db?.end();
  await receiver?.close();
  await smtp?.close();
});

describe('two API and two worker processes on one database', () => {
  it('the rate limit is one budget per key across both API processes', async () => {
    const answers: { proc: string; status: number }[] = [];
    // Sequential and alternating: half the requests to each process, all within one window.
    for (let i = 0; i < LIMIT + 50; i++) {
      const p = api[i % 2]!;
      const res = await request(p.url, '/v1/flows', { key: testKey });
      answers.push({ proc: p.name, status: res.status });
    }
    const allowed = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    expect(allowed.length + refused.length).toBe(answers.length);
    // Per-process counters would have let each process admit up to LIMIT (all 200 here).
    expect(allowed.length).toBe(LIMIT);
    for (const p of api) {
      expect(allowed.some((a) => a.proc === p.name)).toBe(true);
      expect(refused.some((a) => a.proc === p.name)).toBe(true);
    }
  });

  it('events through both API processes: every webhook delivery arrives once, every message is sent once, the compactor has one writer', async () => {
    const call = (i: number, p: string, body: unknown) =>
      request(api[i % 2]!.url, p, { key: liveKey, body }).then((r) => {
        expect(r.status, `${p}: ${r.text}`).toBeLessThan(300);
        return r;
      });
    await call(0, '/v1/message-templates', {
      key: 'receipt',
      channel: 'email',
      subject: 'Your order',
      body: '<p>Thanks, {{participant.external_id}}: {{payload.total}} points.</p>',
    });
    await call(1, '/v1/flows', {
      name: 'order points and receipt',
      event_type: 'order.completed',
      actions: [
        { type: 'award_points', points: { var: 'payload.total' } },
        { type: 'send_message', template: 'receipt' },
      ],
    });
    await call(0, '/v1/leaderboards', { key: 'weekly', name: 'This week', period: 'weekly' });
    const sub = await call(1, '/v1/webhook-subscriptions', {
      url: `${receiver.url}/hooks`,
      event_types: ['*'],
    });
    receiver.setSecret(sub.body.secret);

    // Ten at a time, alternating between the API processes.
    for (let i = 0; i < EVENTS; i += 10) {
      await Promise.all(
        Array.from({ length: 10 }, (_, j) => {
          const n = i + j;
          const who = `p${n % PARTICIPANTS}`;
          return call(n, '/v1/events', {
            event_type: 'order.completed',
            participant: { external_id: who, email: `${who}@example.com` },
            payload: { total: 1 + ((n * 37) % 400) },
          });
        }),
      );
    }

    const count = async (sql: string) => Number((await db.query<{ n: string }>(sql)).rows[0]!.n);
    await eventually(
      async () => (await count(`select count(*) as n from events where status = 'processed'`)) === EVENTS,
      40_000,
    );
    await eventually(
      async () => (await count(`select count(*) as n from messages where status = 'sent'`)) === EVENTS,
      30_000,
    );
    // Deliveries: points.changed, flow.completed and message.sent per event.
    await eventually(async () => {
      const { rows } = await db.query<{ status: string; n: string }>(
        `select status, count(*) as n from webhook_deliveries group by 1`,
      );
      return rows.length === 1 && rows[0]!.status === 'succeeded' && Number(rows[0]!.n) === 3 * EVENTS;
    }, 30_000);
    await eventually(
      async () => (await count(`select count(*) as n from leaderboard_count_deltas`)) === 0,
      15_000,
    );

    // Webhooks: the receiver got every delivery exactly once, signed.
    const { rows: deliveries } = await db.query<{ id: string }>(`select id from webhook_deliveries`);
    const ids = receiver.received.map((r) => String(r.headers['x-svc-delivery-id']));
    expect(ids.length).toBe(deliveries.length);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids)).toEqual(new Set(deliveries.map((d) => d.id)));
    expect(receiver.received.filter((r) => r.verifyError !== null)).toEqual([]);
    const { rows: attempts } = await db.query<{ n: string }>(`select count(*) as n from webhook_attempts`);
    expect(Number(attempts[0]!.n)).toBe(deliveries.length);

    // Messages: one e-mail per message, each message id once.
    const { rows: messages } = await db.query<{ id: string }>(`select id from messages`);
    expect(messages).toHaveLength(EVENTS);
    expect(smtp.mails()).toBe(EVENTS);
    expect(new Set(smtp.byMessageId.keys())).toEqual(new Set(messages.map((m) => `${m.id}@svc.messages`)));

    // Leaderboard histograms: once compacted, each bucket counts exactly the positive scores in it.
    const { rows: wrong } = await db.query(
      `with levels as (select generate_series(0, 4) as level),
       expected as (
         select s.workspace_id, s.mode, s.period, s.period_start, l.level,
                s.score >> (8 * l.level) as bucket, count(*) as count
           from leaderboard_scores s cross join levels l where s.score > 0 group by 1, 2, 3, 4, 5, 6)
       select * from expected e full join leaderboard_counts c
         using (workspace_id, mode, period, period_start, level, bucket)
        where e.count is distinct from c.count`,
    );
    expect(wrong).toEqual([]);
    const { rows: boards } = await db.query<{ period: string; n: string }>(
      `select period, count(*) as n from leaderboard_scores where workspace_id = $1 and score > 0 group by 1`,
      [workspaceId],
    );
    expect(Object.fromEntries(boards.map((b) => [b.period, Number(b.n)]))).toMatchObject({
      all_time: PARTICIPANTS,
      weekly: PARTICIPANTS,
    });

    // One writer: no two compaction transactions (from any two connections, of either worker) overlapped.
    // A transaction's span is from its first write to its last (its BEGIN may come before the lock
    // it then takes once the other committed: CI saw such a BEGIN 1 ms before the other's last write).
    const { rows: tx } = await db.query<{ pid: number; started: Date; ended: Date }>(
      `select pid, min(at) as started, max(at) as ended from scaleout_compactions
        group by pid, xact_start order by 2`,
    );
    expect(tx.length).toBeGreaterThan(0);
    let last = tx[0]!;
    for (const t of tx.slice(1)) {
      expect(
        t.started.getTime(),
        `compactions ${JSON.stringify(last)} and ${JSON.stringify(t)} overlap`,
      ).toBeGreaterThanOrEqual(last.ended.getTime());
      if (t.ended > last.ended) last = t;
    }
  }, 90_000);

  it('a GraphQL subscriber on API process A sees a change committed through API process B', async () => {
    const [a, b] = api;
    const client = createClient({
      url: `${a.url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${liveKey}` },
      retryAttempts: 0,
    });
    clients.push(client);
    const balances: number[] = [];
    let subscribed = false;
    client.on('connected', () => {
      subscribed = true;
    });
    client.subscribe<{ balanceChanged: { balance: number } }>(
      { query: 'subscription { balanceChanged(externalId: "p0") { balance } }' },
      {
        next: (r) => r.data && balances.push(r.data.balanceChanged.balance),
        error: () => {},
        complete: () => {},
      },
    );
    await eventually(async () => subscribed);
    const before = Number(
      (
        await db.query<{ balance: string }>(
          `select balance from participants where external_id = 'p0' and mode = 'live'`,
        )
      ).rows[0]!.balance,
    );
    // The hub registers the watch after the socket is up: move the balance until the subscriber sees it.
    let moved = 0;
    await eventually(async () => {
      if (balances.length) return true;
      const res = await request(b.url, '/v1/participants/p0/points', {
        key: liveKey,
        body: { points: 5, reason: 'goodwill' },
      });
      expect(res.status).toBe(201);
      moved += 5;
      await new Promise((r) => setTimeout(r, 200));
      return balances.length > 0;
    }, 15_000);
    expect(balances[0]).toBeGreaterThan(before);
    expect(balances[0]).toBeLessThanOrEqual(before + moved);
  });

  it('every process stops gracefully on SIGTERM, with no error logged by any of them', async () => {
    for (const p of procs) p.child.kill('SIGTERM');
    const codes = await Promise.all(procs.map((p) => p.exited));
    expect(codes).toEqual([0, 0, 0, 0]);
    const errors = procs.flatMap((p) =>
      p.log.filter((l) => l.startsWith('{') && JSON.parse(l).level >= 50).map((l) => `${p.name}: ${l}`),
    );
    expect(errors).toEqual([]);
  }, 30_000);
});

/** `svc serve --role <role>` as a child process; resolves once it logs `ready`. */
async function spawnServe(name: string, role: 'api' | 'worker', env: Record<string, string>): Promise<Proc> {
  const port = role === 'api' ? await freePort() : 0;
  const child = spawn(process.execPath, ['src/cli.ts', 'serve', '--role', role], {
    cwd: ROOT,
    env: testEnv(databaseUrl, { ...env, PORT: String(port) }),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const proc: Proc = { name, child, url: `http://127.0.0.1:${port}`, log: [], exited };
  procs.push(proc);
  let buf = '';
  child.stderr!.setEncoding('utf8');
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (chunk: string) => {
      buf += chunk;
      const lines = buf.split('\n');
      buf = lines.pop()!;
      proc.log.push(...lines);
      if (lines.some((l) => l.includes('"msg":"ready"'))) resolve();
    });
    void exited.then((code) =>
      reject(new Error(`${name} exited (${code}) before ready:\n${proc.log.join('\n')}`)),
    );
  });
  return proc;
}

/** `svc <args> --json` against the test database: its one JSON object. */
function cli(args: string[]): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['src/cli.ts', ...args, '--json'],
      { cwd: ROOT, env: testEnv(databaseUrl) },
      (err, stdout, stderr) =>
        err ? reject(new Error(`svc ${args.join(' ')}: ${stderr}`)) : resolve(JSON.parse(stdout)),
    );
  });
}

/**
 * Every statement that writes `leaderboard_counts` (only the compactor does) notes its connection
 * and transaction, and holds the transaction 50 ms longer: two compactors running at once would
 * overlap in this table, as they did when the advisory lock was taken out.
 */
async function recordCompactions(pool: pg.Pool): Promise<void> {
  await pool.query(`
    create table scaleout_compactions (pid int not null, xact_start timestamptz not null, at timestamptz not null);
    create function scaleout_note_compaction() returns trigger language plpgsql as $$
    begin
      insert into scaleout_compactions values (pg_backend_pid(), now(), clock_timestamp());
      perform pg_sleep(0.05);
      insert into scaleout_compactions values (pg_backend_pid(), now(), clock_timestamp());
      return null;
    end $$;
    create trigger scaleout_note_compaction after insert or update or delete on leaderboard_counts
      for each statement execute function scaleout_note_compaction();`);
}
