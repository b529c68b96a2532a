import { randomUUID } from 'node:crypto';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { createSchema } from 'zod-openapi';
import { buildApp } from '../src/app.ts';
import { signPayload } from '../src/lib/secrets.ts';
import { errorStatus } from '../src/rest/error-status.ts';
import { EVENT_TYPE_PATTERN, eventBody, LIMITS } from '../src/services/events/event-input.ts';
import { putSchemaBody } from '../src/services/events/event-types.ts';
import { createIngestEndpointInput } from '../src/services/events/ingest-endpoints.ts';
import { listEventsInput } from '../src/services/events/list-events.ts';
import { ABILITIES } from '../src/services/keys/abilities.ts';
import { type ApiResponse, request, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';
import { documentValidator } from './response-check.ts';

const MAX_BODY_BYTES = 4096;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

type Json = any;
interface Operation {
  method: string;
  path: string;
  op: Json;
}

let app: TestApp;
let ws: TestWorkspace;
let doc: Json;
let operations: Operation[];

beforeAll(async () => {
  app = await startTestApp({ env: { MAX_BODY_BYTES: String(MAX_BODY_BYTES) } });
  ws = await app.workspace();
  const res = await request(app.url, '/v1/openapi.json');
  expect(res.status).toBe(200);
  doc = res.body;
  operations = Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ method, path, op: item[method] })),
  );
});
afterAll(() => app?.close());

// --- helpers ---

function walk(node: Json, visit: (value: Json, path: string) => void, path = '#'): void {
  visit(node, path);
  if (node && typeof node === 'object')
    for (const [k, v] of Object.entries(node)) walk(v, visit, `${path}/${k}`);
}

// Ajv over the served document (shared with the test client's check, test/response-check.ts).
let validator: ReturnType<typeof documentValidator> | undefined;
function validatorOf(): ReturnType<typeof documentValidator> {
  validator ??= documentValidator(doc);
  return validator;
}
const resolve = (value: Json): Json => validatorOf().resolve(value);
const compile = (schema: Json): ValidateFunction => validatorOf().compile(schema);

/** A response must be documented for its operation and status, carry X-Request-Id, and match its schema. */
function expectDocumented(method: string, path: string, res: ApiResponse) {
  const op = doc.paths[path]?.[method];
  expect(op, `${method.toUpperCase()} ${path} is documented`).toBeDefined();
  const documented = op.responses[String(res.status)];
  expect(
    documented,
    `${method.toUpperCase()} ${path} documents status ${res.status}: ${res.text}`,
  ).toBeDefined();
  const response = resolve(documented);
  expect(res.headers.get('x-request-id')).toBeTruthy();
  for (const [name, header] of Object.entries(response.headers ?? {}))
    if (resolve(header).required) expect(res.headers.get(name), `header ${name}`).not.toBeNull();
  const schema = response.content?.['application/json']?.schema;
  if (schema) {
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const validate = compile(schema);
    expect(validate(res.body), `${method} ${path} ${res.status}: ${JSON.stringify(validate.errors)}`).toBe(
      true,
    );
  }
}

const sampleUrl = (path: string) => path.replace('{id}', randomUUID()).replace('{key}', 'order.completed');

interface LayerLike {
  route?: { path: unknown; methods: Record<string, boolean> };
  handle?: { stack?: LayerLike[] };
  rawPath?: unknown;
}

/** `METHOD /path/{param}` for every route of an express app (mounted routers included). */
function registeredRoutes(stack: LayerLike[], prefix = ''): string[] {
  return stack.flatMap((layer) => {
    if (layer.route) {
      const path = layer.route.path;
      if (typeof path !== 'string' || /[*(){}?]/.test(path))
        throw new Error(`cannot map express path ${String(path)} to OpenAPI; extend this test`);
      const template = `${prefix}${path}`.replace(/:(\w+)/g, '{$1}');
      return Object.keys(layer.route.methods)
        .filter((m) => m !== '_all' && layer.route!.methods[m])
        .map((m) => `${m.toUpperCase()} ${template}`);
    }
    if (layer.handle?.stack) {
      if (typeof layer.rawPath !== 'string') throw new Error('router mounted on a non-string path');
      return registeredRoutes(layer.handle.stack, prefix + (layer.rawPath === '/' ? '' : layer.rawPath));
    }
    return [];
  });
}

