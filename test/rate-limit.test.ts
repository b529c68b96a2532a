import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { type LeaseStore, LeasingLimiter, maxLeaseFor } from '../src/lib/rate-limit/leasing.ts';
import {
  openPostgresStore,
  openRedisStore,
  PG_SCHEMA,
  PG_TABLE,
  STORE_KEY_PREFIX,
  type StoreOptions,
} from '../src/lib/rate-limit/stores.ts';
import { createRateLimiter, type RateLimitDecision } from '../src/lib/rate-limit.ts';
import { signPayload } from '../src/lib/secrets.ts';
import { type RunningServer, startServer } from '../src/server.ts';
import {
  type ApiResponse,
  eventually,
  freshDatabase,
  request,
  startTestApp,
  type TestApp,
  testEnv,
} from './helpers.ts';

/**
 * The Redis-store tests need a Redis server: they run when `REDIS_URL` names one (`.ci/run`
 * exports it when 127.0.0.1:6379 answers) and are skipped, with the reason in their title,
 * otherwise. In CI a missing REDIS_URL fails the run instead, so the store is never silently
 * untested there.
 */
const REDIS = process.env.REDIS_URL || undefined;
const REDIS_SKIP_REASON = 'REDIS_URL unset: Redis store tests skipped';
const inCI = process.env.CI === 'true';
/** ioredis reads `keyPrefix` from the URL: this run's keys never meet a parallel run's. */
const runPrefix = `svc-test-${process.pid}-${randomBytes(4).toString('hex')}:`;
const redisUrl = REDIS ? withSearchParams(REDIS, { keyPrefix: runPrefix }) : '';
/**
 * Apps and limiters of the Postgres-store tests: an explicit empty REDIS_URL, so a REDIS_URL in
 * the environment (testEnv passes process.env through) does not switch them to Redis.
 */
const PG_STORE = { REDIS_URL: '' };
const log = pino({ level: 'silent' });
const newKey = () => `k-${randomBytes(6).toString('hex')}`;

function withSearchParams(url: string, params: Record<string, string>): string {
  const u = new URL(url);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u.toString();
}

if (!REDIS) {
  if (inCI)
    it('has REDIS_URL in CI (.ci/run exports it when 127.0.0.1:6379 answers)', () => {
      expect.fail('CI=true but REDIS_URL is unset: the Redis store tests would be skipped');
    });
  else {
    console.warn(`rate-limit.test.ts: ${REDIS_SKIP_REASON}`);
    it.skip(REDIS_SKIP_REASON, () => {});
  }
}

/** A cheap authenticated route. */
const hit = (base: string, key: string) => request(base, '/v1/events', { key });

/** `n` concurrent requests spread round-robin over `bases`. */
const spread = (bases: string[], key: string, n: number) =>
  Promise.all(Array.from({ length: n }, (_, i) => hit(bases[i % bases.length]!, key)));

