import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { StartupError } from './errors.ts';

/** Where the embedded Postgres, the generated secret and other local state live. */
export const stateDir = path.resolve(process.env.SVC_STATE_DIR ?? '.svc');

const csvInts = z
  .string()
  .regex(/^\d+(,\d+)*$/, 'comma-separated whole seconds')
  .transform((s) => s.split(',').map(Number));

const retentionDays = (days: number) => z.coerce.number().int().min(1).max(36_500).default(days);

const envSchema = z.object({
  DATABASE_URL: z.string().url().optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  SVC_ROLE: z.enum(['api', 'worker', 'all']).default('all'),
  /** Role `worker` only: serve `/healthz`, `/readyz` and `/metrics` on this port (on `HOST`). Unset: no HTTP. */
  WORKER_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  SVC_SECRET: z.string().min(16).optional(),
  WEBHOOK_RETRY_SCHEDULE: csvInts.default([60, 300, 1800, 7200, 43200]),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  WEBHOOK_CONCURRENCY: z.coerce.number().int().positive().default(64),
  /**
   * A subscription is disabled when an attempt fails and none has succeeded since a failure at
   * least this many seconds old (docs/webhooks.md#auto-disable). Default: 5 days.
   */
  WEBHOOK_DISABLE_AFTER_SECONDS: z.coerce.number().positive().default(432_000),
  EGRESS_ALLOW_CIDRS: z
    .string()
    .default('')
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    ),
  SMTP_URL: z.string().optional(),
  SMS_WEBHOOK_URL: z.string().url().optional(),
  REDIS_URL: z.string().optional(),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(6000),
  MAX_BODY_BYTES: z.coerce.number().int().positive().default(262_144),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NODE_ENV: z.string().default('development'),
  /**
   * Failed dashboard sign-ins allowed per workspace and e-mail, and per client address (IPv6: per
   * /64), in `SIGN_IN_WINDOW_SECONDS`; then 429 until the window ends. `0` turns a limit off.
   */
  SIGN_IN_ATTEMPTS_PER_EMAIL: z.coerce.number().int().min(0).default(10),
  SIGN_IN_ATTEMPTS_PER_IP: z.coerce.number().int().min(0).default(100),
  SIGN_IN_WINDOW_SECONDS: z.coerce.number().int().positive().default(900),
  /**
   * Express's `trust proxy` (https://expressjs.com/en/guide/behind-proxies.html): set it behind a
   * TLS-terminating proxy (`loopback`, a hop count, or CIDRs) so the session cookie is marked
   * Secure, sign-in limits count the client's address and the CSRF check sees the public host.
   */
  TRUST_PROXY: z.string().optional(),
  /** The built dashboard (default: web/dashboard/dist of this checkout). */
  DASHBOARD_DIST_DIR: z.string().optional(),
  // Data lifecycle (docs/data-lifecycle.md). At least 1 day each: an event's idempotency key lives
  // on its row, and idempotency keys are kept 24 h (docs/api.md#idempotency).
  /** Days after which processed events (and their flow runs) are deleted. */
  RETENTION_EVENTS_DAYS: retentionDays(365),
  /** Days after which finished webhook deliveries (with attempts) and their outbox rows are deleted. */
  RETENTION_WEBHOOKS_DAYS: retentionDays(30),
  /** Days after which a sent message's rendered subject and body are blanked (the row stays). */
  RETENTION_MESSAGES_DAYS: retentionDays(90),
  /** How often the points lifecycle's jobs (expiry, pending activation, expiry notices) look for due work. */
  LOYALTY_TICK_SECONDS: z.coerce.number().positive().max(86_400).default(60),
  /** Browser origins allowed to call /graphql and open its socket: comma-separated, `*` for any. */
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim().replace(/\/$/, ''))
        .filter(Boolean),
    ),
});

export type Config = z.infer<typeof envSchema> & { secret: string };

/** Parses the environment (README "Configuration"); throws a readable error naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new StartupError(`invalid configuration:\n${lines.join('\n')}`);
  }
  return { ...parsed.data, secret: parsed.data.SVC_SECRET ?? localSecret() };
}

/** The generated secret kept in ./.svc/secret, created on first use. */
function localSecret(): string {
  const file = path.join(stateDir, 'secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(stateDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret + '\n', { mode: 0o600, flag: 'wx' });
  return secret;
}
