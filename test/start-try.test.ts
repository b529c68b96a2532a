import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, TEST_SECRET } from './helpers.ts';

/**
 * The "Try:" commands `npm start` prints, run as a reader pastes them into a shell: the event
 * must change something the reader sees (alice's balance), and use the body shape the README uses.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const run = promisify(execFile);
let stateDir: string;
let start: ChildProcess | undefined;
let output = '';

beforeAll(async () => {
  stateDir = mkdtempSync(path.join(os.tmpdir(), 'svc-start-try-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: await freshDatabase(),
    SVC_STATE_DIR: stateDir,
    SVC_SECRET: TEST_SECRET,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
  };
  delete env.NODE_OPTIONS;
  start = spawn(process.execPath, ['src/start.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  start.stdout?.on('data', (c: Buffer) => (output += c.toString('utf8')));
  start.stderr?.on('data', (c: Buffer) => (output += c.toString('utf8')));
  const deadline = Date.now() + 90_000;
  while (!/then read her balance:\n\n.*curl[^\n]*\n/.test(output)) {
    if (start.exitCode !== null) throw new Error(`src/start.ts exited early:\n${output}`);
    if (Date.now() > deadline) throw new Error(`src/start.ts printed no demo after 90 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}, 120_000);

afterAll(async () => {
  if (start && start.exitCode === null) {
    const exited = new Promise((r) => start?.once('exit', r));
    start.kill('SIGTERM');
    await exited;
  }
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
});

/** The printed shell commands: each starts with `curl` and continues over lines ending in `\`. */
function printedCommands(text: string): string[] {
  const commands: string[] = [];
  let current: string[] | null = null;
  for (const line of text.split('\n')) {
    if (!current && line.trimStart().startsWith('curl ')) current = [];
    if (!current) continue;
    current.push(line);
    if (!line.trimEnd().endsWith('\\')) {
      commands.push(current.join('\n'));
      current = null;
    }
  }
  return commands;
}

const sh = async (command: string) => JSON.parse((await run('sh', ['-c', command])).stdout);

describe('npm start prints commands that work', () => {
  it('the event earns alice points, and the balance command shows them', async () => {
    const [send, read, ...rest] = printedCommands(output.slice(output.indexOf('Try:')));
    expect(rest).toEqual([]);
    // The README's body shape, not a shorthand.
    expect(send).toContain(
      `-d '{"event_type":"order.completed","participant":{"external_id":"alice"},"payload":{"total":25}}'`,
    );
    const before = await sh(read as string);
    expect(before).toMatchObject({ external_id: 'alice', balance: 62 });

    expect(await sh(send as string)).toMatchObject({ status: 'received' });
    const deadline = Date.now() + 20_000;
    let after = await sh(read as string);
    while (after.balance === before.balance && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      after = await sh(read as string);
    }
    expect(after.balance).toBe(before.balance + 25);
  }, 60_000);
});
