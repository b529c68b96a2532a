import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { TRPCClient } from '@trpc/client';
import { expect } from 'vitest';
import { withTransaction } from '../src/db/tx.ts';
import type { Mode } from '../src/services/keys/principal.ts';
import { postEntry } from '../src/services/ledger/post-entry.ts';
import { ensureParticipant } from '../src/services/participants/ensure-participant.ts';
import type { AppRouter } from '../src/trpc/index.ts';
import {
  type ApiInit,
  type ApiResponse,
  request,
  signedInDashboard,
  type TestApp,
  type TestWorkspace,
  testEnv,
} from './helpers.ts';
import { type Receiver, startReceiver } from './webhooks-receiver.ts';

/**
 * Factories for integration tests, in the manner of outline's `test/factories.ts`: each builds one
 * object through the app's own doors (REST for what a client creates, the services for what only
 * the engine makes), with defaults for everything the test does not care about, and returns what
 * the REST door answered. Every test file builds its own workspace, so files never share rows
 * and run in parallel.
 */

const unique = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;

/** A fresh workspace with a key per mode (every ability unless `abilities` narrows them). */
export function buildWorkspace(app: TestApp, opts: { abilities?: string[] } = {}): Promise<TestWorkspace> {
  return app.workspace(opts);
}

/** POSTs `body` with the workspace's key for `mode` and expects 201; the created object. */
async function created<T = Record<string, any>>(ws: TestWorkspace, path: string, body: unknown, mode: Mode) {
  const res = await ws.api(path, { body, mode });
  expect(res.status, `POST ${path}: ${res.text}`).toBe(201);
  return res.body as T;
}

// --- participants and points ---

export interface BuiltParticipant {
  /** The participant's internal id (as ledger and redemption rows reference it). */
  id: number;
  externalId: string;
  mode: Mode;
}

/**
 * A participant holding `points` (credited through the ledger as an adjustment, so balance and
 * ledger agree), with optional contact fields.
 */
export async function buildParticipant(
  app: TestApp,
  ws: TestWorkspace,
  opts: {
    externalId?: string;
    points?: number;
    mode?: Mode;
    name?: string | null;
    email?: string | null;
    phone?: string | null;
  } = {},
): Promise<BuiltParticipant> {
  const mode = opts.mode ?? 'test';
  const externalId = opts.externalId ?? unique('p');
  const id = await withTransaction(app.ctx.pool, async (sql) => {
    const p = await ensureParticipant(sql, { workspaceId: ws.id, mode, externalId });
    if (opts.name !== undefined || opts.email !== undefined || opts.phone !== undefined)
      await sql.query(
        `update participants set name = coalesce($2, name), email = coalesce($3, email), phone = coalesce($4, phone)
          where id = $1`,
        [p.id, opts.name ?? null, opts.email ?? null, opts.phone ?? null],
      );
    if (opts.points && opts.points > 0)
      await postEntry(sql, {
        workspaceId: ws.id,
        mode,
        participantId: p.id,
        externalId,
        points: opts.points,
        source: 'adjustment',
        reason: 'test funding',
      });
    return Number(p.id);
  });
  return { id, externalId, mode };
}

/** Balance and the sum of ledger entries of one participant (null when it does not exist). */
export async function balanceOf(app: TestApp, ws: TestWorkspace, externalId: string, mode: Mode = 'test') {
  const { rows } = await app.ctx.pool.query(
    `select p.balance, coalesce((select sum(points) from ledger_entries l where l.participant_id = p.id), 0) as ledger
       from participants p where workspace_id = $1 and mode = $2 and external_id = $3`,
    [ws.id, mode, externalId],
  );
  if (!rows[0]) return null;
  return { balance: Number(rows[0].balance), ledger: Number(rows[0].ledger) };
}

/**
 * Every participant of the workspace whose balance differs from the sum of its ledger entries or
 * from the sum of its open lots' `remaining` (docs/points.md#lots).
 */
export async function ledgerMismatches(app: TestApp, ws: TestWorkspace) {
  const { rows } = await app.ctx.pool.query(
    `select p.external_id, p.balance, coalesce(l.points, 0) as ledger, coalesce(o.points, 0) as lots
       from participants p
       left join (select participant_id, sum(points) as points from ledger_entries group by participant_id) l
         on l.participant_id = p.id
       left join (select participant_id, sum(remaining) as points from point_lots group by participant_id) o
         on o.participant_id = p.id
      where p.workspace_id = $1
        and (p.balance <> coalesce(l.points, 0) or p.balance <> coalesce(o.points, 0))`,
    [ws.id],
  );
  return rows;
}

