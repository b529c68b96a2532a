/**
 * Dashboard sign-in limits (docs/dashboard.md#security): failed attempts are counted per workspace and e-mail
 * (`SIGN_IN_ATTEMPTS_PER_EMAIL`) and per client address (`SIGN_IN_ATTEMPTS_PER_IP`; IPv6 per /64,
 * since one host usually holds a whole /64) in a fixed window of `SIGN_IN_WINDOW_SECONDS`. Over
 * either limit, every attempt, even with the right password, is refused with `rate_limit_error`
 * and `retry_after` (seconds) until the window ends, so a password cannot be guessed faster than
 * the limit allows.
 *
 * Every attempt is counted before the password is checked (one atomic increment per counter, so
 * parallel guesses cannot slip past the limit); a successful sign-in gives its point back to the
 * address and clears the e-mail's counter. The counters live in the deployment's Postgres
 * (rate-limiter-flexible's RateLimiterPostgres, table `svc_ratelimit.sign_in_attempts`), shared by
 * every process, with the library's in-memory insurance when Postgres fails. E-mails are stored
 * only as a SHA-256 of workspace and e-mail.
 */
import { createHash } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import type pg from 'pg';
import type { Logger } from 'pino';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from '../config.ts';
import { DomainError } from '../errors.ts';
import { ensurePgSchema, Insurance, PG_SCHEMA } from './rate-limit/stores.ts';

const TABLE = 'sign_in_attempts';
const CLEANUP_EVERY_MS = 5 * 60_000;

export interface SignInAttempt {
  /** The password was right: the attempt does not count against the address, and the e-mail starts over. */
  succeeded(): Promise<void>;
}

export interface SignInLimiter {
  /** Counts one attempt; throws `rate_limit_error` (with `retry_after`) when a limit is reached. */
  attempt(who: { workspace: string; email: string; ip: string | undefined }): Promise<SignInAttempt>;
  close(): Promise<void>;
}

/** The key of a client address: IPv4 (also IPv4-mapped IPv6) as is, IPv6 by its /64. */
export function addressKey(ip: string | undefined): string {
  if (!ip || !ipaddr.isValid(ip)) return 'unknown';
  const addr = ipaddr.process(ip);
  if (addr.kind() === 'ipv4') return addr.toString();
  return `${(addr as ipaddr.IPv6).toNormalizedString().split(':').slice(0, 4).join(':')}::/64`;
}

const emailKey = (workspace: string, email: string) =>
  createHash('sha256').update(`${workspace}\n${email.trim().toLowerCase()}`).digest('hex');

export async function createSignInLimiter(
  config: Config,
  pool: pg.Pool,
  log: Logger,
): Promise<SignInLimiter> {
  const duration = config.SIGN_IN_WINDOW_SECONDS;
  await ensurePgSchema(pool);
  // One table for both counters, created by the first (the second is told it exists).
  let tableCreated = false;
  const open = async (points: number, keyPrefix: string) => {
    if (points === 0) return null;
    const base = { points, duration, keyPrefix };
    const options: ConstructorParameters<typeof RateLimiterPostgres>[0] = {
      ...base,
      storeClient: pool,
      storeType: 'pool',
      schemaName: PG_SCHEMA,
      tableName: TABLE,
      tableCreated,
      clearExpiredByTimeout: false,
      insuranceLimiter: new Insurance(base, log),
    };
    // With `tableCreated` the library calls back before the constructor returns.
    if (tableCreated) return new RateLimiterPostgres(options);
    const limiter = await new Promise<RateLimiterPostgres>((resolve, reject) => {
      const l: RateLimiterPostgres = new RateLimiterPostgres(options, (err) =>
        err ? reject(err) : resolve(l),
      );
    });
    tableCreated = true;
    return limiter;
  };
  const byEmail = await open(config.SIGN_IN_ATTEMPTS_PER_EMAIL, 'svc:signin:email');
  const byAddress = await open(config.SIGN_IN_ATTEMPTS_PER_IP, 'svc:signin:ip');
  const cleanup = setInterval(() => {
    if (!tableCreated) return;
    pool
      .query(`delete from ${PG_SCHEMA}.${TABLE} where expire < $1`, [Date.now() - 3_600_000])
      .catch((err) => log.warn({ err }, 'sign-in attempts table cleanup failed'));
  }, CLEANUP_EVERY_MS);
  cleanup.unref();

  return {
    async attempt({ workspace, email, ip }) {
      const keys = [
        [byEmail, emailKey(workspace, email)],
        [byAddress, addressKey(ip)],
      ] as const;
      const results = await Promise.allSettled(keys.map(([limiter, key]) => limiter?.consume(key)));
      let waitMs = 0;
      for (const r of results) {
        if (r.status === 'fulfilled') continue;
        // Over the limit arrives as a rejection carrying the counter; anything else is a store failure.
        if (!(r.reason instanceof RateLimiterRes)) throw r.reason;
        waitMs = Math.max(waitMs, r.reason.msBeforeNext);
      }
      if (waitMs > 0) {
        const retryAfter = Math.max(1, Math.ceil(waitMs / 1000));
        throw new DomainError(
          'rate_limit_error',
          `Too many sign-in attempts: try again in ${retryAfter} seconds`,
          { retry_after: retryAfter },
        );
      }
      return {
        async succeeded() {
          await Promise.all([byEmail?.delete(keys[0][1]), byAddress?.reward(keys[1][1], 1)]);
        },
      };
    },
    async close() {
      clearInterval(cleanup);
    },
  };
}
