import { randomBytes } from 'node:crypto';
import { createTRPCClient, httpLink, type TRPCClient } from '@trpc/client';
import { inject } from 'vitest';
import { loadConfig } from '../src/config.ts';
import type { AppContext } from '../src/context.ts';
import { ensureDatabase, withDatabase } from '../src/db/database.ts';
import { type RunningServer, startServer } from '../src/server.ts';
import { createKeyInput, issueKey } from '../src/services/keys/manage-keys.ts';
import type { Mode } from '../src/services/keys/principal.ts';
import { parseInput } from '../src/services/validation.ts';
import { createUser } from '../src/services/workspaces/create-user.ts';
import { createWorkspace } from '../src/services/workspaces/create-workspace.ts';
import type { AppRouter } from '../src/trpc/index.ts';
import { checkResponse } from './response-check.ts';

export const TEST_SECRET = 'test-secret-0123456789abcdef';

/** A fresh database cloned from the migrated template; its URL. */
export async function freshDatabase(): Promise<string> {
  const admin = inject('adminUrl');
  const name = `svc_t_${inject('runId')}_${randomBytes(6).toString('hex')}`;
  await ensureDatabase(admin, name, inject('templateDb'));
  return withDatabase(admin, name);
}

export function testEnv(databaseUrl: string, env: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: databaseUrl,
    PORT: '0',
    HOST: '127.0.0.1',
    SVC_SECRET: TEST_SECRET,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    RATE_LIMIT_PER_MINUTE: '0',
    EGRESS_ALLOW_CIDRS: '127.0.0.1/32',
    ...env,
  };
}

export interface TestApp {
  url: string;
  databaseUrl: string;
  ctx: AppContext;
  running: RunningServer;
  /** A new workspace with a key per mode (full access unless abilities are given). */
  workspace(opts?: { abilities?: string[] }): Promise<TestWorkspace>;
  close(): Promise<void>;
}

export interface TestWorkspace {
  id: string;
  slug: string;
  keys: Record<Mode, string>;
  keyIds: Record<Mode, string>;
  /** fetch against the app with the workspace's key for `mode` (test by default). */
  api(path: string, init?: ApiInit): Promise<ApiResponse>;
}

export interface ApiInit {
  method?: string;
  body?: unknown;
  raw?: string | Buffer;
  headers?: Record<string, string>;
  mode?: Mode;
  key?: string | null;
  /** Skips the declaration check: only for requests a test sends to prove the check itself. */
  unchecked?: boolean;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/** The real server (HTTP on loopback, its own database, workers running) for one test file. */
export async function startTestApp(
  opts: { env?: Record<string, string>; role?: 'api' | 'worker' | 'all' } = {},
): Promise<TestApp> {
  const databaseUrl = await freshDatabase();
  const config = loadConfig(testEnv(databaseUrl, opts.env));
  const running = await startServer(config, { role: opts.role ?? 'all' });
  const ctx = running.runtime.ctx;
  const url = running.url;
  return {
    url,
    databaseUrl,
    ctx,
    running,
    async workspace(wsOpts = {}) {
      const slug = `ws-${randomBytes(5).toString('hex')}`;
      const ws = await createWorkspace(ctx, { slug });
      // `abilities` is whatever strings a test names: checked as `svc keys create` checks them.
      const key = (mode: string) =>
        issueKey(
          ctx,
          parseInput(createKeyInput, { workspace: slug, mode, abilities: wsOpts.abilities ?? [] }),
        );
      const test = await key('test');
      const live = await key('live');
      const keys = { test: test.key, live: live.key };
      return {
        id: ws.id,
        slug,
        keys,
        keyIds: { test: test.id, live: live.id },
        api: (path, init = {}) =>
          request(url, path, { ...init, key: init.key === undefined ? keys[init.mode ?? 'test'] : init.key }),
      };
    },
    close: () => running.shutdown(),
  };
}

/** One HTTP request; JSON in and out unless `raw` is given. */
export async function request(base: string, path: string, init: ApiInit = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.key) headers.authorization = `Bearer ${init.key}`;
  let body: string | Uint8Array<ArrayBuffer> | undefined;
  if (init.raw !== undefined) body = typeof init.raw === 'string' ? init.raw : new Uint8Array(init.raw);
  else if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(base + path, {
    method: init.method ?? (body !== undefined ? 'POST' : 'GET'),
    headers,
    body,
  });
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  // Every REST response of every test is checked against its operation's declaration.
  if (!init.unchecked)
    checkResponse(init.method ?? (body !== undefined ? 'POST' : 'GET'), path, {
      status: res.status,
      contentType: res.headers.get('content-type'),
      body: parsed,
      text,
    });
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** Polls until `check` returns a truthy value (or throws after `timeoutMs`). */
export async function eventually<T>(
  check: () => Promise<T | null | undefined | false>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await check();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`condition not met within ${timeoutMs} ms${last ? `: ${String(last)}` : ''}`);
}

export interface DashboardClient {
  client: TRPCClient<AppRouter>;
  /** The cookies the browser holds (name → value). */
  jar: Map<string, string>;
  /** Every Set-Cookie header the server answered, in order. */
  setCookies: string[];
}

/**
 * A dashboard as a browser runs it: a typed tRPC client that keeps cookies and sends the page's
 * own `Origin` with every request (browsers do on every POST; the server's CSRF check needs it).
 */
export function dashboardClient(baseUrl: string, opts: { origin?: string | null } = {}): DashboardClient {
  const origin = opts.origin === undefined ? new URL(baseUrl).origin : opts.origin;
  const jar = new Map<string, string>();
  const setCookies: string[] = [];
  const fetchWithCookies = async (input: RequestInfo | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    if (origin) headers.set('origin', origin);
    if (jar.size) headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(input, { ...init, headers });
    for (const cookie of res.headers.getSetCookie()) {
      setCookies.push(cookie);
      const [pair = ''] = cookie.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const expired = /max-age=0|expires=thu, 01 jan 1970/i.test(cookie);
      if (expired) jar.delete(name);
      else jar.set(name, pair.slice(eq + 1));
    }
    return res;
  };
  const client = createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${baseUrl}/trpc`, fetch: fetchWithCookies })],
  });
  return { client, jar, setCookies };
}

/**
 * A dashboard tRPC client signed in as a new user of `ws` (its session cookie kept across calls),
 * as the dashboard is after `svc users create` and a login.
 */
export async function signedInDashboard(app: TestApp, ws: { slug: string }): Promise<TRPCClient<AppRouter>> {
  const email = `owner-${ws.slug}@example.com`;
  const password = 'correct horse battery staple';
  await createUser(app.ctx, { workspace: ws.slug, email, password });
  const { client } = dashboardClient(app.url);
  await client.auth.login.mutate({ workspace: ws.slug, email, password });
  return client;
}
