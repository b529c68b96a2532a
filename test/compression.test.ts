import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickEncoding, precompressDir, shouldCompress } from '../src/lib/compression.ts';
import { eventually, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

/**
 * Response compression (src/lib/compression.ts): the dashboard's precompressed files picked by
 * Accept-Encoding, JSON above 1 KB compressed on request by the middleware, and what is never
 * compressed (the ingest hot path, export downloads, streams).
 */

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as sent (still encoded). */
  bytes: Buffer;
  /** The body decoded per its Content-Encoding. */
  text: string;
}

/** One request over node:http (fetch would decode the body and hide what was sent). */
function raw(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        const encoding = res.headers['content-encoding'];
        const decoded =
          bytes.length === 0
            ? bytes
            : encoding === 'br'
              ? zlib.brotliDecompressSync(bytes)
              : encoding === 'gzip'
                ? zlib.gunzipSync(bytes)
                : bytes;
        resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes, text: decoded.toString('utf8') });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

const BROWSER = 'gzip, deflate, br, zstd';

describe('pickEncoding', () => {
  it('prefers brotli, then gzip, and honours q=0 and *', () => {
    expect(pickEncoding(BROWSER)).toBe('br');
    expect(pickEncoding('gzip, deflate')).toBe('gzip');
    expect(pickEncoding('br;q=0, gzip')).toBe('gzip');
    expect(pickEncoding('gzip;q=1, br;q=0.5')).toBe('gzip');
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding('*;q=0, identity')).toBeNull();
    expect(pickEncoding('identity')).toBeNull();
    expect(pickEncoding('')).toBeNull();
    expect(pickEncoding(undefined)).toBeNull();
    expect(pickEncoding(BROWSER, ['gzip'])).toBe('gzip');
    expect(pickEncoding(BROWSER, [])).toBeNull();
  });
});

describe('shouldCompress', () => {
  const res = (headers: Record<string, string>) =>
    ({ getHeader: (name: string) => headers[name.toLowerCase()] }) as never;
  it('takes JSON and pages, never streams, CSV, NDJSON or attachments', () => {
    for (const type of [
      'application/json; charset=utf-8',
      'application/graphql-response+json; charset=utf-8',
      'application/problem+json',
      'text/html; charset=utf-8',
      'text/javascript',
    ])
      expect(shouldCompress({} as never, res({ 'content-type': type })), type).toBe(true);
    for (const type of [
      'text/event-stream',
      'multipart/mixed; boundary="-"',
      'text/csv; charset=utf-8',
      'application/x-ndjson',
      'application/jsonl',
      'application/octet-stream',
      'text/plain',
    ])
      expect(shouldCompress({} as never, res({ 'content-type': type })), type).toBe(false);
    expect(
      shouldCompress(
        {} as never,
        res({ 'content-type': 'application/json', 'content-disposition': 'attachment; filename="x.json"' }),
      ),
    ).toBe(false);
    expect(shouldCompress({} as never, res({}))).toBe(false);
  });
});

let app: TestApp;
let ws: TestWorkspace;
let dist: string;
const SCRIPT = `console.log(${JSON.stringify('dashboard '.repeat(400))});\n`;

beforeAll(async () => {
  dist = mkdtempSync(path.join(tmpdir(), 'svc-compression-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(
    path.join(dist, 'index.html'),
    `<!doctype html><html><head><script type="module" src="/dashboard/assets/index-abc123.js"></script></head><body>${'<div></div>'.repeat(200)}</body></html>`,
  );
  writeFileSync(path.join(dist, 'assets/index-abc123.js'), SCRIPT);
  writeFileSync(path.join(dist, 'assets/plain-abc123.js'), SCRIPT);
  await precompressDir(dist);
  // A file the build did not compress is sent as it is.
  rmSync(path.join(dist, 'assets/plain-abc123.js.br'));
  rmSync(path.join(dist, 'assets/plain-abc123.js.gz'));
  app = await startTestApp({ env: { DASHBOARD_DIST_DIR: dist } });
  ws = await app.workspace();
});
afterAll(async () => {
  await app?.close();
  if (dist) rmSync(dist, { recursive: true, force: true });
});

describe('precompressed dashboard files', () => {
  it('writes a .br and a .gz that decode to the file', () => {
    const js = readFileSync(path.join(dist, 'assets/index-abc123.js'));
    expect(zlib.brotliDecompressSync(readFileSync(path.join(dist, 'assets/index-abc123.js.br')))).toEqual(js);
    expect(zlib.gunzipSync(readFileSync(path.join(dist, 'assets/index-abc123.js.gz')))).toEqual(js);
  });

  it('sends the variant the request accepts, with its Content-Encoding, the type and caching of the file, and Vary', async () => {
    const url = `${app.url}/dashboard/assets/index-abc123.js`;
    for (const [accept, encoding] of [
      [BROWSER, 'br'],
      ['gzip, deflate', 'gzip'],
    ] as const) {
      const res = await raw(url, { headers: { 'accept-encoding': accept } });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers['content-type']).toMatch(/^text\/javascript/);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers.vary).toMatch(/Accept-Encoding/i);
      expect(res.headers['content-security-policy']).toBeDefined();
      expect(Number(res.headers['content-length'])).toBe(res.bytes.length);
      expect(res.bytes.length).toBeLessThan(SCRIPT.length / 5);
      expect(res.text).toBe(SCRIPT);
    }
    const identity = await raw(url, { headers: { 'accept-encoding': 'identity' } });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.headers.vary).toMatch(/Accept-Encoding/i);
    expect(identity.headers['content-type']).toMatch(/^text\/javascript/);
    expect(identity.text).toBe(SCRIPT);
    const none = await raw(url);
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.text).toBe(SCRIPT);
  });

  it('sends the app page (any route) precompressed, revalidated on every use', async () => {
    const res = await raw(`${app.url}/dashboard/participants/alice`, {
      headers: { 'accept-encoding': BROWSER },
    });
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.vary).toMatch(/Accept-Encoding/i);
    expect(res.text).toContain('/dashboard/assets/index-abc123.js');
  });

  it('answers HEAD with the headers only, and 404 for an unknown asset', async () => {
    const head = await raw(`${app.url}/dashboard/assets/index-abc123.js`, {
      method: 'HEAD',
      headers: { 'accept-encoding': BROWSER },
    });
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.bytes.length).toBe(0);
    const missing = await raw(`${app.url}/dashboard/assets/nope-abc.js`, {
      headers: { 'accept-encoding': BROWSER },
    });
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.text).error.type).toBe('not_found');
  });

  it('compresses a file the build left alone on the fly, once it is above 1 KB', async () => {
    const res = await raw(`${app.url}/dashboard/assets/plain-abc123.js`, {
      headers: { 'accept-encoding': BROWSER },
    });
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.text).toBe(SCRIPT);
  });
});

