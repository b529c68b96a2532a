import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * `npm start` as a person (or a supervisor) runs it: the real npm, the embedded Postgres in a
 * state directory of its own, and a signal to one process of the tree. Every process of the tree
 * (npm, node, the postmaster and its backends) must be gone soon after, and the shutdown must be
 * the graceful one: no error logged, exit code 0, Postgres's pid file removed by its own shutdown.
 *
 * Before the fix, npm passed SIGTERM to the `sh -c` it ran the script with; the shell died and
 * left node and Postgres running as orphans. A Ctrl-C reached Postgres directly (same process
 * group), which cut the service's connections while it was still draining.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
let stateDir: string;
const started: ChildProcess[] = [];

beforeAll(() => {
  stateDir = mkdtempSync(path.join(os.tmpdir(), 'svc-start-signals-'));
  // Postgres runs as the `postgres` user when the tests run as root: it must reach its data.
  chmodSync(stateDir, 0o755);
});
afterAll(() => {
  for (const p of started) if (p.pid && p.exitCode === null) killGroup(p.pid, 'SIGKILL');
  const pidFile = path.join(stateDir, 'pg', 'data', 'postmaster.pid');
  if (existsSync(pidFile)) {
    const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
    killGroup(pid, 'SIGKILL');
  }
  rmSync(stateDir, { recursive: true, force: true });
});

interface Started {
  npm: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output: () => string;
  /** Every process of the tree while it runs: npm, node, the postmaster and its children. */
  tree: number[];
  node: number;
}

/** `npm start` (or `npm run svc -- serve`), up: its demo printed (or `ready` logged). */
async function npmStart(args = ['start'], ready = 'svc is running'): Promise<Started> {
  const env: NodeJS.ProcessEnv = { ...process.env, SVC_STATE_DIR: stateDir, PORT: '0', HOST: '127.0.0.1' };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  delete env.NODE_OPTIONS;
  // Its own process group, like a shell's foreground job: a Ctrl-C is a SIGINT to the group.
  const npm = spawn('npm', args, { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(npm);
  let out = '';
  npm.stdout!.on('data', (c: Buffer) => (out += c.toString('utf8')));
  npm.stderr!.on('data', (c: Buffer) => (out += c.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    npm.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const deadline = Date.now() + 60_000;
  while (!out.includes(ready)) {
    if (npm.exitCode !== null) throw new Error(`npm start exited early:\n${out}`);
    if (Date.now() > deadline) throw new Error(`npm start not running after 60 s:\n${out}`);
    await sleep(100);
  }
  const tree = descendants(npm.pid!);
  const node = tree.find((pid) => pid !== npm.pid && /src\/(start|cli)\.ts/.test(commandOf(pid)));
  if (!node) throw new Error(`no node process under npm: ${tree.map(commandOf).join(' | ')}`);
  expect(tree.some((pid) => commandOf(pid).includes('postgres'))).toBe(true);
  return { npm, exited, output: () => out, tree, node };
}

/** Waits until none of `pids` is alive; the ones still alive after `ms`. */
async function gone(pids: number[], ms: number): Promise<number[]> {
  const deadline = Date.now() + ms;
  let alive = pids.filter(isAlive);
  while (alive.length && Date.now() < deadline) {
    await sleep(100);
    alive = alive.filter(isAlive);
  }
  return alive.map((pid) => pid);
}

function expectCleanStop(s: Started, reason: string, alive: number[]): void {
  expect(alive.map((pid) => `${pid} ${commandOf(pid)}`)).toEqual([]);
  const lines = s
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { level: number; msg: string; reason?: string });
  expect(lines.find((l) => l.msg === 'stopping')?.reason).toBe(reason);
  expect(lines.some((l) => l.msg === 'shutting down')).toBe(true);
  // No error or warning on the way down (a dropped connection, a failed shutdown).
  expect(lines.filter((l) => l.level >= 40)).toEqual([]);
  // Postgres removes its pid file only on a shutdown of its own (not on SIGKILL).
  expect(existsSync(path.join(stateDir, 'pg', 'data', 'postmaster.pid'))).toBe(false);
}

describe('npm start stops cleanly whichever of its processes gets the signal', () => {
  it('SIGTERM to the npm process (a supervisor): npm, node and every postgres process exit', async () => {
    const s = await npmStart();
    process.kill(s.npm.pid!, 'SIGTERM');
    const alive = await gone(s.tree, 20_000);
    expectCleanStop(s, 'SIGTERM', alive);
    // npm waits for node's graceful shutdown and reports its exit code.
    expect(await s.exited).toEqual({ code: 0, signal: null });
  }, 90_000);

  it('SIGINT to the whole process group (Ctrl-C in a terminal): the same, without cutting connections first', async () => {
    const s = await npmStart();
    killGroup(s.npm.pid!, 'SIGINT');
    const alive = await gone(s.tree, 20_000);
    expectCleanStop(s, 'SIGINT', alive);
    expect((await s.exited).code).toBe(0);
  }, 60_000);

  it('SIGTERM to the node process alone: the same, and npm exits with it', async () => {
    const s = await npmStart();
    process.kill(s.node, 'SIGTERM');
    const alive = await gone(s.tree, 20_000);
    expectCleanStop(s, 'SIGTERM', alive);
    expect((await s.exited).code).toBe(0);
  }, 60_000);

  it('`npm run svc -- serve`: SIGTERM to npm stops it the same way', async () => {
    const s = await npmStart(['run', 'svc', '--', 'serve'], '"msg":"ready"');
    process.kill(s.npm.pid!, 'SIGTERM');
    const alive = await gone(s.tree, 20_000);
    expectCleanStop(s, 'SIGTERM', alive);
    expect((await s.exited).code).toBe(0);
  }, 60_000);

  it('SIGKILL to npm (nothing forwarded): node notices its parent is gone and stops as on SIGTERM', async () => {
    const s = await npmStart();
    process.kill(s.npm.pid!, 'SIGKILL');
    const alive = await gone(s.tree, 20_000);
    expectCleanStop(s, 'parent process exited', alive);
  }, 60_000);
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function isAlive(pid: number): boolean {
  try {
    // A zombie (exited, not yet reaped by its parent) counts as gone.
    return !/\)\s+Z\s/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
  } catch {
    return '(gone)';
  }
}

/** `root` and every process below it, from /proc's parent links. */
function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // exited while we looked
    }
  }
  const out: number[] = [];
  const walk = (pid: number) => {
    out.push(pid);
    for (const c of children.get(pid) ?? []) walk(c);
  };
  walk(root);
  return out;
}
