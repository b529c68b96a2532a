import { createServer, type Server } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { StartupError } from '../src/errors.ts';
import { startServer } from '../src/server.ts';
import { runSvc } from './factories.ts';
import { eventually, freshDatabase, testEnv } from './helpers.ts';

// A start that cannot finish (a busy port, a bad setting) is said in one line an operator can
// act on, and leaves nothing running: not the workers, not a pool's connection.
let databaseUrl: string;
let busy: Server;
let busyPort: number;

beforeAll(async () => {
  databaseUrl = await freshDatabase();
  busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  busyPort = (busy.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => busy.close(() => resolve())));

/** `svc serve` with `env` on this file's database; its exit code and output. */
const serve = (env: Record<string, string>, role = 'all') =>
  runSvc(['serve', '--role', role], testEnv(databaseUrl, env));

describe('a start that cannot finish', () => {
  it('in process: rejects with StartupError naming the setting, and closes what it had opened', async () => {
    const config = loadConfig(testEnv(databaseUrl, { PORT: String(busyPort) }));
    const started = startServer(config, { role: 'all' });
    await expect(started).rejects.toThrow(StartupError);
    await expect(started).rejects.toThrow(
      `cannot listen on 127.0.0.1:${busyPort}: the address is already in use (set PORT to a free port, or HOST)`,
    );
    // The workers, pg-boss and every pool were closed: no connection of it is left on its database.
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    try {
      await eventually(async () => {
        const { rows } = await admin.query<{ n: number }>(
          `select count(*)::int n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
        );
        return rows[0]!.n === 0;
      }, 10_000);
    } finally {
      await admin.end();
    }
  }, 30_000);

  it('svc serve: one line naming the setting, no stack, exit 1 (PORT, WORKER_PORT, a bad value)', async () => {
    const cases: [Record<string, string>, string, RegExp][] = [
      [
        { PORT: String(busyPort) },
        'all',
        new RegExp(
          `^svc: cannot listen on 127\\.0\\.0\\.1:${busyPort}: the address is already in use \\(set PORT to a free port, or HOST\\)\\n$`,
        ),
      ],
      [
        { WORKER_PORT: String(busyPort) },
        'worker',
        new RegExp(
          `^svc: cannot listen on 127\\.0\\.0\\.1:${busyPort}: .*\\(set WORKER_PORT to a free port, or HOST\\)\\n$`,
        ),
      ],
      [{ PORT: 'abc' }, 'all', /^svc: invalid configuration:\n {2}PORT: .+\n$/],
    ];
    for (const [env, role, expected] of cases) {
      const { code, stderr } = await serve({ LOG_LEVEL: 'warn', ...env }, role);
      expect(code, stderr).toBe(1);
      // Besides the reason, only the start's warning about a Postgres without autovacuum (this
      // machine's) may be printed.
      const reason = stderr
        .split('\n')
        .filter((l) => !l.includes('"msg":"postgres runs with autovacuum off'))
        .join('\n');
      expect(reason).toMatch(expected);
      expect(stderr).not.toMatch(/\n\s+at /);
    }
  }, 60_000);
});
