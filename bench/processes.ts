import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import { fileURLToPath } from 'node:url';

/** The repository root: children run from here so `src/cli.ts` and `.svc` resolve as in `npm run`. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface ServerProcess {
  name: string;
  pid: number;
  url: string;
  /** SIGTERM (graceful shutdown), SIGKILL if it has not exited after 20 s. */
  stop: () => Promise<void>;
}

/**
 * Spawns `node <args>` with the same Node binary as the bench (Node 24 under `npm run`) on a free
 * port of 127.0.0.1, and resolves once GET `readyPath` answers 200. The child's stdout and stderr
 * go to the bench's stderr so stdout carries only result lines.
 */
export async function startServerProcess(
  name: string,
  args: string[],
  env: Record<string, string>,
  readyPath: string,
): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env, HOST: '127.0.0.1', PORT: String(port) },
    stdio: ['ignore', 2, 2],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode} before ready`);
    if (Date.now() > deadline) {
      await stopChild(child, exited);
      throw new Error(`${name} not ready after 60 s`);
    }
    const ok = await fetch(`${url}${readyPath}`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return { name, pid: child.pid!, url, stop: () => stopChild(child, exited) };
}

async function stopChild(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await exited;
  clearTimeout(timer);
}

/** `node src/cli.ts <args> --json` against `env`; its one JSON object. */
export function runCli(args: string[], env: Record<string, string>): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['src/cli.ts', ...args, '--json'],
      { cwd: ROOT, env: { ...process.env, ...env } },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`svc ${args.join(' ')} failed: ${stderr || err.message}`));
        else resolve(JSON.parse(stdout));
      },
    );
  });
}

/** Samples a process's resident set size (VmRSS from /proc) and keeps the maximum. */
export class RssSampler {
  private readonly pid: number;
  private timer: NodeJS.Timeout | null = null;
  private maxKb = 0;

  constructor(pid: number) {
    this.pid = pid;
  }

  start(intervalMs = 200): void {
    this.maxKb = 0;
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
  }

  /** Stops sampling; the maximum in MB (null where /proc is unavailable). */
  stop(): number | null {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.sample();
    return this.maxKb ? Math.round(this.maxKb / 102.4) / 10 : null;
  }

  private sample(): void {
    try {
      const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${this.pid}/status`, 'utf8'));
      if (m) this.maxKb = Math.max(this.maxKb, Number(m[1]));
    } catch {
      // the process is gone or /proc is missing: keep what we have
    }
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** CPU seconds (utime + stime) per process group, from /proc; empty where /proc is missing. */
export type CpuSnapshot = Map<number, { group: string; seconds: number }>;

const CLOCK_TICKS = 100; // USER_HZ on Linux

/**
 * Every process's CPU time, grouped as the bench sees them: its own processes (`mine`, by pid),
 * the Postgres backends serving the bench database, the rest of Postgres (WAL writer, other
 * databases' backends) and everything else on the machine.
 */
export function cpuSnapshot(mine: Record<string, number>, database: string): CpuSnapshot {
  const byPid = new Map(Object.entries(mine).map(([group, pid]) => [pid, group]));
  const snap: CpuSnapshot = new Map();
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return snap;
  }
  for (const p of pids) {
    const pid = Number(p);
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const seconds = (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
      let group = byPid.get(pid);
      if (!group) {
        const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        if (cmd.startsWith('postgres:'))
          group = cmd.includes(database) ? 'postgres (bench db)' : 'postgres (other)';
        else group = 'other processes';
      }
      snap.set(pid, { group, seconds });
    } catch {
      // exited while we looked
    }
  }
  return snap;
}

/** Average CPU use per group between two snapshots, in % of one core. */
export function cpuUse(before: CpuSnapshot, after: CpuSnapshot, wallSeconds: number): Record<string, number> {
  const use: Record<string, number> = {};
  for (const [pid, a] of after) {
    const b = before.get(pid);
    const spent = a.seconds - (b && b.group === a.group ? b.seconds : 0);
    use[a.group] = (use[a.group] ?? 0) + spent;
  }
  for (const g of Object.keys(use)) use[g] = Math.round((use[g]! / wallSeconds) * 100);
  return use;
}
