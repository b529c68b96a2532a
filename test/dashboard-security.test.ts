import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DASHBOARD_CSP } from '../src/rest/dashboard.ts';
import { createUser } from '../src/services/workspaces/create-user.ts';
import { deleteUser } from '../src/services/workspaces/delete-user.ts';
import { appRouter } from '../src/trpc/router.ts';
import { dashboardClient, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

/**
 * CONTRACT 13's dashboard security, over real HTTP: server-side sessions that sign-out, deletion
 * and expiry really end; sign-in limits per e-mail and per client address; the same-origin check
 * on every mutation; the app's pages with their security headers, SPA fallback and asset caching.
 *
 * The app trusts its loopback proxy (TRUST_PROXY=loopback), so a test plays the proxy: it sets
 * X-Forwarded-For to act from another client address and X-Forwarded-Proto/Host for TLS.
 */
const PER_EMAIL = 3;
const PER_IP = 5;
const PASSWORD = 'correct horse battery staple';

let app: TestApp;
let dist: string;

beforeAll(async () => {
  dist = mkdtempSync(path.join(tmpdir(), 'svc-dashboard-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(
    path.join(dist, 'index.html'),
    '<!doctype html><html><head><script type="module" src="/dashboard/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>',
  );
  writeFileSync(path.join(dist, 'assets/index-abc123.js'), 'console.log("dashboard");');
  writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(path.join(path.dirname(dist), `${path.basename(dist)}-secret.txt`), 'not for the web');
  app = await startTestApp({
    env: {
      DASHBOARD_DIST_DIR: dist,
      TRUST_PROXY: 'loopback',
      SIGN_IN_ATTEMPTS_PER_EMAIL: String(PER_EMAIL),
      SIGN_IN_ATTEMPTS_PER_IP: String(PER_IP),
    },
  });
});
afterAll(async () => {
  await app?.close();
  rmSync(dist, { recursive: true, force: true });
  rmSync(path.join(path.dirname(dist), `${path.basename(dist)}-secret.txt`), { force: true });
});

/** A client address of its own per test (TEST-NET-3), so address limits never cross tests. */
/** A client address no other test of this file uses (one blocked address must not catch another test's sign-in). */
const freshIp = () => {
  const [a, b, c] = randomBytes(3);
  return `10.${a}.${b}.${1 + (c! % 250)}`;
};

interface TrpcAnswer {
  status: number;
  headers: Headers;
  body: any;
}

/** One raw tRPC call as a browser (or an attacker's page) would send it. */
async function trpc(
  procedure: string,
  opts: { input?: unknown; mutation?: boolean; headers?: Record<string, string>; cookie?: string } = {},
): Promise<TrpcAnswer> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.cookie) headers.cookie = `svc_session=${opts.cookie}`;
  let url = `${app.url}/trpc/${procedure}`;
  let body: string | undefined;
  if (opts.mutation) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.input ?? null);
  } else if (opts.input !== undefined) url += `?input=${encodeURIComponent(JSON.stringify(opts.input))}`;
  const res = await fetch(url, { method: opts.mutation ? 'POST' : 'GET', headers, body });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

const sameOrigin = () => ({ origin: app.url });

async function newUser(ws?: TestWorkspace) {
  const w = ws ?? (await app.workspace());
  const email = `user-${randomBytes(4).toString('hex')}@example.com`;
  const user = await createUser(app.ctx, { workspace: w.slug, email, password: PASSWORD });
  return { w, email, id: user.id };
}

/** Signs in over raw HTTP from `ip`; the answer and the session token its cookie carries. */
async function login(
  who: { w: { slug: string }; email: string },
  opts: { password?: string; ip?: string; headers?: Record<string, string> } = {},
) {
  const res = await trpc('auth.login', {
    mutation: true,
    input: { workspace: who.w.slug, email: who.email, password: opts.password ?? PASSWORD },
    headers: { ...sameOrigin(), 'x-forwarded-for': opts.ip ?? freshIp(), ...opts.headers },
  });
  const setCookie = res.headers.getSetCookie()[0] ?? '';
  const token = /^svc_session=([^;]*)/.exec(setCookie)?.[1] ?? null;
  return { ...res, setCookie, token };
}

const me = (token: string) => trpc('auth.me', { cookie: token });

const expectUnauthorized = (res: TrpcAnswer) => {
  expect(res.status).toBe(401);
  expect(res.body.error.data).toMatchObject({ code: 'UNAUTHORIZED', type: 'authentication_error' });
};

