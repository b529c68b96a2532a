import { Migrator } from '@mikro-orm/migrations';
import { defineConfig, MikroORM, type Options } from '@mikro-orm/postgresql';
import pg from 'pg';
import { entities } from '../services/entities.ts';
import { migrations } from './migrations/index.ts';

/** One ORM configuration for the service, the CLI, tests and `mikro-orm migration:*`. */
export function ormConfig(clientUrl: string, extra: Partial<Options> = {}): Options {
  return defineConfig({
    clientUrl,
    entities,
    extensions: [Migrator],
    migrations: {
      migrationsList: migrations,
      path: 'src/db/migrations',
      snapshot: false,
      transactional: true,
      allOrNothing: true,
      emit: 'ts',
      silent: true,
    },
    pool: { min: 0, max: 10 },
    // node-pg's own type parsers (timestamps as Date, bigint as text), as the raw pool has, so a
    // unit of work's raw statements read the same values on the ORM's connection.
    driverOptions: { types: pg.types },
    // The rate limiter's counter table (src/lib/rate-limit/stores.ts) is not ours to migrate.
    schemaGenerator: { ignoreSchema: ['svc_ratelimit'] },
    forceUtcTimezone: true,
    debug: false,
    allowGlobalContext: false,
    ...extra,
  });
}

export async function openOrm(clientUrl: string, extra: Partial<Options> = {}): Promise<MikroORM> {
  return MikroORM.init(ormConfig(clientUrl, extra));
}

/** Applies every committed migration not yet applied; processes starting together take turns. */
export async function migrate(orm: MikroORM, databaseUrl: string): Promise<void> {
  const lock = new pg.Client({ connectionString: databaseUrl });
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock(727272)');
    await orm.migrator.up();
  } finally {
    await lock.end();
  }
}
