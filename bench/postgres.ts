import pg from 'pg';
import { withDatabase } from '../src/db/database.ts';
import { startEmbeddedPostgres } from '../src/db/embedded.ts';

const LOCAL_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export interface BenchDatabase {
  /** Where the Postgres came from, for the notes. */
  origin: string;
  name: string;
  url: string;
  /** Drops the database and stops an embedded server this run started. */
  drop: () => Promise<void>;
  /** Only stops an embedded server this run started (keeps the database). */
  stopServer: () => Promise<void>;
}

/**
 * A fresh database for one run: on DATABASE_URL if set, else the machine's local Postgres if it
 * answers, else the embedded one (started here and stopped by `drop`).
 */
export async function benchDatabase(log: (msg: string) => void): Promise<BenchDatabase> {
  let adminUrl: string;
  let origin: string;
  let stopServer = async () => {};
  if (process.env.DATABASE_URL) {
    adminUrl = process.env.DATABASE_URL;
    origin = 'DATABASE_URL';
  } else if (await reachable(LOCAL_URL)) {
    adminUrl = LOCAL_URL;
    origin = 'local postgres on 127.0.0.1:5432';
  } else {
    const embedded = await startEmbeddedPostgres(log);
    adminUrl = embedded.url;
    origin = 'embedded postgres';
    stopServer = embedded.stop;
  }

  const name = `svc_bench_${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}_${process.pid}`;
  await admin(adminUrl, `create database ${pg.escapeIdentifier(name)}`);
  const url = withDatabase(adminUrl, name);
  return {
    origin,
    name,
    url,
    drop: async () => {
      await admin(adminUrl, `drop database if exists ${pg.escapeIdentifier(name)} with (force)`);
      await stopServer();
    },
    stopServer,
  };
}

/** Runs `fn` with a client on `url`, closing it afterwards. */
export async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Database-level statements run from the maintenance database of the same server. */
function admin(adminUrl: string, sql: string): Promise<unknown> {
  return withClient(withDatabase(adminUrl, 'postgres'), (c) => c.query(sql));
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