const sessionRows = async (userId: string) =>
  (
    await app.ctx.pool.query<{ token_hash: string; expires_at: Date }>(
      'select token_hash, expires_at from dashboard_sessions where user_id = $1',
      [userId],
    )
  ).rows;

describe('sessions', () => {
  it('signs in with an HttpOnly, SameSite=Lax session cookie whose token is stored only as its SHA-256', async () => {
    const u = await newUser();
    const res = await login(u);
    expect(res.status).toBe(200);
    expect(res.setCookie).toMatch(/^svc_session=[\w-]{43}; /);
    expect(res.setCookie).toMatch(/; HttpOnly/i);
    expect(res.setCookie).toMatch(/; SameSite=Lax/i);
    expect(res.setCookie).toMatch(/; Path=\//);
    const maxAge = Number(/Max-Age=(\d+)/i.exec(res.setCookie)?.[1]);
    expect(maxAge).toBeGreaterThan(86_000);
    expect(maxAge).toBeLessThanOrEqual(86_400);
    // Plain HTTP: not Secure, or a local install could never sign in.
    expect(res.setCookie).not.toMatch(/Secure/i);

    const rows = await sessionRows(u.id);
    expect(rows).toEqual([
      {
        token_hash: createHash('sha256').update(res.token!).digest('hex'),
        expires_at: expect.any(Date),
      },
    ]);
    const dump = await app.ctx.pool.query('select * from dashboard_sessions');
    expect(JSON.stringify(dump.rows)).not.toContain(res.token);

    const who = await me(res.token!);
    expect(who.status).toBe(200);
    expect(who.body.result.data).toMatchObject({ id: u.id, email: u.email });
  });

  it('marks the cookie Secure when the request came over TLS (through a trusted proxy)', async () => {
    const u = await newUser();
    const res = await login(u, {
      headers: { 'x-forwarded-proto': 'https', origin: new URL(app.url).origin.replace('http:', 'https:') },
    });
    expect(res.status).toBe(200);
    expect(res.setCookie).toMatch(/; Secure/i);
  });

  it('signs out for real: the old cookie, copied before sign-out, is refused afterwards', async () => {
    const u = await newUser();
    const d = dashboardClient(app.url);
    await d.client.auth.login.mutate({ workspace: u.w.slug, email: u.email, password: PASSWORD });
    const copied = d.jar.get('svc_session')!;
    expect((await me(copied)).status).toBe(200);

    await d.client.auth.logout.mutate();
    expect(d.setCookies.at(-1)).toMatch(/^svc_session=;/);
    expectUnauthorized(await me(copied));
    expectUnauthorized(await trpc('events.list', { input: { mode: 'test' }, cookie: copied }));
    expect(await sessionRows(u.id)).toEqual([]);
  });

  it('signs out everywhere: every session of the user ends, and only that user', async () => {
    const u = await newUser();
    const other = await newUser(u.w);
    const a = await login(u);
    const b = await login(u);
    const c = await login(other);
    const res = await trpc('auth.logoutEverywhere', {
      mutation: true,
      cookie: a.token!,
      headers: sameOrigin(),
    });
    expect(res.status).toBe(200);
    expect(res.body.result.data).toEqual({ signed_out: true, sessions_ended: 2 });
    expectUnauthorized(await me(a.token!));
    expectUnauthorized(await me(b.token!));
    expect((await me(c.token!)).status).toBe(200);
  });

  it("ends a deleted user's sessions, and a password reset ends the user's sessions", async () => {
    const doomed = await newUser();
    const session = await login(doomed);
    expect((await me(session.token!)).status).toBe(200);
    await deleteUser(app.ctx, doomed.w.id, { id: doomed.id });
    expectUnauthorized(await me(session.token!));
    expect(await sessionRows(doomed.id)).toEqual([]);
    // Deleting is scoped to the workspace: another workspace's id is not found.
    const elsewhere = await newUser();
    await expect(deleteUser(app.ctx, doomed.w.id, { id: elsewhere.id })).rejects.toMatchObject({
      type: 'not_found',
    });

    const reset = await newUser();
    const before = await login(reset);
    await createUser(app.ctx, {
      workspace: reset.w.slug,
      email: reset.email,
      password: 'a new password 123',
    });
    expectUnauthorized(await me(before.token!));
    expect((await login(reset, { password: 'a new password 123' })).status).toBe(200);
  });

  it('refuses an expired session', async () => {
    const u = await newUser();
    const { token } = await login(u);
    await app.ctx.pool.query(
      `update dashboard_sessions set expires_at = now() - interval '1 second' where user_id = $1`,
      [u.id],
    );
    expectUnauthorized(await me(token!));
  });

  it('looks a session up with one query per HTTP request, however many procedures a batch holds', async () => {
    const u = await newUser();
    const { token } = await login(u);
    // Every SQL statement the ORM sends goes through its connection's execute().
    const connection = app.ctx.orm.em.getConnection();
    const execute = vi.spyOn(connection, 'execute');
    try {
      const input = encodeURIComponent(JSON.stringify({ 2: { mode: 'test' } }));
      const batch = await fetch(`${app.url}/trpc/auth.me,auth.me,events.list?batch=1&input=${input}`, {
        headers: { cookie: `svc_session=${token}` },
      });
      expect(batch.status).toBe(200);
      const answers = (await batch.json()) as { result: { data: any } }[];
      expect(answers.map((a) => a.result.data.email ?? 'list')).toEqual([u.email, u.email, 'list']);
      const sessionQueries = execute.mock.calls
        .map(([sql]) => String(sql))
        .filter((sql) => sql.includes('dashboard_sessions'));
      expect(sessionQueries).toHaveLength(1);
      // The user and its workspace come in the same statement.
      expect(sessionQueries[0]).toMatch(/join "users"/);
      expect(sessionQueries[0]).toMatch(/join "workspaces"/);
    } finally {
      execute.mockRestore();
    }
  });
});

describe('sign-in limits', () => {
  it(`refuses an e-mail after ${PER_EMAIL} failed attempts, even with the right password, saying when to retry`, async () => {
    const u = await newUser();
    for (let i = 0; i < PER_EMAIL; i++) {
      const res = await login(u, { password: 'wrong password' });
      expect(res.status).toBe(401);
    }
    // From yet another address: the e-mail's own limit.
    const refused = await login(u);
    expect(refused.status).toBe(429);
    expect(refused.body.error.data).toMatchObject({
      code: 'TOO_MANY_REQUESTS',
      httpStatus: 429,
      type: 'rate_limit_error',
      retry_after: expect.any(Number),
    });
    expect(refused.body.error.data.retry_after).toBeGreaterThan(0);
    expect(refused.body.error.data.retry_after).toBeLessThanOrEqual(900);
    expect(refused.body.error.message).toMatch(/^Too many sign-in attempts: try again in \d+ seconds$/);
    expect(Number(refused.headers.get('retry-after'))).toBe(refused.body.error.data.retry_after);
    expect(refused.token).toBeNull();

    // Another user of the same workspace is not affected.
    const colleague = await newUser(u.w);
    expect((await login(colleague)).status).toBe(200);
  });

  it('starts an e-mail over after a successful sign-in', async () => {
    const u = await newUser();
    for (let i = 0; i < PER_EMAIL - 1; i++) expect((await login(u, { password: 'nope' })).status).toBe(401);
    expect((await login(u)).status).toBe(200);
    for (let i = 0; i < PER_EMAIL - 1; i++) expect((await login(u, { password: 'nope' })).status).toBe(401);
    expect((await login(u)).status).toBe(200);
  });

  it(`refuses a client address after ${PER_IP} failed attempts, whatever the e-mail; other addresses still sign in`, async () => {
    const w = await app.workspace();
    const ip = freshIp();
    for (let i = 0; i < PER_IP; i++) {
      const res = await login({ w, email: `guess-${i}@example.com` }, { ip });
      expect(res.status).toBe(401);
    }
    const u = await newUser(w);
    const refused = await login(u, { ip });
    expect(refused.status).toBe(429);
    expect(refused.body.error.data.type).toBe('rate_limit_error');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await login(u, { ip: freshIp() })).status).toBe(200);
  });

  it('counts IPv6 clients per /64', async () => {
    const w = await app.workspace();
    const net = `2001:db8:${randomBytes(2).toString('hex')}:1`;
    for (let i = 0; i < PER_IP; i++) {
      const res = await login({ w, email: `v6-${i}@example.com` }, { ip: `${net}::${i + 1}` });
      expect(res.status).toBe(401);
    }
    const u = await newUser(w);
    expect((await login(u, { ip: `${net}:ffff:ffff:ffff:ffff` })).status).toBe(429);
    expect((await login(u, { ip: `${net.slice(0, -1)}2::1` })).status).toBe(200);
  });

  it('does not count input that fails validation', async () => {
    const res = await trpc('auth.login', {
      mutation: true,
      input: { workspace: 'x', email: 'a@example.com' },
      headers: sameOrigin(),
    });
    expect(res.status).toBe(400);
    expect(res.body.error.data.type).toBe('validation_error');
  });
});

