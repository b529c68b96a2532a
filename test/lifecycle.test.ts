import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../src/context.ts';
import { openOrm } from '../src/db/orm.ts';
import { issueKey } from '../src/services/keys/manage-keys.ts';
import { createWorkspace } from '../src/services/workspaces/create-workspace.ts';
import { eventually, freshDatabase, request, testEnv } from './helpers.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const children = new Set<ServeProcess>();

afterAll(async () => {
  for (const child of children) {
    if (child.proc.exitCode === null && child.proc.signalCode === null) child.proc.kill('SIGKILL');
    await child.exited;
  }
});

interface LogLine {
  msg?: string;
  [k: string]: unknown;
}

interface ServeProcess {
  proc: ChildProcess;
  logs: LogLine[];
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * `<entry> serve <args>` as a child process on Node 24 (`src/cli.ts` runs as TypeScript,
 * `bin/svc.mjs` is the package's bin), logging JSON at info on stderr.
 */
function serve(
  entry: 'src/cli.ts' | 'bin/svc.mjs',
  args: string[],
  databaseUrl: string,
  env: Record<string, string> = {},
): ServeProcess {
  const proc = spawn(process.execPath, [entry, 'serve', ...args], {
    cwd: ROOT,
    env: testEnv(databaseUrl, { LOG_LEVEL: 'info', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: LogLine[] = [];
  let stderr = '';
  let partial = '';
  proc.stderr!.setEncoding('utf8');
  proc.stderr!.on('data', (chunk: string) => {
    stderr += chunk;
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      try {
        logs.push(JSON.parse(line));
      } catch {
        // not a log line (a crash message): kept in `stderr`
      }
    }
  });
  proc.stdout!.resume();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const child = { proc, logs, stderr: () => stderr, exited };
  children.add(child);
  return child;
}

/** Resolves with the first log line carrying `msg`; fails early if the process dies first. */
async function waitForLog(child: ServeProcess, msg: string, timeoutMs = 30_000): Promise<LogLine> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const line = child.logs.find((l) => l.msg === msg);
    if (line) return line;
    if (child.proc.exitCode !== null || child.proc.signalCode !== null)
      throw new Error(`process exited before logging '${msg}':\n${child.stderr()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no '${msg}' log within ${timeoutMs} ms:\n${child.stderr()}`);
}

async function exitWithin(child: ServeProcess, ms: number) {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still running ${ms} ms later:\n${child.stderr()}`)), ms);
  });
  try {
    return await Promise.race([child.exited, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A workspace and a full-access test key in `databaseUrl`, made without starting a server. */
async function seedKey(databaseUrl: string): Promise<string> {
  const orm = await openOrm(databaseUrl);
  try {
    const ctx = { orm } as unknown as AppContext; // these two services use nothing else
    await createWorkspace(ctx, { slug: 'life' });
    return (await issueKey(ctx, { workspace: 'life', mode: 'test', abilities: [] })).key;
  } finally {
    await orm.close(true);
  }
}

async function query<T extends pg.QueryResultRow>(databaseUrl: string, sql: string, params: unknown[] = []) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** TCP sockets in LISTEN state that `pid` holds (Linux /proc), or null where /proc is unavailable. */
function listeningSockets(pid: number): number | null {
  if (!existsSync(`/proc/${pid}/fd`) || !existsSync('/proc/net/tcp')) return null;
  const listening = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(table)) continue;
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols[3] === '0A' && cols[9]) listening.add(cols[9]);
    }
  }
  let n = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
      if (inode && listening.has(inode)) n++;
    } catch {
      // the fd closed while we looked
    }
  }
  return n;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

const event = (externalId: string) => ({
  event_type: 'order.completed',
  participant: { external_id: externalId },
});

describe('durability', () => {
  it('keeps every accepted event through a SIGKILL of the API process; a worker started later processes all of them', async () => {
    const db = await freshDatabase();
    const key = await seedKey(db);

    const apiOnly = serve('src/cli.ts', ['--role', 'api'], db);
    const ready = await waitForLog(apiOnly, 'listening');
    const url = String(ready.url);
    expect(listeningSockets(apiOnly.proc.pid!)).not.toBe(0);

    const responses = await Promise.all(
      Array.from({ length: 60 }, (_, i) => request(url, '/v1/events', { key, body: event(`dur-${i}`) })),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(60).fill(202));
    const ids = responses.map((r) => r.body.event_id as string);

    // The api role runs no workers: nothing gets processed while it is the only process. A
    // deliberate window: nothing is supposed to happen, so there is no event to wait for.
    await new Promise((r) => setTimeout(r, 2_500));
    const before = await query<{ status: string }>(
      db,
      'select status from events where id = any($1::uuid[])',
      [ids],
    );
    expect(before).toHaveLength(60);
    expect(new Set(before.map((r) => r.status))).toEqual(new Set(['received']));

    apiOnly.proc.kill('SIGKILL');
    expect(await exitWithin(apiOnly, 10_000)).toEqual({ code: null, signal: 'SIGKILL' });

    const worker = serve('src/cli.ts', ['--role', 'worker'], db);
    await waitForLog(worker, 'ready');
    // 60 jobs are more than one fetch (batch 50). The backlog left by the dead process sends no
    // NOTIFY, so today the last 10 wait for pg-boss's 30 s notify backstop; a worker that keeps
    // fetching while batches come back full (burstWhenBatchFull) processes them in ~1 s.
    await eventually(async () => {
      const rows = await query<{ n: string }>(
        db,
        `select count(*) as n from events where id = any($1::uuid[]) and status = 'processed'`,
        [ids],
      );
      return Number(rows[0]?.n) === 60;
    }, 45_000);
    const all = await query<{ n: string }>(db, 'select count(*) as n from events');
    expect(Number(all[0]?.n)).toBe(60);

    worker.proc.kill('SIGTERM');
    expect(await exitWithin(worker, 20_000)).toEqual({ code: 0, signal: null });
  }, 90_000);
});

interface BurstResult {
  externalId: string;
  status?: number;
  eventId?: string;
  error?: string;
  /** Milliseconds after the SIGTERM (negative: before it). */
  at: number;
}

/** One POST /v1/events over `agent`; resolves with the status or the socket error, never rejects. */
function postOver(agent: http.Agent, url: string, key: string, externalId: string, t0: () => number) {
  return new Promise<BurstResult>((resolve) => {
    const body = JSON.stringify(event(externalId));
    const req = http.request(`${url}/v1/events`, {
      method: 'POST',
      agent,
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
      },
    });
    req.on('error', (err: NodeJS.ErrnoException) =>
      resolve({ externalId, error: err.code ?? err.message, at: Date.now() - t0() }),
    );
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => {
        text += d;
      });
      res.on('error', (err: NodeJS.ErrnoException) =>
        resolve({ externalId, error: `response ${err.code ?? err.message}`, at: Date.now() - t0() }),
      );
      res.on('end', () => {
        let eventId: string | undefined;
        try {
          eventId = JSON.parse(text).event_id;
        } catch {
          // not JSON: the status says enough
        }
        resolve({ externalId, status: res.statusCode, eventId, at: Date.now() - t0() });
      });
    });
    req.end(body);
  });
}

describe('graceful shutdown', () => {
  it('on SIGTERM during a burst, stores every request it answered 202, resets none it accepted, and exits 0', async () => {
    const db = await freshDatabase();
    const key = await seedKey(db);
    const server = serve('src/cli.ts', [], db);
    const url = String((await waitForLog(server, 'listening')).url);

    // Keep-alive connections, as real clients use: a response in flight at SIGTERM must not
    // leave its socket open (the server would wait out keepAliveTimeout) or be cut.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 48 });
    let sigtermAt = 0;
    const sinceSigterm = () => (sigtermAt ? sigtermAt : Date.now() + 1e9);
    let answered = 0;
    const burst = Array.from({ length: 600 }, (_, i) =>
      postOver(agent, url, key, `burst-${i}`, sinceSigterm).then((r) => {
        answered++;
        return r;
      }),
    );
    await eventually(async () => answered >= 40, 20_000);
    server.proc.kill('SIGTERM');
    sigtermAt = Date.now();
    const results = await Promise.all(burst);
    const exit = await exitWithin(server, 30_000);
    agent.destroy();

    expect(exit).toEqual({ code: 0, signal: null });
    const accepted = results.filter((r) => r.status === 202);
    const failed = results.filter((r) => r.error);
    // Every request got a 202 or a connection-level refusal; nothing else (no 5xx while draining).
    expect(results.filter((r) => r.status !== undefined && r.status !== 202)).toEqual([]);
    expect(accepted.length + failed.length).toBe(600);
    expect(accepted.length).toBeGreaterThanOrEqual(40);
    // Requests were really in flight: some answers came after the signal.
    expect(accepted.filter((r) => r.at >= 0).length).toBeGreaterThan(0);

    const stored = await query<{ id: string; external_id: string }>(db, 'select id, external_id from events');
    const storedIds = new Set(stored.map((r) => r.id));
    const storedExternal = new Set(stored.map((r) => r.external_id));
    // Every 202 is durable …
    expect(accepted.filter((r) => !r.eventId || !storedIds.has(r.eventId))).toEqual([]);
    // … and every failure happened before the server took the request: none of them was stored
    // (a stored event whose caller saw a reset would be a request accepted and then cut off).
    expect(failed.filter((r) => storedExternal.has(r.externalId))).toEqual([]);
    expect(stored).toHaveLength(accepted.length);
    for (const f of failed) expect(['ECONNREFUSED', 'ECONNRESET', 'EPIPE']).toContain(f.error);
  }, 90_000);
});

describe('roles', () => {
  it('`svc serve` with SVC_ROLE=worker runs the workers and serves no HTTP', async () => {
    const db = await freshDatabase();
    const port = await freePort();
    const worker = serve('bin/svc.mjs', [], db, { SVC_ROLE: 'worker', PORT: String(port) });
    const ready = await waitForLog(worker, 'ready');
    expect(ready).toMatchObject({ role: 'worker', workers: true, http: null });
    expect(worker.logs.find((l) => l.msg === 'listening')).toBeUndefined();

    const refused = await new Promise<string>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve('connected');
      });
      socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    });
    expect(refused).toBe('ECONNREFUSED');
    const listening = listeningSockets(worker.proc.pid!);
    if (listening !== null) expect(listening).toBe(0); // on no port at all, not just PORT

    worker.proc.kill('SIGTERM');
    expect(await exitWithin(worker, 20_000)).toEqual({ code: 0, signal: null });
  }, 60_000);
});
