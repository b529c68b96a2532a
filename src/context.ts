import type { MikroORM } from '@mikro-orm/postgresql';
import type pg from 'pg';
import type { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Paginator } from './lib/pagination.ts';
import type { RateLimiter } from './lib/rate-limit.ts';
import type { SignInLimiter } from './lib/sign-in-limit.ts';
import type { EventWriter } from './services/events/event-writer.ts';
import type { KeyAuthenticator } from './services/keys/authenticate.ts';
import type { LiveHub } from './services/live/live-hub.ts';

/** What every service is handed: the ORM, the raw pool for hot paths, the queue, config, logger. */
export interface AppContext {
  config: Config;
  orm: MikroORM;
  /** Raw pool for the few hot paths that step below the ORM (see README "Ingest hot path"). */
  pool: pg.Pool;
  boss: PgBoss;
  log: Logger;
  paginator: Paginator;
  events: EventWriter;
  keys: KeyAuthenticator;
  rateLimiter: RateLimiter;
  /** Failed dashboard sign-ins per e-mail and per address (src/lib/sign-in-limit.ts). */
  signIns: SignInLimiter;
  /** Committed balance changes and badge awards for GraphQL subscriptions (LISTENs on first use). */
  live: LiveHub;
}