function expectRateLimited(res: ApiResponse, limit: number) {
  expect(res.status).toBe(429);
  expect(res.body).toMatchObject({ error: { type: 'rate_limit_error', message: expect.any(String) } });
  expect(res.headers.get('ratelimit-limit')).toBe(String(limit));
  expect(res.headers.get('ratelimit-remaining')).toBe('0');
  const reset = Number(res.headers.get('ratelimit-reset'));
  expect(reset).toBeGreaterThanOrEqual(0);
  expect(reset).toBeLessThanOrEqual(60);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

/** The documented floor for `processes` sharing `limit` (src/lib/rate-limit.ts "Accuracy"). */
const floorFor = (limit: number, processes: number, maxLease = maxLeaseFor(limit)) =>
  limit - (processes - 1) * maxLease;

let redis: Redis | undefined;
let pool: pg.Pool;

beforeAll(async () => {
  if (REDIS) redis = new Redis(REDIS);
  pool = new pg.Pool({ connectionString: await freshDatabase(), max: 4 });
});
afterAll(async () => {
  await pool?.end();
  await redis?.quit();
});

describe('per-key limit through the API (Postgres store, RATE_LIMIT_PER_MINUTE=20)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '20', ...PG_STORE } });
  });
  afterAll(() => app?.close());

  it('counts down RateLimit-Remaining, then answers 429 rate_limit_error with Retry-After', async () => {
    const w = await app.workspace();
    for (let i = 0; i < 20; i++) {
      const res = await w.api('/v1/events');
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBe('20');
      expect(res.headers.get('ratelimit-remaining')).toBe(String(19 - i));
      const reset = Number(res.headers.get('ratelimit-reset'));
      expect(reset).toBeGreaterThanOrEqual(1);
      expect(reset).toBeLessThanOrEqual(60);
      expect(res.headers.get('retry-after')).toBeNull();
    }
    for (let i = 0; i < 3; i++) expectRateLimited(await w.api('/v1/events'), 20);
    // The count lives outside `public`, in the deployment's Postgres.
    const { rows } = await app.ctx.pool.query(`select points from ${PG_SCHEMA}.${PG_TABLE} where key = $1`, [
      `${STORE_KEY_PREFIX}:${w.keyIds.test}`,
    ]);
    expect(rows[0].points).toBeGreaterThanOrEqual(20);
  });

  it('limits each key on its own', async () => {
    const a = await app.workspace();
    const b = await app.workspace();
    for (let i = 0; i < 20; i++) expect((await a.api('/v1/events')).status).toBe(200);
    expectRateLimited(await a.api('/v1/events'), 20);
    for (const res of [await a.api('/v1/events', { mode: 'live' }), await b.api('/v1/events')]) {
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-remaining')).toBe('19');
    }
  });

  it('gives each ingest endpoint a budget of its own', async () => {
    const w = await app.workspace();
    const ep = (await w.api('/v1/ingest-endpoints', { body: { name: 'limited', default_event_type: 'r.l' } }))
      .body;
    const raw = JSON.stringify({ participant: 'rl' });
    const post = () =>
      request(app.url, `/v1/ingest/${ep.key}`, {
        method: 'POST',
        raw,
        headers: { 'content-type': 'application/json', 'x-signature': signPayload(ep.secret, raw) },
      });
    for (let i = 0; i < 20; i++) expect((await post()).status).toBe(202);
    expectRateLimited(await post(), 20);
    // The API key that created the endpoint still has its budget (one request spent on creating it).
    expect((await w.api('/v1/events')).headers.get('ratelimit-remaining')).toBe('18');
  });

  it('shares one budget with a second server on the same database', async () => {
    const second = await startServer(
      loadConfig(testEnv(app.databaseUrl, { RATE_LIMIT_PER_MINUTE: '20', ...PG_STORE })),
    );
    try {
      const w = await app.workspace();
      const results = await spread([app.url, second.url], w.keys.test, 60);
      const allowed = results.filter((r) => r.status === 200).length;
      expect(allowed).toBeLessThanOrEqual(20);
      expect(allowed).toBeGreaterThanOrEqual(floorFor(20, 2));
      for (const r of results.filter((r) => r.status !== 200)) expectRateLimited(r, 20);
      expectRateLimited(await hit(app.url, w.keys.test), 20);
      expectRateLimited(await hit(second.url, w.keys.test), 20);
    } finally {
      await second.shutdown();
    }
  });
});

describe.skipIf(!REDIS)('per-key limit through the API (Redis store)', () => {
  const env = { RATE_LIMIT_PER_MINUTE: '20', REDIS_URL: redisUrl };
  let app: TestApp;
  let second: RunningServer;
  beforeAll(async () => {
    app = await startTestApp({ env });
    second = await startServer(loadConfig(testEnv(app.databaseUrl, env)));
  });
  afterAll(async () => {
    await second?.shutdown();
    await app?.close();
  });

  it('shares one budget across two servers through Redis, not Postgres', async () => {
    const w = await app.workspace();
    const results = await spread([app.url, second.url], w.keys.test, 60);
    const allowed = results.filter((r) => r.status === 200).length;
    expect(allowed).toBeLessThanOrEqual(20);
    expect(allowed).toBeGreaterThanOrEqual(floorFor(20, 2));
    for (const r of results.filter((r) => r.status !== 200)) expectRateLimited(r, 20);
    expectRateLimited(await hit(app.url, w.keys.test), 20);
    expectRateLimited(await hit(second.url, w.keys.test), 20);

    expect(
      Number(await redis!.get(`${runPrefix}${STORE_KEY_PREFIX}:${w.keyIds.test}`)),
    ).toBeGreaterThanOrEqual(20);
    const { rows } = await app.ctx.pool.query(`select to_regclass($1) as t`, [`${PG_SCHEMA}.${PG_TABLE}`]);
    expect(rows[0].t).toBeNull();
  });
});

