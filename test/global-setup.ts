import path from 'node:path';
import pg from 'pg';
import { PgBoss } from 'pg-boss';
import type { TestProject } from 'vitest/node';
import { ensureDashboardBuilt } from '../scripts/build-dashboard.ts';
import { ensureDatabase, withDatabase } from '../src/db/database.ts';
import { startEmbeddedPostgres } from '../src/db/embedded.ts';
import { migrate, openOrm } from '../src/db/orm.ts';

/**
 * One migrated template database per run (schema + pg-boss tables); every test file clones it
 * with CREATE DATABASE … TEMPLATE, which takes milliseconds. DATABASE_URL names the server to
 * use (CI: the machine's Postgres); without it an embedded Postgres under .svc/test is started.
 */
export default async function setup(project: TestProject) {
  // The browser tests drive the built dashboard: rebuild it first when its sources changed.
  await ensureDashboardBuilt();
  let adminUrl = process.env.DATABASE_URL;
  let stopEmbedded: (() => Promise<void>) | null = null;
  if (!adminUrl) {
    // A cluster of its own, never the one `npm start` uses (which a running service may stop).
    // Passed explicitly: config.ts read SVC_STATE_DIR when this file's imports were loaded.
    const testState = path.resolve('.svc/test');
    process.env.SVC_STATE_DIR = testState;
    const embedded = await startEmbeddedPostgres(() => {}, testState);
    adminUrl = embedded.url;
    stopEmbedded = embedded.stop;
  }
  const template = `svc_tpl_${process.pid}`;
  await dropDatabase(adminUrl, template);
  await ensureDatabase(adminUrl, template);
  const templateUrl = withDatabase(adminUrl, template);
  const orm = await openOrm(templateUrl);
  await migrate(orm, templateUrl);
  await orm.close(true);
  const boss = new PgBoss({
    connectionString: templateUrl,
    schema: 'pgboss',
    supervise: false,
    schedule: false,
  });
  await boss.start();
  await boss.stop({ graceful: false });

  project.provide('adminUrl', adminUrl);
  project.provide('templateDb', template);
  project.provide('runId', String(process.pid));

  return async () => {
    const client = new pg.Client({ connectionString: withDatabase(adminUrl, 'postgres') });
    await client.connect();
    const { rows } = await client.query<{ datname: string }>(
      `select datname from pg_database where datname like 'svc\\_t\\_${process.pid}\\_%' or datname = $1`,
      [template],
    );
    await client.end();
    for (const r of rows) await dropDatabase(adminUrl, r.datname);
    await stopEmbedded?.();
  };
}

async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: withDatabase(adminUrl, 'postgres') });
  await client.connect();
  try {
    await client.query(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`);
  } finally {
    await client.end();
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    adminUrl: string;
    templateDb: string;
    runId: string;
  }
}
