import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import type pg from 'pg';
import type { Logger } from 'pino';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
  RateLimiterRes,
  RLWrapperTimeouts,
} from 'rate-limiter-flexible';
import type { LeaseStore } from './leasing.ts';

/** Outside `public`, which the migrations own; src/db/orm.ts tells MikroORM to ignore it. */
export const PG_SCHEMA = 'svc_ratelimit';
export const PG_TABLE = 'api_keys';
/** Key prefix inside the store: `<prefix>:<api key id>` (Redis: after ioredis's own `keyPrefix`). */
export const STORE_KEY_PREFIX = 'svc:rl:apikey';

/** A store call slower than this is answered by the in-memory insurance instead. */
const STORE_TIMEOUT_MS = 1000;
const PG_CLEANUP_EVERY_MS = 5 * 60_000;

export interface StoreOptions {
  limit: number;
  windowMs: number;
  log: Logger;
}

/** Postgres counter table (created before this resolves), with in-memory insurance. */
export async function openPostgresStore(pool: pg.Pool, opts: StoreOptions): Promise<LeaseStore> {
  await ensurePgSchema(pool);
  const limiter = await new Promise<RateLimiterPostgres>((resolve, reject) => {
    const l: RateLimiterPostgres = new RateLimiterPostgres(
      {
        ...limiterOptions(opts),
        storeClient: pool,
        storeType: 'pool',
        schemaName: PG_SCHEMA,
        tableName: PG_TABLE,
        clearExpiredByTimeout: false,
      },
      (err) => (err ? reject(err) : resolve(l)),
    );
  });
  // Our own sweep instead of the library's, so close() can stop it before the pool ends.
  const cleanup = setInterval(() => {
    pool
      .query(`delete from ${PG_SCHEMA}.${PG_TABLE} where expire < $1`, [Date.now() - 3_600_000])
      .catch((err) => opts.log.warn({ err }, 'rate limit table cleanup failed'));
  }, PG_CLEANUP_EVERY_MS);
  cleanup.unref();
  return leaseStore(limiter, opts, async () => clearInterval(cleanup));
}

/** Creates the counters' schema (`svc_ratelimit`) when it is missing. */
export async function ensurePgSchema(pool: pg.Pool): Promise<void> {
  await pool.query(`create schema if not exists ${PG_SCHEMA}`).catch((err: { code?: string }) => {
    // Two processes starting together race on the catalog; the loser's schema already exists.
    if (err.code !== '23505' && err.code !== '42P06') throw err;
  });
}

/**
 * Redis counter (ioredis; the URL may carry ioredis options such as `?keyPrefix=`), with in-memory
 * insurance. Start-up waits up to 1 s for the connection but never fails on it: until Redis answers,
 * the insurance enforces the limit per process.
 */
export async function openRedisStore(url: string, opts: StoreOptions): Promise<LeaseStore> {
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: STORE_TIMEOUT_MS,
  });
  let down = false;
  client.on('error', (err) => {
    if (down) return;
    down = true;
    opts.log.warn({ err }, 'rate limit store (redis) unreachable; limiting per process until it is back');
  });
  client.on('ready', () => {
    if (down) opts.log.info('rate limit store (redis) reachable again');
    down = false;
  });
  // Failures are reported by the 'error' listener and ioredis keeps retrying; start-up waits a little.
  await Promise.race([client.connect().catch(() => {}), sleep(STORE_TIMEOUT_MS, undefined, { ref: false })]);
  const limiter = new RateLimiterRedis({
    ...limiterOptions(opts),
    storeClient: client,
    rejectIfRedisNotReady: true,
  });
  return leaseStore(limiter, opts, async () => {
    if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
    else client.disconnect();
  });
}

/** The library's options shared by both stores: points, window, prefix and the insurance. */
function limiterOptions(opts: StoreOptions) {
  const base = { points: opts.limit, duration: opts.windowMs / 1000, keyPrefix: STORE_KEY_PREFIX };
  return { ...base, insuranceLimiter: new Insurance(base, opts.log) };
}

/** The library's in-memory insurance, saying (once a minute at most) that it is in use. */
export class Insurance extends RateLimiterMemory {
  readonly #log: Logger;
  #warnedAt = 0;

  constructor(opts: ConstructorParameters<typeof RateLimiterMemory>[0], log: Logger) {
    super(opts);
    this.#log = log;
  }

  override consume(key: string | number, points?: number, options?: { [key: string]: any }) {
    if (Date.now() - this.#warnedAt >= 60_000) {
      this.#warnedAt = Date.now();
      this.#log.warn('rate limit store failed or was slow; limiting in this process only');
    }
    return super.consume(key, points, options);
  }
}

function leaseStore(
  limiter: RateLimiterAbstract,
  opts: StoreOptions,
  close: () => Promise<void>,
): LeaseStore {
  // Adopts the limiter's insurance for calls slower than the timeout.
  const guarded = new RLWrapperTimeouts({ limiter, timeoutMs: STORE_TIMEOUT_MS });
  const asTake = (r: RateLimiterRes) => ({ consumed: r.consumedPoints, msBeforeNext: r.msBeforeNext });
  return {
    take: (key, points) =>
      guarded.consume(key, points).then(asTake, (err: unknown) => {
        // Over the limit arrives as a rejection carrying the counter; anything else is a bug.
        if (err instanceof RateLimiterRes) return asTake(err);
        opts.log.error({ err }, 'rate limit store and its insurance both failed');
        throw err;
      }),
    close,
  };
}