describe('every procedure of the router', () => {
  /** Path → query or mutation, from the router itself: a procedure added later is swept too. */
  const procedures = Object.entries(
    appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>,
  );
  /** Signing in and out need no session (CONTRACT 13); both are still same-origin only. */
  const SESSIONLESS = new Set(['auth.login', 'auth.logout']);

  it('answers 401 without a live session, and refuses every mutation from another origin', async () => {
    const { token } = await login(await newUser());
    const ended = await login(await newUser());
    expect(
      (await trpc('auth.logout', { mutation: true, cookie: ended.token!, headers: sameOrigin() })).status,
    ).toBe(200);
    const failures: string[] = [];
    for (const [path, proc] of procedures) {
      const mutation = proc._def.type === 'mutation';
      if (!SESSIONLESS.has(path))
        for (const [label, cookie] of [
          ['no session', undefined],
          ['garbage cookie', 'garbage'],
          ['forged token', randomBytes(32).toString('base64url')],
          ['signed-out session', ended.token!],
        ] as const) {
          const res = await trpc(path, { mutation, input: {}, cookie, headers: sameOrigin() });
          if (res.status !== 401 || res.body.error?.data?.code !== 'UNAUTHORIZED')
            failures.push(`${path} [${label}]: ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`);
        }
      if (mutation) {
        const res = await trpc(path, {
          mutation,
          input: {},
          cookie: token!,
          headers: { origin: 'https://evil.example' },
        });
        if (res.status !== 403 || res.body.error?.data?.type !== 'permission_error')
          failures.push(`${path} [foreign origin]: ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`);
      }
    }
    expect(procedures.filter(([, p]) => p._def.type === 'mutation').length).toBeGreaterThan(10);
    expect(procedures.length).toBeGreaterThan(30);
    expect(failures, failures.join('\n')).toEqual([]);
  });
});

