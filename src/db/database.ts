import pg from 'pg';
import type { Config } from '../config.ts';
import { startEmbeddedPostgres } from './embedded.ts';

export interface Database {
  url: string;
  /** Stops the embedded server when this process started it; a no-op for DATABASE_URL. */
  stop: () => Promise<void>;
}

/** `DATABASE_URL` when set; otherwise the embedded Postgres under ./.svc with a `svc` database. */
export async function resolveDatabase(config: Config, log: (msg: string) => void): Promise<Database> {
  if (config.DATABASE_URL) return { url: config.DATABASE_URL, stop: async () => {} };
  const embedded = await startEmbeddedPostgres(log);
  await ensureDatabase(embedded.url, 'svc');
  return { url: withDatabase(embedded.url, 'svc'), stop: embedded.stop };
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** Creates the database when missing; two processes racing to create it both succeed. */
export async function ensureDatabase(adminUrl: string, database: string, template?: string): Promise<void> {
  const client = new pg.Client({ connectionString: withDatabase(adminUrl, 'postgres') });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (rowCount) return;
    const from = template ? ` template ${pg.escapeIdentifier(template)}` : '';
    await client
      .query(`create database ${pg.escapeIdentifier(database)}${from}`)
      .catch((e: { code?: string }) => {
        if (e.code !== '42P04') throw e; // duplicate_database: someone else made it first
      });
  } finally {
    await client.end();
  }
}
