/**
 * Per-API-key rate limiting (docs/api.md#rate-limits): `RATE_LIMIT_PER_MINUTE` requests per key in a
 * fixed one-minute window, shared by every process of a deployment; `0` turns it off.
 *
 * Where the count lives. Redis when `REDIS_URL` is set (rate-limiter-flexible's RateLimiterRedis
 * over ioredis; the URL may carry ioredis options such as `?keyPrefix=`), otherwise the
 * deployment's Postgres (RateLimiterPostgres, table `svc_ratelimit.api_keys`: outside the `public`
 * schema that the migrations own and ignored by MikroORM's schema diff, created at start-up before
 * the first request is counted).
 *
 * No round trip per request. Each process leases points from the shared counter in chunks (one
 * atomic increment of N) and spends them from memory. A lease is at most 1 % of the limit (at
 * least 1), never more than a tenth of what the counter has left, so leases shrink to single
 * points near the end of the budget; it grows only to cover requests already queued behind it.
 * At most one lease per key is in flight per process. Once the counter reaches the limit, the
 * process answers 429 from memory until the window ends (the library's `inMemoryBlockOnConsumed`
 * idea, done here because it has to know about leases). At the default 6000/min a busy key costs
 * one store call per 60 requests per process.
 *
 * Accuracy. Increments are atomic and a lease grants only the part of its increment below the
 * limit; leased points die when the counter's window ends, as measured from before the call (so
 * never after the store resets). While the store answers, a window never admits more than the
 * limit: the overshoot bound is 0. The cost is on the other side: points leased by a process that
 * then stops seeing that key's traffic are lost for the window, so with P processes a window
 * admits at least `limit − (P − 1) × max(1, floor(limit / 100))` of the key's requests (1 % of the
 * limit per other process; nothing is lost below a limit of 200, or when traffic keeps reaching
 * every process). Like any fixed window, a burst straddling a reset can get 2 × limit in 60 s.
 *
 * When the store fails. A store call that errors or takes over 1 s is answered by an in-memory
 * limiter of the same size (the library's insurance), so requests never fail because of the
 * limiter; meanwhile each process enforces the limit on its own (a window spanning an outage can
 * admit up to (P + 1) × limit). Postgres windows use the processes' clocks (keep them in sync);
 * Redis windows use server-side TTLs.
 *
 * Headers. `RateLimit-Remaining` is this process's view (the counter's remainder plus its unspent
 * lease): for one key in one process it never goes up within a window and is 0 on a 429.
 * `RateLimit-Reset` is the whole seconds until the window ends.
 */
import type { ServerResponse } from 'node:http';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { DomainError } from '../errors.ts';
import { createLogger } from '../logger.ts';
import { LeasingLimiter } from './rate-limit/leasing.ts';
import { openPostgresStore, openRedisStore } from './rate-limit/stores.ts';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

export interface RateLimiter {
  /** Counts one request for `keyId`; `null` when rate limiting is disabled. */
  consume(keyId: string): Promise<RateLimitDecision | null>;
  close(): Promise<void>;
}

/**
 * The one place a decision becomes an answer, for REST and GraphQL alike: sets the RateLimit-*
 * headers (and Retry-After on a refusal) when `res` can still take them, then throws the 429
 * `rate_limit_error` if the key is over its limit. `retryAfterInError` also puts `retry_after`
 * in the error itself, for GraphQL, whose errors travel where headers do not (graphql-ws).
 */
export function applyRateLimit(
  decision: RateLimitDecision | null,
  res: ServerResponse | undefined,
  { retryAfterInError = false } = {},
): void {
  if (!decision) return;
  const retryAfter = Math.max(1, decision.resetSeconds);
  if (res && !res.headersSent) {
    res.setHeader('RateLimit-Limit', String(decision.limit));
    res.setHeader('RateLimit-Remaining', String(decision.remaining));
    res.setHeader('RateLimit-Reset', String(decision.resetSeconds));
    if (!decision.allowed) res.setHeader('Retry-After', String(retryAfter));
  }
  if (!decision.allowed) {
    throw new DomainError(
      'rate_limit_error',
      `Rate limit of ${decision.limit} requests per minute exceeded for this key`,
      retryAfterInError ? { retry_after: retryAfter } : {},
    );
  }
}

export interface RateLimiterOptions {
  log?: Logger;
  /** Tests only: a shorter window (whole seconds; Redis TTLs are in seconds). */
  windowMs?: number;
  /** Tests only: the largest lease when nobody is waiting (default 1 % of the limit). */
  maxLease?: number;
}

const disabled: RateLimiter = { consume: async () => null, close: async () => {} };

/** The deployment-wide limiter for `RATE_LIMIT_PER_MINUTE` (Redis or Postgres backed), ready to count. */
export async function createRateLimiter(
  config: Config,
  pool: pg.Pool,
  opts: RateLimiterOptions = {},
): Promise<RateLimiter> {
  const limit = config.RATE_LIMIT_PER_MINUTE;
  if (limit === 0) return disabled;
  const windowMs = opts.windowMs ?? 60_000;
  if (!Number.isInteger(windowMs / 1000) || windowMs <= 0)
    throw new Error('rate limit window must be whole seconds');
  const log = (opts.log ?? createLogger(config.LOG_LEVEL)).child({ component: 'rate-limit' });
  const storeOpts = { limit, windowMs, log };
  const store = config.REDIS_URL
    ? await openRedisStore(config.REDIS_URL, storeOpts)
    : await openPostgresStore(pool, storeOpts);
  return new LeasingLimiter(store, { limit, windowMs, maxLease: opts.maxLease });
}
