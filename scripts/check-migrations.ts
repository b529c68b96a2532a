// Fails when the entities and the committed migrations disagree: applies every migration to a
// scratch database, then asks MikroORM whether the schema it would generate differs.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { ensureDatabase, withDatabase } from '../src/db/database.ts';
import { startEmbeddedPostgres } from '../src/db/embedded.ts';
import { migrate, openOrm } from '../src/db/orm.ts';

const embedded = process.env.DATABASE_URL ? null : await startEmbeddedPostgres();
const admin = process.env.DATABASE_URL ?? embedded!.url;
const name = `svc_migcheck_${randomBytes(4).toString('hex')}`;
await ensureDatabase(admin, name);
const url = withDatabase(admin, name);
let stale = false;
try {
  const orm = await openOrm(url);
  await migrate(orm, url);
  stale = await orm.migrator.checkSchema();
  if (stale) {
    const diff = await orm.schema.getUpdateSchemaSQL({ wrap: false });
    console.error(
      `The entities differ from the committed migrations. Run \`npm run migration:create\`.\n${diff}`,
    );
  }
  await orm.close(true);
} finally {
  const c = new pg.Client({ connectionString: withDatabase(admin, 'postgres') });
  await c.connect();
  await c.query(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`);
  await c.end();
  await embedded?.stop();
}
if (stale) process.exit(1);
console.error('migrations match the entities');
