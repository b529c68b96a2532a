import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pkg from '../package.json' with { type: 'json' };
import { buildHttpHandler } from '../src/app.ts';
import { FAVICON_LINK, FAVICON_SVG } from '../src/rest/landing.ts';
import { eventually, request, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

let app: TestApp;
let ws: TestWorkspace;
/** The same HTTP surface as `app`, with a logger whose lines this file reads. */
let logged: Server;
let loggedUrl: string;
const lines: Record<string, unknown>[] = [];

beforeAll(async () => {
  app = await startTestApp({ role: 'api' });
  ws = await app.workspace();
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  logged = createServer(buildHttpHandler({ ...app.ctx, log }));
  await new Promise<void>((resolve) => logged.listen(0, '127.0.0.1', resolve));
  loggedUrl = `http://127.0.0.1:${(logged.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => logged?.close(resolve));
  await app?.close();
});

describe('GET / and GET /v1', () => {
  it.each(['/', '/v1', '/v1/'])('%s answers a JSON index without a key', async (path) => {
    const res = await request(app.url, path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toEqual({
      name: 'svc',
      description: pkg.description,
      version: pkg.version,
      api_version: 'v1',
      links: {
        openapi: '/v1/openapi.json',
        reference: '/docs',
        graphql: '/graphql',
        dashboard: '/dashboard',
        health: '/healthz',
      },
    });
  });

  it('answers JSON to an explicit Accept: application/json', async () => {
    const res = await request(app.url, '/', { headers: { accept: 'application/json' } });
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body.links.reference).toBe('/docs');
  });

  it('answers a browser a small HTML page with the same links and no external assets', async () => {
    const accept = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
    for (const path of ['/', '/v1']) {
      const res = await request(app.url, path, { headers: { accept } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      for (const href of ['/v1/openapi.json', '/docs', '/graphql', '/dashboard'])
        expect(res.text).toContain(`href="${href}"`);
      expect(res.text).toContain(pkg.version);
      // Its one link is the service's own icon.
      expect(res.text).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
      expect(res.text.replace(FAVICON_LINK, '')).not.toMatch(/<script|<link|<img|src=|url\(|https?:\/\//i);
    }
  });

  it('serves the icon at /favicon.svg and /favicon.ico, so no page of the service gets a 404 for it', async () => {
    for (const path of ['/favicon.svg', '/favicon.ico']) {
      const res = await fetch(app.url + path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
      expect(res.headers.get('cache-control')).toBe('public, max-age=86400');
      expect(await res.text()).toBe(FAVICON_SVG);
    }
  });

  it('links to documents this server serves', async () => {
    expect((await request(app.url, '/v1/openapi.json')).status).toBe(200);
    expect((await request(app.url, '/docs')).status).toBe(200);
    expect((await request(app.url, '/healthz')).status).toBe(200);
  });

  it('leaves other methods and paths as they were', async () => {
    expect((await request(app.url, '/', { method: 'POST', body: {} })).status).toBe(404);
    const unknown = await request(app.url, '/v1/nope', { key: ws.keys.test });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.type).toBe('not_found');
  });
});

describe('request logs', () => {
  /** The `request` line of the response that carried this request id. */
  const lineFor = (res: { headers: Headers }) => {
    const id = res.headers.get('x-request-id');
    return eventually(async () => {
      const line = lines.find((l) => l.msg === 'request' && l.reqId === id);
      if (!line) throw new Error(`no request line for ${id}`);
      return line;
    });
  };

  it('names the full path without its query and the route template, on success', async () => {
    const res = await request(loggedUrl, '/v1/rewards?include_inactive=true', { key: ws.keys.test });
    expect(res.status).toBe(200);
    expect(await lineFor(res)).toMatchObject({
      method: 'GET',
      path: '/v1/rewards',
      route: '/v1/rewards',
      status: 200,
    });
  });

  it('names the same route template when the route fails', async () => {
    const res = await request(loggedUrl, '/v1/rewards/999999', { key: ws.keys.test });
    expect(res.status).toBe(404);
    expect(await lineFor(res)).toMatchObject({
      path: '/v1/rewards/999999',
      route: '/v1/rewards/:id',
      status: 404,
    });
    const unauthenticated = await request(loggedUrl, '/v1/redemptions', { method: 'POST', body: {} });
    expect(unauthenticated.status).toBe(401);
    expect(await lineFor(unauthenticated)).toMatchObject({
      path: '/v1/redemptions',
      route: '/v1/redemptions',
      status: 401,
    });
  });

  it('names /graphql for GraphQL, /v1/events for the ingest door, and no route when none matched', async () => {
    const gql = await request(loggedUrl, '/graphql', {
      body: { query: '{ __typename }' },
      key: ws.keys.test,
    });
    expect(gql.status).toBe(200);
    const gqlLine = await lineFor(gql);
    expect(gqlLine).toMatchObject({ method: 'POST', path: '/graphql', status: 200 });
    expect(gqlLine).not.toHaveProperty('route');

    const event = await request(loggedUrl, '/v1/events', {
      key: ws.keys.test,
      body: { event_type: 'log.checked', participant: { external_id: 'logger' } },
    });
    expect(event.status).toBe(202);
    expect(await lineFor(event)).toMatchObject({ path: '/v1/events', route: '/v1/events', status: 202 });

    const missing = await request(loggedUrl, '/v1/nope?x=1', { key: ws.keys.test });
    expect(missing.status).toBe(404);
    const missingLine = await lineFor(missing);
    expect(missingLine).toMatchObject({ path: '/v1/nope', status: 404 });
    expect(missingLine).not.toHaveProperty('route');
  });
});