/** The `data` of every outbox result of `type` in the workspace, oldest first. */
export async function outboxOf(app: TestApp, ws: TestWorkspace, type: string) {
  const { rows } = await app.ctx.pool.query(
    `select data from outbox where workspace_id = $1 and type = $2 order by id`,
    [ws.id, type],
  );
  return rows.map((r) => r.data as Record<string, any>);
}

// --- flows, templates, rewards ---

/** A flow (POST /v1/flows): by default 10 points per `order.completed`. */
export function buildFlow(ws: TestWorkspace, overrides: Record<string, unknown> = {}, mode: Mode = 'test') {
  return created(
    ws,
    '/v1/flows',
    {
      name: unique('flow'),
      event_type: 'order.completed',
      actions: [{ type: 'award_points', points: 10 }],
      ...overrides,
    },
    mode,
  );
}

/**
 * A message template (POST /v1/message-templates): by default an e-mail greeting the participant.
 * A template given its own body gets no default subject (an e-mail subject is optional).
 */
export function buildTemplate(
  ws: TestWorkspace,
  overrides: Record<string, unknown> = {},
  mode: Mode = 'test',
) {
  const channel = overrides.channel ?? 'email';
  const defaultSubject = channel === 'email' && !('body' in overrides) && !('subject' in overrides);
  return created(
    ws,
    '/v1/message-templates',
    {
      key: unique('tpl'),
      channel,
      ...(defaultSubject ? { subject: 'Hello {{participant.name}}' } : {}),
      body: 'Hi {{participant.name}}',
      ...overrides,
    },
    mode,
  );
}

/**
 * A reward (POST /v1/rewards): by default a physical one costing 10 points. `codes` loads its
 * code pool (POST /v1/rewards/{id}/codes), for a voucher_code or digital_asset reward.
 */
export async function buildReward(
  ws: TestWorkspace,
  overrides: Record<string, unknown> & { codes?: string[] } = {},
  mode: Mode = 'test',
) {
  const { codes, ...body } = overrides;
  const reward = await created<{ id: number; name: string; [k: string]: unknown }>(
    ws,
    '/v1/rewards',
    { name: unique('reward'), type: 'physical', cost_points: 10, ...body },
    mode,
  );
  if (codes?.length) {
    const res = await ws.api(`/v1/rewards/${reward.id}/codes`, { body: { codes }, mode });
    expect(res.status, res.text).toBeLessThan(300);
  }
  return reward;
}

// --- webhooks ---

export interface BuiltSubscription {
  id: string;
  secret: string;
  url: string;
  /** The real receiver the subscription posts to; it verifies signatures with the secret. */
  receiver: Receiver;
  [k: string]: unknown;
}

/**
 * A webhook subscription (POST /v1/webhook-subscriptions, live unless `mode` says otherwise) to a
 * real loopback receiver that knows the subscription's secret. Starts a receiver unless one is
 * given; close it when the file is done (`closeReceivers()` in `afterAll` closes every one
 * started here).
 */
export async function buildSubscription(
  ws: TestWorkspace,
  opts: {
    receiver?: Receiver;
    /** Appended to the receiver's URL (e.g. `/hook`). */
    path?: string;
    eventTypes?: string[];
    headers?: Record<string, string>;
    mode?: Mode;
  } = {},
): Promise<BuiltSubscription> {
  const receiver = opts.receiver ?? (await buildReceiver());
  const url = `${receiver.url}${opts.path ?? ''}`;
  const sub = await created<{ id: string; secret: string }>(
    ws,
    '/v1/webhook-subscriptions',
    { url, event_types: opts.eventTypes ?? ['*'], ...(opts.headers ? { headers: opts.headers } : {}) },
    opts.mode ?? 'live',
  );
  receiver.setSecret(sub.secret);
  return { ...sub, url, receiver };
}

const receivers = new Set<Receiver>();

/** A loopback webhook receiver (see webhooks-receiver.ts), closed by `closeReceivers()`. */
export async function buildReceiver(opts: { host?: string } = {}): Promise<Receiver> {
  const r = await startReceiver(opts);
  receivers.add(r);
  return r;
}

/** Closes every receiver the factories started in this file. */
export async function closeReceivers(): Promise<void> {
  const all = [...receivers];
  receivers.clear();
  await Promise.all(all.map((r) => r.close()));
}

// --- clients, one per door ---

