import pg from 'pg';
import { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { migrate, openOrm } from './db/orm.ts';
import { survivePoolClientErrors } from './db/tx.ts';
import { PGBOSS_SCHEMA, QUEUES } from './jobs/queues.ts';
import { Paginator } from './lib/pagination.ts';
import { createRateLimiter } from './lib/rate-limit.ts';
import { createSignInLimiter } from './lib/sign-in-limit.ts';
import { EventWriter } from './services/events/event-writer.ts';
import { KeyAuthenticator } from './services/keys/authenticate.ts';
import { LiveHub } from './services/live/live-hub.ts';
import { stopWorkers } from './worker.ts';

export interface Runtime {
  ctx: AppContext;
  close: () => Promise<void>;
}

/**
 * Opens everything a process needs against one database: migrations applied, the ORM, a raw
 * pool for hot paths and pg-boss (its schema created on first start). Closing drains in-flight
 * ingest batches before the pools go.
 */
export async function openRuntime(config: Config, databaseUrl: string, log: Logger): Promise<Runtime> {
  const orm = await openOrm(databaseUrl);
  await migrate(orm, databaseUrl);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 12, idleTimeoutMillis: 30_000 });
  pool.on('error', (err) => log.error({ err }, 'idle postgres client error'));
  survivePoolClientErrors(pool, (err) => log.warn({ err }, 'postgres connection lost'));
  // The ingest statement's own connections (EventWriter: 3 batches in flight, 1 for the wake-up
  // NOTIFY or the rare follow-up read). Generic plans: planning that statement costs Postgres about as much as
  // running it, and its plan does not depend on the batch's values.
  const ingestPool = new pg.Pool({
    connectionString: databaseUrl,
    max: 4,
    idleTimeoutMillis: 30_000,
    options: '-c plan_cache_mode=force_generic_plan',
  });
  ingestPool.on('error', (err) => log.error({ err }, 'idle postgres client error'));
  survivePoolClientErrors(ingestPool, (err) => log.warn({ err }, 'postgres connection lost'));
  // Supervise every 10 s: jobs of a crashed worker (missed heartbeats) are retried soon after.
  const boss = new PgBoss({
    connectionString: databaseUrl,
    max: 6,
    useListenNotify: true,
    schema: PGBOSS_SCHEMA,
    superviseIntervalSeconds: 10,
    monitorIntervalSeconds: 10,
  });
  boss.on('error', (err) => log.error({ err }, 'pg-boss error'));
  await boss.start();
  for (const [name, options] of Object.entries(QUEUES)) {
    await boss.createQueue(name, options).catch(async () => boss.updateQueue(name, options));
  }
  const ctx: AppContext = {
    config,
    orm,
    pool,
    boss,
    log,
    paginator: new Paginator(config.secret),
    events: new EventWriter(ingestPool, boss, log),
    keys: new KeyAuthenticator(pool, config.secret),
    rateLimiter: await createRateLimiter(config, pool, { log }),
    signIns: await createSignInLimiter(config, pool, log),
    live: new LiveHub({ databaseUrl, pool, log }),
  };
  return {
    ctx,
    close: async () => {
      await stopWorkers(ctx);
      await ctx.live.close();
      await ctx.events.idle();
      await ctx.rateLimiter.close();
      await ctx.signIns.close();
      await boss.stop({ graceful: true, timeout: 10_000 });
      await ingestPool.end();
      await pool.end();
      await orm.close(true);
    },
  };
}
