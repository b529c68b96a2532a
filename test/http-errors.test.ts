import http from 'node:http';
import net from 'node:net';
import { gzipSync } from 'node:zlib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, request, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

const MAX_BODY_BYTES = 1024;
const GENERATED_ID = /^req_[0-9a-f]{32}$/;

let app: TestApp;
let ws: TestWorkspace;

beforeAll(async () => {
  app = await startTestApp({ env: { MAX_BODY_BYTES: String(MAX_BODY_BYTES) } });
  ws = await app.workspace();
});
afterAll(() => app?.close());

/** The error envelope, as JSON, with a request id. */
function expectError(res: ApiResponse, status: number, type: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.body).toMatchObject({ error: { type, message: expect.any(String) } });
  expect(Object.keys(res.body)).toEqual(['error']);
  expect(res.body.error.message.length).toBeGreaterThan(0);
  expect(res.headers.get('x-request-id')).toMatch(GENERATED_ID);
}

/** A valid event body of exactly `bytes` bytes. */
function eventOfSize(bytes: number): string {
  const shell = (pad: string) =>
    JSON.stringify({ event_type: 'order.completed', participant: { external_id: 'big' }, payload: { pad } });
  const body = shell('x'.repeat(bytes - Buffer.byteLength(shell(''))));
  expect(Buffer.byteLength(body)).toBe(bytes);
  return body;
}