describe('the widget bundle', () => {
  it('is sent compressed as the request accepts, with Vary', async () => {
    const plain = await raw(`${app.url}/widget.js`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    for (const [accept, encoding] of [
      [BROWSER, 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      const res = await raw(`${app.url}/widget.js`, { headers: { 'accept-encoding': accept } });
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers['content-type']).toMatch(/^text\/javascript/);
      expect(res.headers['cache-control']).toBe('public, max-age=300');
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers.vary).toMatch(/Accept-Encoding/i);
      expect(res.bytes.length).toBeLessThan(plain.bytes.length / 2);
      expect(res.text).toBe(plain.text);
    }
  });
});

describe('JSON responses', () => {
  it('are brotli or gzip encoded when the client asks, identity when it does not', async () => {
    const url = `${app.url}/v1/openapi.json`;
    const plain = await raw(url);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-type']).toMatch(/^application\/json/);
    const doc = JSON.parse(plain.text);
    for (const [accept, encoding] of [
      [BROWSER, 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      const res = await raw(url, { headers: { 'accept-encoding': accept } });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers.vary).toMatch(/Accept-Encoding/i);
      expect(res.bytes.length).toBeLessThan(plain.bytes.length / 4);
      expect(JSON.parse(res.text)).toEqual(doc);
    }
    expect((await raw(url, { headers: { 'accept-encoding': 'identity' } })).headers['content-encoding']).toBe(
      undefined,
    );
  });

  it('compresses an authenticated list above 1 KB and leaves a small answer alone', async () => {
    for (let i = 0; i < 24; i++)
      await ws.api(`/v1/participants/compress-participant-with-a-longer-id-${i}/points`, {
        body: { points: 5, reason: 'seed' },
      });
    const headers = { authorization: `Bearer ${ws.keys.test}`, 'accept-encoding': BROWSER };
    const list = await raw(`${app.url}/v1/participants?limit=50`, { headers });
    expect(list.status).toBe(200);
    expect(list.headers['content-encoding']).toBe('br');
    expect(JSON.parse(list.text).data.length).toBeGreaterThanOrEqual(24);
    const small = await raw(`${app.url}/healthz`, { headers });
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('leaves POST /v1/events alone, on its own door and on the express one (a gzip body)', async () => {
    const body = JSON.stringify({
      event_type: 'order.completed',
      participant: { external_id: 'compress-e' },
    });
    const headers = {
      authorization: `Bearer ${ws.keys.test}`,
      'content-type': 'application/json',
      'accept-encoding': BROWSER,
    };
    const door = await raw(`${app.url}/v1/events`, { method: 'POST', headers, body });
    expect(door.status).toBe(202);
    expect(door.headers['content-encoding']).toBeUndefined();
    expect(door.headers.vary ?? '').not.toMatch(/Accept-Encoding/i);
    const viaExpress = await raw(`${app.url}/v1/events`, {
      method: 'POST',
      headers: { ...headers, 'content-encoding': 'gzip' },
      body: zlib.gzipSync(body),
    });
    expect(viaExpress.status).toBe(202);
    expect(viaExpress.headers['content-encoding']).toBeUndefined();
    expect(viaExpress.headers.vary ?? '').not.toMatch(/Accept-Encoding/i);
  });

  it('never compresses an export download: the file streams as it is, with its length', async () => {
    const created = await ws.api('/v1/exports', { body: { resource: 'participants', format: 'csv' } });
    expect(created.status, created.text).toBe(202);
    await eventually(
      async () => (await ws.api(`/v1/exports/${created.body.id}`)).body.status === 'completed',
      20_000,
    );
    const res = await raw(`${app.url}/v1/exports/${created.body.id}/download`, {
      headers: { authorization: `Bearer ${ws.keys.test}`, 'accept-encoding': BROWSER },
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(Number(res.headers['content-length'])).toBe(res.bytes.length);
    expect(res.bytes.length).toBeGreaterThan(1024);
    expect(res.text).toContain('compress-participant-with-a-longer-id-23');
  });
});