/** REST /v1 with the workspace's key for `mode` (all through helpers' `request`). */
export function restClient(ws: TestWorkspace, mode: Mode = 'test') {
  const call = (method: string, path: string, init: ApiInit = {}) => ws.api(path, { mode, ...init, method });
  return {
    get: (path: string, init?: ApiInit) => call('GET', path, init),
    post: (path: string, body?: unknown, init?: ApiInit) => call('POST', path, { ...init, body }),
    patch: (path: string, body: unknown, init?: ApiInit) => call('PATCH', path, { ...init, body }),
    put: (path: string, body: unknown, init?: ApiInit) => call('PUT', path, { ...init, body }),
    delete: (path: string, init?: ApiInit) => call('DELETE', path, init),
  };
}

export interface GraphqlClient {
  /** POST /graphql: the raw response (errors included). */
  (query: string, variables?: Record<string, unknown>): Promise<ApiResponse>;
  /** POST /graphql expecting no errors: `data`. */
  data<T = Record<string, any>>(query: string, variables?: Record<string, unknown>): Promise<T>;
}

/**
 * GraphQL with the workspace's key for `mode` (`key` overrides it; `null` sends none). `base`
 * points it at another server of the same database.
 */
export function graphqlClient(
  app: TestApp,
  ws: TestWorkspace | null,
  opts: { mode?: Mode; key?: string | null; base?: string } = {},
): GraphqlClient {
  const key = opts.key !== undefined ? opts.key : (ws?.keys[opts.mode ?? 'test'] ?? null);
  const call = (query: string, variables: Record<string, unknown> = {}) =>
    request(opts.base ?? app.url, '/graphql', { body: { query, variables }, key });
  return Object.assign(call, {
    async data<T>(query: string, variables?: Record<string, unknown>) {
      const res = await call(query, variables);
      expect(res.status, res.text).toBe(200);
      expect(res.body.errors, res.text).toBeUndefined();
      return res.body.data as T;
    },
  });
}

/** The dashboard's tRPC client, signed in as a new user of the workspace. */
export function trpcClient(app: TestApp, ws: TestWorkspace): Promise<TRPCClient<AppRouter>> {
  return signedInDashboard(app, ws);
}

const ROOT = path.resolve(import.meta.dirname, '..');

/** What a finished `svc` command left: its exit code and output. */
export interface SvcRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The real `svc` command run to its end as a child process, in the repository: `bin/svc.mjs` on
 * this Node 24, or `npx svc`. `env` is its whole environment; killed after 60 s.
 */
export function runSvc(args: string[], env: NodeJS.ProcessEnv, via: 'bin' | 'npx' = 'bin'): Promise<SvcRun> {
  const [cmd, argv] =
    via === 'npx' ? ['npx', ['--no', 'svc', ...args]] : [process.execPath, ['bin/svc.mjs', ...args]];
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * Worker processes for one test file: `start()` a real `svc serve --role worker` on the database
 * `databaseUrl()` names (read when called, so it may name the app a `beforeAll` starts), `kill()`
 * one with SIGKILL (resolved once it has exited), `killAll()` for `afterAll`.
 */
export function workerProcesses(databaseUrl: () => string) {
  const children = new Set<ChildProcess>();
  return {
    start: (env: Record<string, string> = {}) =>
      startWorkerProcess(databaseUrl(), (proc) => children.add(proc), env),
    kill: async (proc: ChildProcess) => {
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGKILL');
      await exited;
    },
    killAll: () => {
      for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    },
  };
}

/**
 * A real `svc serve --role worker` child process on `databaseUrl`, resolved once it logs
 * `ready`, with the URL its health and metrics answer on when `env` sets `WORKER_PORT` (else
 * null). `track` receives it before it is ready, so a caller can kill it whatever happens.
 */
export async function startWorkerProcess(
  databaseUrl: string,
  track: (proc: ChildProcess) => void = () => {},
  env: Record<string, string> = {},
): Promise<ChildProcess & { http: string | null; log: () => string }> {
  const proc = spawn(process.execPath, ['src/cli.ts', 'serve', '--role', 'worker'], {
    cwd: ROOT,
    env: testEnv(databaseUrl, { LOG_LEVEL: 'info', ...env }),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  track(proc);
  let stderr = '';
  proc.stderr!.setEncoding('utf8');
  const ready = await new Promise<{ http: string | null }>((resolve, reject) => {
    proc.stderr!.on('data', (chunk: string) => {
      stderr += chunk;
      const line = stderr.split('\n').find((l) => l.includes('"msg":"ready"'));
      if (line) resolve(JSON.parse(line));
    });
    proc.once('exit', () => reject(new Error(`worker exited early:\n${stderr}`)));
  });
  return Object.assign(proc, { http: ready.http, log: () => stderr });
}