// --- the document ---

describe('GET /v1/openapi.json', () => {
  it('is served without authentication, as JSON with a request id, and built once', async () => {
    const a = await request(app.url, '/v1/openapi.json');
    const b = await request(app.url, '/v1/openapi.json');
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toMatch(/^application\/json/);
    expect(a.headers.get('x-request-id')).toMatch(/^req_/);
    expect(b.text).toBe(a.text);
    expectDocumented('get', '/v1/openapi.json', a);
  });

  it('is structurally valid OpenAPI 3.1', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    expect(doc.servers).toEqual([{ url: '/' }]);
    expect(
      Object.keys(doc).every(
        (k) =>
          [
            'openapi',
            'info',
            'servers',
            'paths',
            'components',
            'security',
            'tags',
            'externalDocs',
            'webhooks',
            'jsonSchemaDialect',
          ].includes(k) || k.startsWith('x-'),
      ),
    ).toBe(true);

    const ids = new Set<string>();
    const tags = new Set((doc.tags as { name: string }[]).map((t) => t.name));
    for (const { method, path, op } of operations) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(path, where).toMatch(/^\//);
      expect(ids.has(op.operationId), `${where}: unique operationId`).toBe(false);
      ids.add(op.operationId);
      for (const tag of op.tags) expect(tags.has(tag), `${where}: tag ${tag} declared`).toBe(true);
      expect(op.summary, where).toEqual(expect.any(String));

      const params = (op.parameters ?? []).map(resolve);
      for (const p of params) {
        expect(['query', 'header', 'path', 'cookie'], where).toContain(p.in);
        expect(p.name, where).toEqual(expect.any(String));
        expect(p.schema, `${where} ${p.name}: schema`).toBeDefined();
        compile(p.schema);
      }
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const pathParams = params.filter((p: Json) => p.in === 'path');
      expect(pathParams.map((p: Json) => p.name).sort(), `${where}: path parameters`).toEqual(
        templated.sort(),
      );
      for (const p of pathParams)
        expect(p.required, `${where} ${p.name}: path parameters are required`).toBe(true);

      if (op.requestBody) {
        const body = resolve(op.requestBody);
        expect(Object.keys(body.content).length, where).toBeGreaterThan(0);
        for (const media of Object.values<Json>(body.content)) compile(media.schema);
      }

      expect(Object.keys(op.responses).length, where).toBeGreaterThan(0);
      for (const [status, raw] of Object.entries<Json>(op.responses)) {
        expect(status, where).toMatch(/^([1-5]\d\d|[1-5]XX|default)$/);
        const response = resolve(raw);
        expect(response.description, `${where} ${status}: description`).toEqual(expect.any(String));
        for (const media of Object.values<Json>(response.content ?? {})) compile(media.schema);
        for (const header of Object.values<Json>(response.headers ?? {})) compile(resolve(header).schema);
      }

      for (const requirement of op.security ?? doc.security ?? [])
        for (const scheme of Object.keys(requirement))
          expect(doc.components.securitySchemes[scheme], `${where}: security scheme ${scheme}`).toBeDefined();
    }

    walk(doc, (value, at) => {
      if (value && typeof value === 'object' && typeof value.$ref === 'string') {
        expect(value.$ref, at).toMatch(/^#\//);
        expect(() => resolve(value), at).not.toThrow();
      }
    });
    // Component names must match the pattern OpenAPI allows.
    for (const group of Object.values<Json>(doc.components))
      for (const name of Object.keys(group)) expect(name).toMatch(/^[a-zA-Z0-9.\-_]+$/);
  });

  it('documents every route the app registers under /v1, and only routes that exist', () => {
    const express = buildApp(app.ctx) as unknown as { router: { stack: LayerLike[] } };
    const registered = new Set(registeredRoutes(express.router.stack));
    const documented = new Set(operations.map(({ method, path }) => `${method.toUpperCase()} ${path}`));
    const v1 = (routes: Set<string>) => [...routes].filter((r) => r.split(' ')[1]!.startsWith('/v1/')).sort();
    expect(v1(registered).length).toBeGreaterThanOrEqual(11);
    expect(v1(documented)).toEqual(v1(registered));
    for (const route of documented) expect(registered, `${route} is served`).toContain(route);
  });

  it('describes each request body with the schema of the service that validates it', () => {
    const input = (schema: z.ZodType) =>
      createSchema(schema, { io: 'input', openapiVersion: '3.1.1' }).schema;
    const bodyOf = (method: string, path: string) =>
      resolve(resolve(doc.paths[path][method].requestBody).content['application/json'].schema);
    expect(bodyOf('post', '/v1/events')).toEqual(input(eventBody));
    expect(bodyOf('post', '/v1/ingest/{key}')).toEqual(input(eventBody));
    expect(bodyOf('put', '/v1/event-types/{key}/schema')).toEqual(input(putSchemaBody));
    expect(bodyOf('post', '/v1/ingest-endpoints')).toEqual(input(createIngestEndpointInput));

    // The limits a client cares about come through from the zod schema itself.
    const event = bodyOf('post', '/v1/events');
    expect(event.additionalProperties).toBe(false);
    expect(event.properties.event_type.anyOf).toContainEqual({
      type: 'string',
      maxLength: LIMITS.eventTypeLength,
    });
    expect(JSON.stringify(event.properties.participant)).toContain(`"maxLength":${LIMITS.externalIdLength}`);

    const params = (method: string, path: string) =>
      Object.fromEntries(
        (doc.paths[path][method].parameters as Json[]).map(resolve).map((p) => [`${p.in}:${p.name}`, p]),
      );
    const list = params('get', '/v1/events');
    expect(list['query:status'].schema.enum).toEqual(listEventsInput.shape.status.unwrap().options);
    expect(list['query:limit'].schema).toMatchObject({ type: 'integer', minimum: 1, default: 50 });
    expect(list['query:limit'].description).toMatch(/clamped to 200/);
    expect(params('put', '/v1/event-types/{key}/schema')['path:key'].schema).toMatchObject({
      maxLength: LIMITS.eventTypeLength,
      pattern: EVENT_TYPE_PATTERN.source,
    });
    expect(params('post', '/v1/events')['header:Idempotency-Key'].required).not.toBe(true);
  });

  it('documents auth, the standard errors and the common headers on every operation', () => {
    // The error envelopes' `type`s (a flow trigger's `type: 'inactivity'` is a const too, not an error).
    const errorNames = Object.entries<Json>(doc.components.schemas)
      .filter(([name]) => name.endsWith('Error'))
      .map(([, s]) => s.properties?.type?.const)
      .filter(Boolean);
    expect(errorNames.sort()).toEqual(Object.keys(errorStatus).sort());
    const validation = resolve(doc.components.schemas.ValidationError);
    expect(resolve(validation.properties.errors.items).required).toEqual(['field', 'message']);
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });

    for (const { method, path, op } of operations) {
      const where = `${method.toUpperCase()} ${path}`;
      for (const [status, response] of Object.entries<Json>(op.responses))
        expect(resolve(response).headers?.['X-Request-Id'], `${where} ${status}: X-Request-Id`).toBeDefined();
      const bearer = (op.security as Json[]).some((r) => 'apiKey' in r);
      if (bearer) {
        expect(op.responses['401'], where).toBeDefined();
        expect(resolve(op.responses['429']).headers['Retry-After'], where).toBeDefined();
        const success = Object.entries<Json>(op.responses).find(([s]) => s.startsWith('2'))![1];
        expect(resolve(success).headers['RateLimit-Remaining'], where).toBeDefined();
      }
      if (op['x-required-ability']) {
        expect(bearer, where).toBe(true);
        expect(ABILITIES, where).toContain(op['x-required-ability']);
        expect(op.description, where).toContain(`\`${op['x-required-ability']}\``);
        expect(op.responses['403'], where).toBeDefined();
      }
      if (op.requestBody)
        for (const s of ['400', '413', '422']) expect(op.responses[s], `${where} ${s}`).toBeDefined();
      if (path.startsWith('/v1/') && op.operationId !== 'getOpenApiDocument')
        expect(op.responses['400'], where).toBeDefined();
    }

    const ingest = doc.paths['/v1/ingest/{key}'].post;
    expect(ingest.security).toEqual([]);
    const signature = ingest.parameters.map(resolve).find((p: Json) => p.name === 'X-Signature');
    expect(signature).toMatchObject({ in: 'header', required: true });
    expect(signature.description).toMatch(/HMAC-SHA256.*<t>\.<raw request body>.*300 seconds/s);
    expect(new RegExp(signature.schema.pattern).test(signPayload('whsec_x', '{}'))).toBe(true);
    expect(
      resolve(doc.paths['/v1/events'].post.responses['202']).headers['Idempotent-Replayed'],
    ).toBeDefined();
    expect(doc.paths['/v1/events'].post.parameters.map(resolve).map((p: Json) => p.name)).toContain(
      'Idempotency-Key',
    );
  });
});

