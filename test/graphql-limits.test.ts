import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { MAX_COST, MAX_DEPTH } from '../src/schema/limits.ts';
import { startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

let app: TestApp;
let ws: TestWorkspace;

beforeAll(async () => {
  app = await startTestApp({ env: { CORS_ORIGINS: 'https://shop.example', MAX_BODY_BYTES: '65536' } });
  ws = await app.workspace();
});
afterAll(() => app?.close());

const gql = async (query: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${app.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ws.keys.test}`, ...headers },
    body: JSON.stringify({ query }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? (JSON.parse(text) as any) : null };
};

/** `__type { ofType { ofType … } }`: `levels` levels of selection. */
const nested = (levels: number) =>
  `{ __type(name: "Participant") { ${'ofType { '.repeat(levels - 2)}name${' }'.repeat(levels - 2)} } }`;

describe('GraphQL limits, refused before execution', () => {
  it(`allows depth ${MAX_DEPTH} and refuses ${MAX_DEPTH + 1} with validation_error`, async () => {
    expect((await gql(nested(MAX_DEPTH))).body.errors).toBeUndefined();
    const deep = await gql(nested(MAX_DEPTH + 1));
    expect(deep.body.data ?? null).toBeNull();
    expect(deep.body.errors[0]).toMatchObject({
      message: expect.stringContaining(`depth limit of ${MAX_DEPTH}`),
      extensions: { code: 'validation_error' },
    });
  });

  it(`refuses an operation costing more than ${MAX_COST}, and runs nothing of it`, async () => {
    const costly =
      '{ participants(first: 200) { nodes { externalId ledger(first: 200) { nodes { id points } } } } }';
    const res = await gql(costly);
    expect(res.body.data ?? null).toBeNull();
    expect(res.body.errors[0]).toMatchObject({
      message: expect.stringMatching(new RegExp(`cost limit of ${MAX_COST}`, 'i')),
      extensions: { code: 'validation_error' },
    });
    const fine = await gql(
      '{ participants(first: 100) { nodes { externalId balance summary { rank badgesCount } badges { key tier name } } } }',
    );
    expect(fine.body.errors).toBeUndefined();
  });

  it('refuses an oversized query with 413 and an unknown operation name with an error', async () => {
    const big = await gql(`{ ${'__typename '.repeat(7000)} }`);
    expect(big.status).toBe(413);
    const unknown = await fetch(`${app.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ws.keys.test}` },
      body: JSON.stringify({ query: 'query A { __typename }', operationName: 'B' }),
    }).then((r) => r.json() as Promise<any>);
    expect(unknown.errors[0].message).toMatch(/operation/i);
  });

  it('applies the limits to subscriptions over graphql-ws too', async () => {
    const socket = new WebSocket(`${app.url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws');
    const messages: any[] = [];
    await new Promise<void>((resolve) => socket.on('open', () => resolve()));
    socket.on('message', (m) => messages.push(JSON.parse(String(m))));
    socket.send(
      JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${ws.keys.test}` } }),
    );
    await expect.poll(() => messages.some((m) => m.type === 'connection_ack')).toBe(true);
    socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: nested(MAX_DEPTH + 1) } }));
    await expect.poll(() => messages.find((m) => m.id === '1')).toBeDefined();
    expect(messages.find((m) => m.id === '1')).toMatchObject({
      type: 'error',
      payload: [{ extensions: { code: 'validation_error' } }],
    });
    socket.close();
  });
});

describe('CORS for browser callers', () => {
  it('answers an allowed origin’s preflight and request, and gives others no CORS headers', async () => {
    const preflight = await fetch(`${app.url}/graphql`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://shop.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(preflight.status).toBeLessThan(300);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/authorization/i);
    const allowed = await gql('{ __typename }', { origin: 'https://shop.example' });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    const other = await gql('{ __typename }', { origin: 'https://evil.example' });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses a socket opened from an origin that is not allowed', async () => {
    const open = (origin: string) =>
      new Promise<string>((resolve) => {
        const s = new WebSocket(`${app.url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws', {
          origin,
        });
        s.on('open', () => {
          s.close();
          resolve('open');
        });
        s.on('unexpected-response', (_req, res) => resolve(String(res.statusCode)));
        s.on('error', () => resolve('error'));
      });
    expect(await open('https://shop.example')).toBe('open');
    expect(await open('https://evil.example')).toBe('403');
  });
});

describe('GraphiQL', () => {
  it('is served from the package, with nothing loaded from another origin', async () => {
    const res = await fetch(`${app.url}/graphql`, { headers: { accept: 'text/html' } });
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(html).toContain('svc GraphQL');
    expect(html).not.toMatch(/unpkg\.com|jsdelivr|cdnjs|<script[^>]+src="https?:/);
    expect(html).not.toContain('__TITLE__');
  });
});
