import type pg from 'pg';

/** Anything that runs SQL: a pooled client inside a transaction, or the pool itself outside one. */
export type Sql = Pick<pg.PoolClient, 'query'>;

/**
 * Runs `fn` in one transaction on a client of the raw pool: COMMIT when it resolves, ROLLBACK
 * when it throws. Hot paths and multi-table invariants (ledger, redemptions, outbox) use this
 * rather than a MikroORM unit of work; pg-boss jobs join it through `clientDb(client)`.
 */
export async function withTransaction<T>(
  pool: pg.Pool,
  fn: (client: pg.PoolClient) => Promise<T>,
  opts: { isolation?: 'read committed' | 'repeatable read' | 'serializable' } = {},
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(opts.isolation ? `begin isolation level ${opts.isolation}` : 'begin');
    const result = await fn(client);
    await client.query('commit');
    return result;
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

/**
 * pg-pool listens for `error` on idle clients only. A checked-out client whose connection dies
 * between two of its queries (Postgres restarting while a worker holds its message's session lock
 * across an SMTP send, or while a transaction awaits something else) emits `error` with no
 * listener, and Node ends the process. Every client of `pool` gets a listener for its whole life:
 * the broken client refuses its next query (an ordinary error), and the pool discards it on release.
 */
export function survivePoolClientErrors(pool: pg.Pool, onError: (err: Error) => void): void {
  pool.on('connect', (client) => client.on('error', onError));
}

/** The SQLSTATE of a unique-constraint violation, and its constraint name when it is one. */
export function uniqueViolation(err: unknown): string | null {
  const e = err as { code?: string; constraint?: string };
  return e?.code === '23505' ? (e.constraint ?? '') : null;
}
