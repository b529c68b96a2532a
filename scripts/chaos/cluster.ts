import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import path from 'node:path';
import { freePort, ROOT } from '../../bench/processes.ts';
import { startEmbeddedPostgres } from '../../src/db/embedded.ts';

export type Role = 'api' | 'worker';
export const PROCESS_NAMES = ['api0', 'api1', 'worker0', 'worker1'] as const;
export type ProcessName = (typeof PROCESS_NAMES)[number];

/** The run's own embedded Postgres: its own data directory and port, stopped and started in place. */
export class Postgres {
  url = '';
  private stopFn: (() => Promise<void>) | null = null;
  private readonly root: string;
  constructor(root: string) {
    this.root = root;
  }

  async start(): Promise<void> {
    const pg = await startEmbeddedPostgres(() => {}, this.root);
    this.url = pg.url;
    this.stopFn = pg.stop;
  }

  async stop(): Promise<void> {
    await this.stopFn?.();
    this.stopFn = null;
  }
}

interface Member {
  name: ProcessName;
  role: Role;
  child: ChildProcess | null;
  /** The API's base URL while it is up (null while down or starting). */
  url: string | null;
  killedByUs: boolean;
}

/**
 * Two `svc serve --role api` and two `--role worker` processes, kept alive: a SIGKILLed process is
 * restarted at once (a start that fails, e.g. while Postgres is down, is retried every second), and
 * one that exits without being killed is counted and restarted too.
 */
export class Cluster {
  readonly members = new Map<ProcessName, Member>();
  unexpectedExits: { name: string; code: number | null; signal: string | null; at: number }[] = [];
  starts = 0;
  private stopping = false;
  private readonly log: WriteStream;
  private readonly env: Record<string, string>;

  constructor(env: Record<string, string>, logDir: string) {
    this.env = env;
    this.log = createWriteStream(path.join(logDir, 'services.log'));
    for (const name of PROCESS_NAMES)
      this.members.set(name, {
        name,
        role: name.startsWith('api') ? 'api' : 'worker',
        child: null,
        url: null,
        killedByUs: false,
      });
  }

  apiUrls(): string[] {
    return ['api0', 'api1']
      .map((n) => this.members.get(n as ProcessName)!.url)
      .filter((u): u is string => !!u);
  }

  async startAll(): Promise<void> {
    await Promise.all(PROCESS_NAMES.map((n) => this.start(n)));
  }

  /** Starts a member and resolves once it is ready (retrying failed starts until it is). */
  async start(name: ProcessName): Promise<void> {
    const m = this.members.get(name)!;
    for (;;) {
      if (this.stopping) return;
      try {
        await this.spawnOnce(m);
        return;
      } catch (err) {
        this.log.write(`[chaos] ${name} failed to start: ${(err as Error).message}\n`);
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  }

  private async spawnOnce(m: Member): Promise<void> {
    const port = m.role === 'api' ? await freePort() : 0;
    const child = spawn(process.execPath, ['src/cli.ts', 'serve', '--role', m.role], {
      cwd: ROOT,
      env: { ...process.env, ...this.env, HOST: '127.0.0.1', PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.starts++;
    m.child = child;
    m.killedByUs = false;
    let seen = '';
    let isReady = false;
    const ready = new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        const s = chunk.toString('utf8');
        // Info lines (request logs) are only scanned for readiness; warnings and worse are kept.
        for (const l of s.split('\n'))
          if (l && !/"level":(10|20|30),/.test(l)) this.log.write(`[${m.name}] ${l}\n`);
        if (isReady) return;
        seen = (seen + s).slice(-10_000);
        if (seen.includes('"msg":"ready"')) {
          isReady = true;
          resolve();
        }
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('exit', (code, signal) => reject(new Error(`exited (${code ?? signal}) before ready`)));
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    try {
      await ready;
    } finally {
      clearTimeout(timer);
    }
    m.url = m.role === 'api' ? `http://127.0.0.1:${port}` : null;
    child.once('exit', (code, signal) => {
      if (m.child !== child) return;
      m.url = null;
      m.child = null;
      if (this.stopping) return;
      if (!m.killedByUs) {
        this.unexpectedExits.push({ name: m.name, code, signal, at: Date.now() });
        this.log.write(`[chaos] ${m.name} exited unexpectedly (${code ?? signal}); restarting\n`);
      }
      void this.start(m.name);
    });
  }

  /** SIGKILLs a member; it restarts on its own (see the exit handler). */
  kill(name: ProcessName): boolean {
    const m = this.members.get(name)!;
    if (!m.child) return false;
    m.killedByUs = true;
    m.url = null;
    m.child.kill('SIGKILL');
    return true;
  }

  /** Resolves once every member is up (bounded). */
  async allUp(timeoutMs = 120_000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const up = [...this.members.values()].every((m) => m.child && (m.role === 'worker' || m.url));
      if (up) return true;
      await new Promise((r) => setTimeout(r, 250));
    }
    return false;
  }

  async stopAll(): Promise<void> {
    this.stopping = true;
    await Promise.all(
      [...this.members.values()].map(async (m) => {
        const c = m.child;
        if (!c || c.exitCode !== null || c.signalCode !== null) return;
        const exited = new Promise((r) => c.once('exit', r));
        c.kill('SIGTERM');
        const t = setTimeout(() => c.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(t);
      }),
    );
    this.log.end();
  }
}
