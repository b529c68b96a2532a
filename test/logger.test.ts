import pg from 'pg';
import pino from 'pino';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { createLogger } from '../src/logger.ts';
import { eventually } from './helpers.ts';

/**
 * The error a pool emits when the server drops one of its idle connections (as Postgres does on
 * shutdown) carries the whole pg client (`err.client`): pino's default serializer wrote all of it,
 * 12 KB a line. The service's logger writes type, message, code (and, outside production, the top
 * of the stack) only.
 */
const pools: pg.Pool[] = [];
const env = process.env.NODE_ENV;
afterEach(async () => {
  process.env.NODE_ENV = env;
  await Promise.all(pools.splice(0).map((p) => p.end().catch(() => {})));
});

/** A real idle-client error: a pooled connection the server terminates. */
async function idleClientError(): Promise<Error & { client?: unknown; code?: string }> {
  const url = inject('adminUrl');
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  pools.push(pool);
  const errors: (Error & { client?: unknown })[] = [];
  pool.on('error', (err) => errors.push(err));
  const { rows } = await pool.query<{ pid: number }>('select pg_backend_pid() as pid');
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
  await admin.end();
  return eventually(async () => errors[0]);
}

function capture() {
  const lines: string[] = [];
  const log = createLogger('info', { write: (s: string) => lines.push(s) });
  return { log, lines };
}

describe('error logging', () => {
  it('a pg idle-client error (with its client attached) logs in under 1 KB: type, message, code, no client', async () => {
    const err = await idleClientError();
    expect(err.client).toBeDefined();
    expect(err.code).toBe('57P01');
    // What pino's own serializer would have written: the whole client.
    expect(JSON.stringify(pino.stdSerializers.err(err)).length).toBeGreaterThan(2048);

    for (const mode of ['production', 'development']) {
      process.env.NODE_ENV = mode;
      const { log, lines } = capture();
      log.error({ err }, 'idle postgres client error');
      expect(lines).toHaveLength(1);
      expect(Buffer.byteLength(lines[0]!)).toBeLessThan(1024);
      const line = JSON.parse(lines[0]!);
      expect(Object.keys(line.err).sort()).toEqual(
        mode === 'production' ? ['code', 'message', 'type'] : ['code', 'message', 'stack', 'type'],
      );
      expect(line.err).toMatchObject({
        code: '57P01',
        message: 'terminating connection due to administrator command',
      });
      if (mode === 'development') expect(line.err.stack.split('\n').length).toBeLessThanOrEqual(5);
    }
  });

  it('a cause is kept (type, message, code), and a thrown non-Error is a message', () => {
    process.env.NODE_ENV = 'production';
    const { log, lines } = capture();
    const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), {
      code: 'ECONNREFUSED',
      socket: { huge: 'x'.repeat(5000) },
    });
    log.error({ err: new Error('could not reach the database', { cause }) }, 'failed');
    log.warn({ err: 'plain string' }, 'odd');
    const [a, b] = lines.map((l) => JSON.parse(l));
    expect(a.err).toEqual({
      type: 'Error',
      message: 'could not reach the database',
      cause: { type: 'Error', message: 'connect ECONNREFUSED 127.0.0.1:1', code: 'ECONNREFUSED' },
    });
    expect(b.err).toEqual({ message: 'plain string' });
  });
});