// --- the document against the running app ---

describe('the app answers as documented', () => {
  it('enforces exactly the ability each operation names', async () => {
    const withAbility = operations.filter(({ op }) => op['x-required-ability']);
    expect(withAbility.length).toBeGreaterThan(0);
    const lacking = new Map<string, TestWorkspace>();
    for (const ability of new Set(withAbility.map(({ op }) => op['x-required-ability'] as string)))
      lacking.set(ability, await app.workspace({ abilities: ABILITIES.filter((a) => a !== ability) }));
    for (const { method, path, op } of withAbility) {
      const url = sampleUrl(path);
      const init = {
        method: method.toUpperCase(),
        body: ['post', 'put', 'patch'].includes(method) ? {} : undefined,
      };
      const denied = await lacking.get(op['x-required-ability'])!.api(url, init);
      expect(denied.body?.error?.type, `${method} ${path} without ${op['x-required-ability']}`).toBe(
        'permission_error',
      );
      expectDocumented(method, path, denied);
      const anonymous = await request(app.url, url, init);
      expect(anonymous.status, `${method} ${path} without a key`).toBe(401);
      expectDocumented(method, path, anonymous);
      const allowed = await ws.api(url, init);
      expect([401, 403], `${method} ${path} with full access`).not.toContain(allowed.status);
      expectDocumented(method, path, allowed);
    }
  });

  it('events: 202, replay, list, show, and the documented errors', async () => {
    const body = {
      event_type: 'order.completed',
      participant: { external_id: 'doc-1' },
      payload: { total: 5 },
    };
    const first = await ws.api('/v1/events', { body, headers: { 'idempotency-key': 'doc-key-1' } });
    expect(first.status).toBe(202);
    expectDocumented('post', '/v1/events', first);
    const replay = await ws.api('/v1/events', { body, headers: { 'idempotency-key': 'doc-key-1' } });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expectDocumented('post', '/v1/events', replay);

    const list = await ws.api('/v1/events?limit=1');
    expect(list.body.data).toHaveLength(1);
    expectDocumented('get', '/v1/events', list);
    const shown = await ws.api(`/v1/events/${first.body.event_id}`);
    expect(shown.status).toBe(200);
    expectDocumented('get', '/v1/events/{id}', shown);
    const quarantined = await ws.api('/v1/events', { body: { participant: 'doc-2' } });
    expect(quarantined.body.status).toBe('quarantined');
    expectDocumented('get', '/v1/events/{id}', await ws.api(`/v1/events/${quarantined.body.event_id}`));

    const tooLong = await ws.api('/v1/events', {
      body: { ...body, event_type: 'x'.repeat(LIMITS.eventTypeLength + 1) },
    });
    expect(tooLong.status).toBe(422);
    expectDocumented('post', '/v1/events', tooLong);
    const malformed = await ws.api('/v1/events', {
      raw: '{"event_type":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expectDocumented('post', '/v1/events', malformed);
    const huge = await ws.api('/v1/events', {
      body: { ...body, payload: { pad: 'x'.repeat(MAX_BODY_BYTES) } },
    });
    expect(huge.status).toBe(413);
    expectDocumented('post', '/v1/events', huge);
    const badLimit = await ws.api('/v1/events?limit=0');
    expect(badLimit.status).toBe(422);
    expectDocumented('get', '/v1/events', badLimit);
    const badCursor = await ws.api('/v1/events?cursor=forged.cursor');
    expect(badCursor.status).toBe(400);
    expectDocumented('get', '/v1/events', badCursor);
    const missing = await ws.api(`/v1/events/${randomUUID()}`);
    expect(missing.status).toBe(404);
    expectDocumented('get', '/v1/events/{id}', missing);
  });

  it('event types and ingest endpoints, including a signed ingest', async () => {
    const put = await ws.api('/v1/event-types/doc.checked/schema', {
      method: 'PUT',
      body: { schema: { type: 'object', required: ['total'] } },
    });
    expect(put.status).toBe(200);
    expectDocumented('put', '/v1/event-types/{key}/schema', put);
    const badKey = await ws.api('/v1/event-types/-bad/schema', { method: 'PUT', body: { schema: null } });
    expect(badKey.status).toBe(422);
    expectDocumented('put', '/v1/event-types/{key}/schema', badKey);
    expectDocumented('get', '/v1/event-types', await ws.api('/v1/event-types'));

    const created = await ws.api('/v1/ingest-endpoints', {
      body: { name: 'docs', default_event_type: 'doc.checked' },
    });
    expect(created.status).toBe(201);
    expectDocumented('post', '/v1/ingest-endpoints', created);
    expectDocumented('get', '/v1/ingest-endpoints', await ws.api('/v1/ingest-endpoints'));
    expectDocumented(
      'get',
      '/v1/ingest-endpoints/{id}',
      await ws.api(`/v1/ingest-endpoints/${created.body.id}`),
    );

    const raw = JSON.stringify({ participant: 'doc-3', payload: { total: 1 } });
    const ingest = (signature: string) =>
      request(app.url, `/v1/ingest/${created.body.key}`, {
        method: 'POST',
        raw,
        headers: { 'content-type': 'application/json', 'x-signature': signature },
      });
    const accepted = await ingest(signPayload(created.body.secret, raw));
    expect(accepted.status).toBe(202);
    expectDocumented('post', '/v1/ingest/{key}', accepted);
    const forged = await ingest(signPayload('whsec_wrong', raw));
    expect(forged.status).toBe(401);
    expectDocumented('post', '/v1/ingest/{key}', forged);

    const removed = await ws.api(`/v1/ingest-endpoints/${created.body.id}`, { method: 'DELETE' });
    expect(removed.status).toBe(200);
    expectDocumented('delete', '/v1/ingest-endpoints/{id}', removed);
    const gone = await ws.api(`/v1/ingest-endpoints/${created.body.id}`);
    expect(gone.status).toBe(404);
    expectDocumented('get', '/v1/ingest-endpoints/{id}', gone);
  });

  it('health and metrics', async () => {
    expectDocumented('get', '/healthz', await request(app.url, '/healthz'));
    expectDocumented('get', '/readyz', await request(app.url, '/readyz'));
    const metrics = await request(app.url, '/metrics');
    expectDocumented('get', '/metrics', metrics);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  });
});

// --- the reference page ---

describe('/docs', () => {
  it('is an HTML page that loads swagger-ui from local assets only and points at the document', async () => {
    const page = await request(app.url, '/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('x-request-id')).toBeTruthy();
    expect(page.text).not.toMatch(/https?:\/\//);
    expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script

    const urls = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(urls).toEqual(
      expect.arrayContaining(['/docs/assets/swagger-ui-bundle.js', '/docs/assets/swagger-ui.css']),
    );
    const expected: Record<string, RegExp> = {
      js: /^(text|application)\/javascript/,
      css: /^text\/css/,
      png: /^image\/png/,
    };
    for (const url of urls) {
      expect(url, 'same-origin asset').toMatch(/^\/docs\//);
      const res = await fetch(app.url + url);
      expect(res.status, url).toBe(200);
      const ext = url.split('.').pop()!;
      expect(res.headers.get('content-type'), url).toMatch(expected[ext]!);
      const text = await res.text();
      expect(text.length, url).toBeGreaterThan(0);
      if (url === '/docs/init.js') {
        expect(text).toContain("url: '/v1/openapi.json'");
        expect(text).toContain('validatorUrl: null');
        expect(text).not.toMatch(/https?:\/\//);
      }
    }
    expect(urls).toContain('/docs/init.js');
  });

  it('serves only the assets the page needs from swagger-ui-dist', async () => {
    for (const path of [
      '/docs/assets/swagger-initializer.js',
      '/docs/assets/index.html',
      '/docs/assets/',
      '/docs/assets/../package.json',
    ]) {
      const res = await request(app.url, path);
      expect(res.status, path).toBe(404);
    }
  });
});