/** A POST whose body is streamed in chunks with no Content-Length (Transfer-Encoding: chunked). */
function postChunked(path: string, chunks: Buffer[]): Promise<ApiResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${app.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ws.keys.test}`, 'content-type': 'application/json' },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => {
        text += d;
      });
      res.on('end', () => {
        const headers = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') headers.set(k, v);
        resolve({ status: res.statusCode ?? 0, headers, text, body: text ? JSON.parse(text) : null });
      });
    });
    let i = 0;
    const writeNext = () => {
      while (i < chunks.length) {
        if (!req.write(chunks[i++]!)) return void req.once('drain', writeNext);
      }
      req.end();
    };
    writeNext();
  });
}

describe('the error envelope and X-Request-Id', () => {
  it('answers an unknown route with 404 not_found, under /v1 and outside it', async () => {
    expectError(await request(app.url, '/nope'), 404, 'not_found');
    expectError(await ws.api('/v1/nope'), 404, 'not_found');
    expectError(await ws.api('/v1/nope', { method: 'DELETE' }), 404, 'not_found');
    expectError(await ws.api('/v1/events', { method: 'PATCH', body: {} }), 404, 'not_found');
  });

  it('answers a missing key with 401 authentication_error', async () => {
    expectError(await request(app.url, '/v1/events'), 401, 'authentication_error');
    expectError(
      await request(app.url, '/v1/events', { body: { event_type: 'a.b', participant: 'p' } }),
      401,
      'authentication_error',
    );
  });

  it('answers a path parameter that is not valid percent-encoding with 400, not 500', async () => {
    expectError(await ws.api('/v1/events/%E0%A4%A'), 400, 'invalid_request_error');
  });

  it('puts a request id on successful responses too, a different one each time', async () => {
    const a = await request(app.url, '/healthz');
    const b = await ws.api('/v1/events');
    expect(a.headers.get('x-request-id')).toMatch(GENERATED_ID);
    expect(b.headers.get('x-request-id')).toMatch(GENERATED_ID);
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });

  it("echoes a caller's sane X-Request-Id", async () => {
    for (const id of ['trace-123.abc:DEF_456', 'x', 'a'.repeat(128)]) {
      const ok = await ws.api('/v1/events', { headers: { 'x-request-id': id } });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('x-request-id')).toBe(id);
      const failed = await request(app.url, '/nope', { headers: { 'x-request-id': id } });
      expect(failed.status).toBe(404);
      expect(failed.headers.get('x-request-id')).toBe(id);
    }
  });

  it('replaces an insane X-Request-Id (too long, spaces, other characters) with its own', async () => {
    for (const id of ['a'.repeat(129), 'has spaces in it', 'semi;colon', 'slash/y', '"quoted"']) {
      const res = await ws.api('/v1/events', { headers: { 'x-request-id': id } });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-request-id')).toMatch(GENERATED_ID);
    }
  });

  it("answers a request node's HTTP parser rejects in the envelope, with a request id", async () => {
    const raw = await new Promise<string>((resolve, reject) => {
      const { port } = new URL(app.url);
      const socket = net.connect(Number(port), '127.0.0.1');
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (d) => {
        text += d;
      });
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
      socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nthis is not a header\r\n\r\n');
    });
    const [head = '', body = ''] = raw.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(head).toMatch(/\r\nX-Request-Id: req_[0-9a-f]{32}(\r\n|$)/i);
    expect(JSON.parse(body)).toEqual({
      error: { type: 'invalid_request_error', message: expect.any(String) },
    });
  });
});

describe('request bodies', () => {
  it(`accepts a body of exactly MAX_BODY_BYTES (${MAX_BODY_BYTES}) bytes`, async () => {
    const res = await ws.api('/v1/events', {
      raw: eventOfSize(MAX_BODY_BYTES),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(202);
  });

  it('answers a body one byte over MAX_BODY_BYTES with 413 payload_too_large', async () => {
    const res = await ws.api('/v1/events', {
      raw: eventOfSize(MAX_BODY_BYTES + 1),
      headers: { 'content-type': 'application/json' },
    });
    expectError(res, 413, 'payload_too_large');
  });

  it('answers a chunked body that grows past the limit with 413 (no Content-Length to trust)', async () => {
    const chunks = Array.from({ length: 64 }, () => Buffer.from(' '.repeat(512)));
    expectError(await postChunked('/v1/events', chunks), 413, 'payload_too_large');
    // The same path with a small chunked body works.
    const ok = await postChunked('/v1/events', [
      Buffer.from('{"event_type":"order.completed",'),
      Buffer.from('"participant":"chunky"}'),
    ]);
    expect(ok.status).toBe(202);
  });

  it('answers 413 before authentication, so an oversized body costs nothing', async () => {
    const res = await request(app.url, '/v1/events', {
      raw: 'x'.repeat(MAX_BODY_BYTES * 4),
      headers: { 'content-type': 'application/json' },
    });
    expectError(res, 413, 'payload_too_large');
  });

  it.each([
    ['malformed JSON', '{"event_type": "a.b",'],
    ['a JSON array', '[{"event_type":"a.b","participant":"p"}]'],
    ['a JSON number', '42'],
    ['a JSON string', '"event"'],
    ['JSON null', 'null'],
    ['JSON true', 'true'],
  ])('answers %s with 400 invalid_request_error', async (_name, raw) => {
    const res = await ws.api('/v1/events', { raw, headers: { 'content-type': 'application/json' } });
    expectError(res, 400, 'invalid_request_error');
  });

  it('answers invalid UTF-8 with 400 invalid_request_error', async () => {
    const raw = Buffer.concat([
      Buffer.from('{"event_type":"order.completed","participant":"'),
      Buffer.from([0xc3, 0x28, 0xff]),
      Buffer.from('"}'),
    ]);
    const res = await ws.api('/v1/events', { raw, headers: { 'content-type': 'application/json' } });
    expectError(res, 400, 'invalid_request_error');
    expect(res.body.error.message).toMatch(/UTF-8/);
  });

  it.each([
    ['application/xml', '<event/>'],
    ['application/x-www-form-urlencoded', 'event_type=a.b&participant=p'],
    ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--'],
  ])('answers Content-Type %s with 400 invalid_request_error', async (type, raw) => {
    const res = await ws.api('/v1/events', { raw, headers: { 'content-type': type } });
    expectError(res, 400, 'invalid_request_error');
    expect(res.body.error.message).toMatch(/Content-Type/);
  });

  it('reads a body sent without Content-Type as JSON, and +json types as JSON', async () => {
    const raw = Buffer.from(JSON.stringify({ event_type: 'order.completed', participant: 'untyped' }));
    expect((await ws.api('/v1/events', { raw })).status).toBe(202);
    const vendor = await ws.api('/v1/events', {
      raw: raw.toString(),
      headers: { 'content-type': 'application/vnd.api+json; charset=utf-8' },
    });
    expect(vendor.status).toBe(202);
  });

  it('keeps serving after clients abort POST /v1/events mid-body', async () => {
    const { port } = new URL(app.url);
    for (let i = 0; i < 5; i++) {
      await new Promise<void>((resolve, reject) => {
        const socket = net.connect(Number(port), '127.0.0.1', () => {
          socket.write(
            'POST /v1/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
              `Authorization: Bearer ${ws.keys.test}\r\nContent-Length: 500\r\n\r\n{"event_type":`,
          );
          // The scenario itself: a client that stalls mid-body for a moment, then resets.
          setTimeout(() => {
            socket.resetAndDestroy();
            resolve();
          }, 20);
        });
        socket.on('error', reject);
      });
    }
    const res = await ws.api('/v1/events', {
      body: { event_type: 'order.completed', participant: 'after-abort' },
    });
    expect(res.status).toBe(202);
  });

  it('inflates a gzip-encoded body (POST /v1/events hands it to the express door)', async () => {
    const raw = gzipSync(JSON.stringify({ event_type: 'order.completed', participant: 'zipped' }));
    const res = await ws.api('/v1/events', {
      raw,
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    });
    expect(res.status).toBe(202);
    const stored = await app.ctx.pool.query('select external_id from events where id = $1', [
      res.body.event_id,
    ]);
    expect(stored.rows).toEqual([{ external_id: 'zipped' }]);
  });

  it('serves POST /v1/events with a query string, and echoes the caller’s request id on 202 and 400', async () => {
    const ok = await ws.api('/v1/events?source=x', {
      body: { event_type: 'order.completed', participant: 'query' },
      headers: { 'x-request-id': 'post-trace-1' },
    });
    expect(ok.status).toBe(202);
    expect(ok.headers.get('x-request-id')).toBe('post-trace-1');
    const bad = await ws.api('/v1/events', {
      raw: '{',
      headers: { 'content-type': 'application/json', 'x-request-id': 'post-trace-2' },
    });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('x-request-id')).toBe('post-trace-2');
  });

  it('answers a well-formed body with invalid fields with 422 validation_error and field errors', async () => {
    const res = await ws.api('/v1/events', { body: { event_type: 'a.b', participant: 'p', bogus: 1 } });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({
      type: 'validation_error',
      errors: [{ field: expect.any(String), message: expect.any(String) }],
    });
    expect(res.headers.get('x-request-id')).toMatch(GENERATED_ID);
  });
});

describe('health and metrics', () => {
  it('/healthz answers 200', async () => {
    const res = await request(app.url, '/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
  });

  it('/readyz answers 200 with the database up', async () => {
    const res = await request(app.url, '/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, database: 'up' });
    expect(res.headers.get('x-request-id')).toMatch(GENERATED_ID);
  });

  it('/metrics exposes request counts by route pattern and queue depth in Prometheus text format', async () => {
    const posted = await ws.api('/v1/events', { body: { event_type: 'a.b', participant: 'metrics' } });
    expect(posted.status).toBe(202);
    await ws.api(`/v1/events/${posted.body.event_id}`);
    await request(app.url, '/v1/events');
    await request(app.url, '/v1/unknown-route-4f2a9c');

    const res = await request(app.url, '/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers.get('x-request-id')).toMatch(GENERATED_ID);
    const lines = res.text.split('\n').filter(Boolean);
    for (const line of lines) {
      expect(line).toMatch(
        /^(# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .+|[a-zA-Z_:][a-zA-Z0-9_:]*(\{[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*"(,[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*")*\})? (-?[0-9.]+(e[+-]?[0-9]+)?|NaN|[+-]Inf))$/,
      );
    }
    expect(lines).toContain('# TYPE svc_http_requests_total counter');
    expect(lines).toContain('# TYPE svc_queue_depth gauge');
    const sample = (name: string, labels: string) =>
      lines.find((l) => l.startsWith(`${name}{${labels}} `))?.split(' ')[1];
    expect(
      Number(sample('svc_http_requests_total', 'method="POST",route="/v1/events",status="202"')),
    ).toBeGreaterThan(0);
    expect(
      Number(sample('svc_http_requests_total', 'method="GET",route="/v1/events/:id",status="200"')),
    ).toBeGreaterThan(0);
    expect(
      Number(sample('svc_http_requests_total', 'method="GET",route="/v1/events",status="401"')),
    ).toBeGreaterThan(0);
    expect(
      Number(sample('svc_http_requests_total', 'method="GET",route="unmatched",status="404"')),
    ).toBeGreaterThan(0);
    expect(res.text).not.toContain('4f2a9c'); // raw paths never become labels
    expect(sample('svc_queue_depth', 'queue="events.process"')).toMatch(/^\d+$/);
  });
});

describe('unexpected failures', () => {
  /** Pulls the events table out from under the running service while `request` runs. */
  async function withEventsTableGone(request: () => Promise<ApiResponse>): Promise<ApiResponse> {
    const admin = new pg.Client({ connectionString: app.databaseUrl });
    await admin.connect();
    try {
      await admin.query('alter table events rename to events_gone');
      return await request();
    } finally {
      await admin.query('alter table if exists events_gone rename to events');
      await admin.end();
    }
  }

  /** A 500 in the envelope, with the caller's request id and none of `leaks` in its text. */
  function expectOpaque500(res: ApiResponse, requestId: string, leaks: string[]) {
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: { type: 'api_error', message: expect.any(String) } });
    expect(res.headers.get('x-request-id')).toBe(requestId);
    for (const leak of leaks) expect(res.text).not.toContain(leak);
  }

  it('answers 500 api_error on POST /v1/events when its write fails, without internals', async () => {
    const res = await withEventsTableGone(() =>
      ws.api('/v1/events', {
        body: { event_type: 'a.b', participant: 'write-fails' },
        headers: { 'x-request-id': 'trace-post-500' },
      }),
    );
    expectOpaque500(res, 'trace-post-500', [
      'events_gone',
      'relation',
      'insert',
      ' at ',
      '.ts:',
      'node_modules',
    ]);
    const again = await ws.api('/v1/events', { body: { event_type: 'a.b', participant: 'write-fails' } });
    expect(again.status).toBe(202);
  });

  it('answers 500 api_error without a stack trace or database details when a query fails', async () => {
    const posted = await ws.api('/v1/events', { body: { event_type: 'a.b', participant: 'five-hundred' } });
    expect(posted.status).toBe(202);
    // The next read fails in the ORM.
    const res = await withEventsTableGone(() =>
      ws.api(`/v1/events/${posted.body.event_id}`, { headers: { 'x-request-id': 'trace-500' } }),
    );
    expectOpaque500(res, 'trace-500', [
      'events_gone',
      'relation',
      'select',
      ' at ',
      '.ts:',
      'node_modules',
      'Exception',
    ]);
    expect((await ws.api(`/v1/events/${posted.body.event_id}`)).status).toBe(200);
  });
});