describe('no store round trip per request', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '6000', ...PG_STORE } });
  });
  afterAll(() => app?.close());

  it('serves 200 requests of one key with a handful of store calls', async () => {
    const w = await app.workspace();
    const query = vi.spyOn(app.ctx.pool, 'query');
    try {
      for (let i = 0; i < 200; i++) {
        const res = await w.api('/v1/events');
        expect(res.status).toBe(200);
        expect(res.headers.get('ratelimit-remaining')).toBe(String(5999 - i));
      }
      const storeCalls = query.mock.calls.filter(([q]) => JSON.stringify(q).includes(PG_SCHEMA)).length;
      expect(storeCalls).toBeGreaterThan(0);
      expect(storeCalls).toBeLessThanOrEqual(Math.ceil(200 / maxLeaseFor(6000)));
    } finally {
      query.mockRestore();
    }
  });
});

describe('RATE_LIMIT_PER_MINUTE=0', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '0' } });
  });
  afterAll(() => app?.close());

  it('turns limiting off: no RateLimit headers, no limiter table', async () => {
    const w = await app.workspace();
    for (let i = 0; i < 3; i++) {
      const res = await w.api('/v1/events');
      expect(res.status).toBe(200);
      for (const h of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after'])
        expect(res.headers.get(h)).toBeNull();
    }
    expect(await app.ctx.rateLimiter.consume(w.keyIds.test)).toBeNull();
    const { rows } = await app.ctx.pool.query(`select to_regclass($1) as t`, [`${PG_SCHEMA}.${PG_TABLE}`]);
    expect(rows[0].t).toBeNull();
  });
});

/** A store that counts its calls, standing in for one process's connection to the shared counter. */
function counting(store: LeaseStore) {
  const c = {
    calls: 0,
    store: {
      take: (key: string, points: number) => {
        c.calls++;
        return store.take(key, points);
      },
      close: () => store.close(),
    } satisfies LeaseStore,
  };
  return c;
}

const openers = {
  postgres: (o: StoreOptions) => openPostgresStore(pool, o),
  redis: (o: StoreOptions) => openRedisStore(redisUrl, o),
};

describe('leasing against postgres', () => leasingAgainst('postgres'));
describe.skipIf(!REDIS)('leasing against redis', () => leasingAgainst('redis'));

function leasingAgainst(kind: keyof typeof openers) {
  async function startProcess(limit: number, extra: { windowMs?: number; maxLease?: number } = {}) {
    const windowMs = extra.windowMs ?? 60_000;
    const c = counting(await openers[kind]({ limit, windowMs, log }));
    return Object.assign(c, {
      limiter: new LeasingLimiter(c.store, { limit, windowMs, maxLease: extra.maxLease }),
    });
  }

  it('calls the store a few times for 200 requests at the default limit', async () => {
    const p = await startProcess(6000);
    try {
      const key = newKey();
      for (let i = 0; i < 200; i++) {
        const d = await p.limiter.consume(key);
        expect(d).toMatchObject({ allowed: true, limit: 6000, remaining: 5999 - i });
      }
      expect(p.calls).toBeGreaterThan(0);
      expect(p.calls).toBeLessThanOrEqual(Math.ceil(200 / maxLeaseFor(6000)));
    } finally {
      await p.limiter.close();
    }
  });

  it('never admits more than the limit across two processes, and remaining never rises', async () => {
    const limit = 300;
    const maxLease = 25;
    const [a, b] = [await startProcess(limit, { maxLease }), await startProcess(limit, { maxLease })];
    try {
      const key = newKey();
      const seen = new Map([
        [a, [] as RateLimitDecision[]],
        [b, [] as RateLimitDecision[]],
      ]);
      for (let round = 0; round < 40; round++) {
        await Promise.all(
          Array.from({ length: 20 }, () => {
            const p = Math.random() < 0.5 ? a : b;
            return p.limiter.consume(key).then((d) => seen.get(p)!.push(d));
          }),
        );
      }
      const all = [...seen.values()].flat();
      const allowed = all.filter((d) => d.allowed).length;
      expect(allowed).toBeLessThanOrEqual(limit);
      expect(allowed).toBeGreaterThanOrEqual(floorFor(limit, 2, maxLease));
      // Both kept receiving traffic after the budget ran out, so no lease was left unspent.
      expect(allowed).toBe(limit);
      for (const decisions of seen.values()) {
        const remaining = decisions.map((d) => d.remaining);
        for (let i = 1; i < remaining.length; i++)
          expect(remaining[i]).toBeLessThanOrEqual(remaining[i - 1]!);
        for (const d of decisions.filter((d) => !d.allowed)) expect(d.remaining).toBe(0);
      }
      expect(a.calls + b.calls).toBeGreaterThan(0);
      expect(a.calls + b.calls).toBeLessThan(all.length / 4);
    } finally {
      await Promise.all([a.limiter.close(), b.limiter.close()]);
    }
  });

  it('loses at most one lease to a process that goes quiet', async () => {
    const limit = 300;
    const maxLease = 25;
    const [a, b] = [await startProcess(limit, { maxLease }), await startProcess(limit, { maxLease })];
    try {
      const key = newKey();
      expect((await a.limiter.consume(key)).allowed).toBe(true); // leases 25, spends 1
      let allowedB = 0;
      while ((await b.limiter.consume(key)).allowed) allowedB++;
      expect(allowedB).toBe(limit - maxLease);
      expect(1 + allowedB).toBeGreaterThanOrEqual(floorFor(limit, 2, maxLease));
    } finally {
      await Promise.all([a.limiter.close(), b.limiter.close()]);
    }
  });

  it('answers 429 from memory once the budget is gone, until the window resets', async () => {
    const p = await startProcess(3, { windowMs: 1000 });
    try {
      const key = newKey();
      for (const remaining of [2, 1, 0])
        expect(await p.limiter.consume(key)).toMatchObject({ allowed: true, remaining });
      const callsWhenSpent = p.calls;
      let denied: RateLimitDecision | undefined;
      for (let i = 0; i < 5; i++) {
        denied = await p.limiter.consume(key);
        expect(denied).toMatchObject({ allowed: false, limit: 3, remaining: 0 });
        expect(denied.resetSeconds).toBe(1);
      }
      expect(p.calls).toBe(callsWhenSpent);
      // Denied decisions come from memory (no store call), so polling costs nothing.
      const admitted = await eventually(async () => {
        const d = await p.limiter.consume(key);
        return d.allowed && d;
      }, 5_000);
      expect(admitted).toMatchObject({ allowed: true, remaining: 2 });
      expect(p.calls).toBe(callsWhenSpent + 1);
    } finally {
      await p.limiter.close();
    }
  });
}