describe('same-origin check on mutations (CSRF)', () => {
  const logout = (headers: Record<string, string>) => trpc('auth.logout', { mutation: true, headers });
  const refused = (res: TrpcAnswer) => {
    expect(res.status).toBe(403);
    expect(res.body.error.data).toMatchObject({
      code: 'FORBIDDEN',
      httpStatus: 403,
      type: 'permission_error',
    });
    expect(res.body.error.message).toMatch(/^Cross-site request refused/);
  };

  it('refuses a mutation from a foreign origin, even with a valid session cookie', async () => {
    const u = await newUser();
    const { token } = await login(u);
    const res = await trpc('ingestEndpoints.create', {
      mutation: true,
      input: { mode: 'test', name: 'evil' },
      cookie: token!,
      headers: { origin: 'https://evil.example' },
    });
    refused(res);
    const { rows } = await app.ctx.pool.query('select 1 from ingest_endpoints where workspace_id = $1', [
      u.w.id,
    ]);
    expect(rows).toEqual([]);
    // The session itself is untouched.
    expect((await me(token!)).status).toBe(200);
  });

  it('refuses a mutation with no Origin, Sec-Fetch-Site or Referer, and with any foreign one', async () => {
    const host = new URL(app.url).host;
    refused(await logout({}));
    refused(await logout({ origin: 'null' }));
    refused(await logout({ origin: 'https://evil.example' }));
    refused(await logout({ origin: `http://${host}.evil.example` }));
    refused(await logout({ origin: `http://evil.example:${new URL(app.url).port}` }));
    refused(await logout({ 'sec-fetch-site': 'cross-site' }));
    refused(await logout({ 'sec-fetch-site': 'same-site' }));
    refused(await logout({ 'sec-fetch-site': 'none' }));
    refused(await logout({ referer: 'https://evil.example/page' }));
    // Origin decides when present: a same-origin Sec-Fetch-Site does not rescue a foreign Origin.
    refused(await logout({ origin: 'https://evil.example', 'sec-fetch-site': 'same-origin' }));
  });

  it('refuses sign-in from another origin (login CSRF), and it does not count as an attempt', async () => {
    const u = await newUser();
    const res = await trpc('auth.login', {
      mutation: true,
      input: { workspace: u.w.slug, email: u.email, password: PASSWORD },
      headers: { origin: 'https://evil.example' },
    });
    refused(res);
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it('allows a mutation from its own origin: Origin, else Sec-Fetch-Site, else Referer', async () => {
    const allowed: Record<string, string>[] = [
      { origin: app.url },
      { 'sec-fetch-site': 'same-origin' },
      { referer: `${app.url}/dashboard/settings` },
    ];
    for (const headers of allowed) {
      const res = await logout(headers);
      expect(res.status, JSON.stringify(headers)).toBe(200);
      expect(res.body.result.data).toEqual({ signed_out: true });
    }
  });

  it('over TLS requires an https origin, and follows the public host a trusted proxy forwards', async () => {
    refused(await logout({ 'x-forwarded-proto': 'https', origin: app.url }));
    const ok = await logout({
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'dash.example.com',
      origin: 'https://dash.example.com',
    });
    expect(ok.status).toBe(200);
    refused(
      await logout({ 'x-forwarded-proto': 'https', 'x-forwarded-host': 'dash.example.com', origin: app.url }),
    );
  });

  it('lets queries through without any origin header', async () => {
    const u = await newUser();
    const { token } = await login(u);
    const res = await trpc('events.list', { input: { mode: 'test' }, cookie: token! });
    expect(res.status).toBe(200);
    expect(res.body.result.data).toMatchObject({ data: [] });
  });
});

describe('serving /dashboard', () => {
  const get = (p: string, init: RequestInit = {}) => fetch(`${app.url}${p}`, init);
  const expectSecurityHeaders = (res: Response) => {
    expect(res.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('same-origin');
  };

  it('serves the app at /dashboard with its security headers and a policy that forbids inline script', async () => {
    const res = await get('/dashboard');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(await res.text()).toContain('<div id="root"></div>');
    expectSecurityHeaders(res);
    const csp = Object.fromEntries(
      DASHBOARD_CSP.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]),
    );
    expect(csp).toMatchObject({
      'default-src': "'self'",
      'script-src': "'self'",
      'style-src': "'self' 'unsafe-inline'",
      'img-src': "'self' data:",
      'connect-src': "'self'",
      'frame-ancestors': "'none'",
    });
  });

  it('answers every deep link with index.html', async () => {
    for (const p of [
      '/dashboard/',
      '/dashboard/participants/alice',
      '/dashboard/participants/bob.smith',
      '/dashboard/settings?tab=keys',
    ]) {
      const res = await get(p);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await res.text()).toContain('<div id="root"></div>');
      expectSecurityHeaders(res);
    }
    const head = await get('/dashboard/rewards/7', { method: 'HEAD' });
    expect(head.status).toBe(200);
  });

  it('serves built assets with long immutable caching, and an unknown asset is a 404, not the page', async () => {
    const asset = await get('/dashboard/assets/index-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await asset.text()).toBe('console.log("dashboard");');
    expectSecurityHeaders(asset);

    for (const p of ['/dashboard/assets/index-old999.js', '/dashboard/assets/', '/dashboard/nope.js']) {
      const missing = await get(p);
      expect(missing.status, p).toBe(404);
      const text = await missing.text();
      expect(text).not.toContain('<div id="root">');
      expect(JSON.parse(text).error.type).toBe('not_found');
    }

    const favicon = await get('/dashboard/favicon.svg');
    expect(favicon.status).toBe(200);
    expect(favicon.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(favicon.headers.get('cache-control')).toBe('no-cache');
  });

  it('never serves a file outside the build', async () => {
    const secret = `${path.basename(dist)}-secret.txt`;
    for (const p of [
      `/dashboard/assets/..%2f..%2f${secret}`,
      `/dashboard/assets/%2e%2e/%2e%2e/${secret}`,
      `/dashboard/..%2f${secret}`,
    ]) {
      const res = await get(p);
      expect(res.status, p).toBeGreaterThanOrEqual(400);
      expect(await res.text()).not.toContain('not for the web');
    }
  });

  it('answers a clear 503 page while there is no build', async () => {
    const index = path.join(dist, 'index.html');
    renameSync(index, `${index}.away`);
    try {
      const res = await get('/dashboard/participants');
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await res.text()).toContain('npm run build:dashboard');
      expectSecurityHeaders(res);
    } finally {
      renameSync(`${index}.away`, index);
    }
    expect((await get('/dashboard')).status).toBe(200);
  });
});
