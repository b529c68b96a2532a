import type pg from 'pg';

/** What a statement answers: its rows and how many rows it wrote or read. */
export interface SqlResult<R> {
  rows: R[];
  rowCount: number | null;
}

/**
 * Anything that runs SQL: a unit of work's connection (src/db/unit-of-work.ts), a pooled client,
 * or the pool itself outside a transaction. Repositories take this.
 */
export interface Sql {
  query<R extends object = any>(text: string | Statement, values?: readonly unknown[]): Promise<SqlResult<R>>;
}

/** A statement with its parameters; `name` prepares it once per connection where the connection can. */
export interface Statement {
  name?: string;
  text: string;
  values?: readonly unknown[];
}

/** A pool that lends one connection at a time (node-pg's Pool). */
export interface ClientPool {
  connect(): Promise<Sql & { release(): void }>;
}

/**
 * Runs `fn` in one transaction on a client of `pool`: COMMIT when it resolves, ROLLBACK when it
 * throws. Services use `unitOfWork` (src/db/unit-of-work.ts); this is for the two paths that must
 * hold a raw client: the engine's batch, whose long statements are named so each connection
 * plans them once (bench suite `engine`; the unit of work's Kysely connection sends statements
 * unnamed), and the live hub's start-point read, which runs outside any ORM context.
 */
export async function withTransaction<T>(
  pool: ClientPool,
  fn: (client: Sql) => Promise<T>,
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