describe('when the store is unreachable', () => {
  it('falls back to an in-memory limit when Redis is down', async () => {
    const limiter = await createRateLimiter(
      loadConfig(
        testEnv('postgres://unused', { RATE_LIMIT_PER_MINUTE: '5', REDIS_URL: 'redis://127.0.0.1:1' }),
      ),
      pool,
      { log },
    );
    try {
      const started = Date.now();
      const key = newKey();
      const decisions = [];
      for (let i = 0; i < 7; i++) decisions.push(await limiter.consume(key));
      expect(decisions.map((d) => d?.allowed)).toEqual([true, true, true, true, true, false, false]);
      expect(decisions.map((d) => d?.remaining)).toEqual([4, 3, 2, 1, 0, 0, 0]);
      expect(Date.now() - started).toBeLessThan(1000);
    } finally {
      await limiter.close();
    }
  });

  it('falls back to an in-memory limit when the Postgres table disappears', async () => {
    const own = new pg.Pool({ connectionString: await freshDatabase(), max: 2 });
    const limiter = await createRateLimiter(
      loadConfig(testEnv('postgres://unused', { RATE_LIMIT_PER_MINUTE: '5', ...PG_STORE })),
      own,
      { log },
    );
    try {
      const key = newKey();
      expect(await limiter.consume(key)).toMatchObject({ allowed: true, remaining: 4 });
      await own.query(`drop schema ${PG_SCHEMA} cascade`);
      const decisions = [];
      for (let i = 0; i < 7; i++) decisions.push(await limiter.consume(key));
      // The insurance starts its own count: within the documented (processes + 1) × limit.
      expect(decisions.filter((d) => d?.allowed).length).toBe(5);
      expect(decisions.at(-1)).toMatchObject({ allowed: false, remaining: 0 });
    } finally {
      await limiter.close();
      await own.end();
    }
  });
});

describe.skipIf(!REDIS)('close()', () => {
  it('releases the Redis connection', async () => {
    const name = `svc-rl-close-${randomBytes(4).toString('hex')}`;
    const limiter = await createRateLimiter(
      loadConfig(
        testEnv('postgres://unused', {
          RATE_LIMIT_PER_MINUTE: '5',
          REDIS_URL: withSearchParams(redisUrl, { connectionName: name }),
        }),
      ),
      pool,
      { log },
    );
    const clients = async () => String(await redis!.call('CLIENT', 'LIST'));
    expect(await limiter.consume(newKey())).toMatchObject({ allowed: true });
    expect(await clients()).toContain(`name=${name}`);
    await limiter.close();
    await eventually(async () => !(await clients()).includes(`name=${name}`), 1_000);
  });
});
