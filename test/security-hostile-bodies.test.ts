import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../src/rest/openapi.ts';
import type { Operation } from '../src/rest/operation.ts';
import { eventually, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';
import { HOSTILE_IN_URL, sampleBodies } from './operation-samples.ts';
import { envelopeProblem, pathParams, SweepClient, scanRecords } from './security-sweep.ts';

/**
 * The hostile-body sweep (issue 15): every operation of OPERATIONS that takes a body gets whole
 * bodies no client should send (not JSON, arrays, null, 5,000-deep nesting, NUL, lone surrogates,
 * invalid UTF-8, 1e309, huge strings within and beyond the body limit, prototype-pollution keys)
 * and, field by field, values JSON.stringify cannot produce (1e309) or that are hostile objects;
 * every operation gets hostile path parameters. Each answer must be a 4xx with the CONTRACT 3
 * envelope and X-Request-Id (a few field values may be accepted: then the answer is a 2xx), never
 * a 5xx; afterwards the service still serves and every event and ledger entry accepted before or
 * during the sweep is still there. (test/hostile-input.test.ts sweeps wrong types, NUL and
 * surrogate strings per field and per query parameter; this file does not repeat that.)
 */

let app: TestApp;
let ws: TestWorkspace;
let client: SweepClient;
const ids: Record<string, string> = {};
const SAMPLES = sampleBodies(ids);
let ingestSecret: string;
const KEEPER = 'keeper';
/** Accepted before the sweep: event ids and ledger entry ids, and the keeper's balance. */
const acceptedEvents = new Set<string>();
const acceptedEntries = new Map<string, string>();
let keeperBalance = 0;

const HOLE = '"__hostile_value_here__"';
const DEPTH = 5_000;

beforeAll(async () => {
  app = await startTestApp();
  ws = await app.workspace();
  client = new SweepClient(app.url);
  const api = async (path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST') => {
    const res = await client.send(path, { method, body, key: ws.keys.test });
    expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
    return res.body;
  };
  ids.external_id = 'alice';
  ids.entry_id = String((await api('/v1/participants/alice/points', { points: 100, reason: 'seed' })).id);
  const reward = await api('/v1/rewards', { name: 'seed', type: 'physical', cost_points: 1, stock: 1000 });
  ids.reward = String(reward.id);
  ids['/v1/rewards/{id}'] = ids.reward;
  ids['/v1/redemptions/{id}'] = String(
    (await api('/v1/redemptions', { participant: 'alice', reward_id: reward.id })).id,
  );
  ids['/v1/flows/{id}'] = (await api('/v1/flows', SAMPLES.createFlow!())).id;
  ids['/v1/webhook-subscriptions/{id}'] = (
    await api('/v1/webhook-subscriptions', SAMPLES.createWebhookSubscription!())
  ).id;
  const endpoint = await api('/v1/ingest-endpoints', SAMPLES.createIngestEndpoint!());
  ids['/v1/ingest-endpoints/{id}'] = endpoint.id;
  ids['/v1/ingest/{key}'] = endpoint.key;
  ingestSecret = endpoint.secret;
  await api('/v1/message-templates', SAMPLES.createMessageTemplate!());
  ids['/v1/message-templates/{key}'] = 'hello';
  ids['/v1/leaderboards/{key}'] = 'points';
  ids['/v1/event-types/{key}'] = 'order.completed';
  // A tier programme with the level the manual-level sample names, so that sample is valid.
  await api('/v1/tiers', SAMPLES.putTiers!(), 'PUT');
  // A streak the streak operations name, so hostile bodies meet a real one.
  ids['/v1/streaks/{key}'] = (
    await api('/v1/streaks', { ...(SAMPLES.createStreak!() as object), key: 'sweep' })
  ).key;
  // What must survive the sweep: events and ledger entries of a participant the sweep never names.
  for (let i = 0; i < 20; i++) {
    const e = await api('/v1/events', {
      event_type: 'keeper.seen',
      participant: { external_id: KEEPER },
      payload: { i },
    });
    acceptedEvents.add(e.event_id);
  }
  for (let i = 1; i <= 10; i++) {
    const entry = await api(`/v1/participants/${KEEPER}/points`, { points: i, reason: `keep ${i}` });
    acceptedEntries.set(String(entry.id), KEEPER);
    keeperBalance += i;
  }
  ids['/v1/events/{id}'] = [...acceptedEvents][0]!;
}, 60_000);
afterAll(() => app?.close());

/** `op.path` with seeded resources; a parameter may be overridden with a hostile value. */
function pathFor(op: Operation, override: Record<string, string> = {}): string {
  return op.path.replace(/\{(\w+)\}/g, (param, name: string, offset: number) => {
    if (override[name] !== undefined) return override[name];
    const collection = `${op.path.slice(0, offset)}${param}`.replace(/^.*(\/v1\/[\w-]+\/\{\w+\})$/, '$1');
    return ids[collection] ?? ids[name] ?? 'x';
  });
}

/** Every leaf path of a sample (and its objects and arrays), as in hostile-input.test.ts. */
function leaves(value: unknown, prefix: string[] = []): string[][] {
  if (value === null || typeof value !== 'object') return [prefix];
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  return [prefix, ...entries.flatMap(([k, v]) => leaves(v, [...prefix, k]))].filter((p) => p.length);
}

function setAt(value: unknown, path: string[], replacement: unknown): unknown {
  if (!path.length) return replacement;
  const copy: any = Array.isArray(value) ? [...value] : { ...(value as object) };
  const [head, ...rest] = path as [string, ...string[]];
  copy[head] = setAt(copy[head], rest, replacement);
  return copy;
}

/** The sample with raw JSON text (which JSON.stringify could not produce) at `path`. */
const rawAt = (sample: unknown, path: string[], raw: string) =>
  JSON.stringify(setAt(sample, path, JSON.parse(HOLE))).replace(HOLE, raw);

/** Whole bodies: none is an acceptable request to any operation. */
function hostileBodies(sample: string, maxBytes: number): [string, string | Buffer][] {
  const inner = sample.slice(1, -1);
  return [
    ['not JSON', '{"unterminated": '],
    ['not JSON (single quotes)', "{'a': 1}"],
    ['empty', ''],
    ['an array', '[]'],
    ['an array of the sample', `[${sample}]`],
    ['null', 'null'],
    ['a string', '"x"'],
    ['a number', '1'],
    ['true', 'true'],
    ['5,000-deep objects', `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`],
    ['5,000-deep arrays', `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`],
    [
      '5,000-deep under a field',
      `{${inner}${inner ? ',' : ''}"deep":${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}}`,
    ],
    ['a raw NUL byte', `{${inner}${inner ? ',' : ''}"a\u0000":1}`],
    ['a NUL in a key', `{${inner}${inner ? ',' : ''}"a\\u0000b":1}`],
    ['a lone surrogate key', `{${inner}${inner ? ',' : ''}"\\ud800":1}`],
    [
      'invalid UTF-8',
      Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}')]),
    ],
    ['a UTF-8 BOM and garbage', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{x')])],
    ['1e309 beside the fields', `{${inner}${inner ? ',' : ''}"n":1e309}`],
    ['duplicate keys with a hostile value', `{${inner}${inner ? ',' : ''}"n":1,"n":1e309}`],
    ['__proto__', `{${inner}${inner ? ',' : ''}"__proto__":{"polluted":"yes"}}`],
    ['constructor.prototype', `{${inner}${inner ? ',' : ''}"constructor":{"prototype":{"polluted":"yes"}}}`],
    ['prototype', `{${inner}${inner ? ',' : ''}"prototype":{"polluted":"yes"}}`],
    ['beyond the body limit', `{"pad":"${'p'.repeat(maxBytes)}"}`],
  ];
}

/** Per field: raw values JSON.stringify cannot make, and hostile objects. */
const FIELD_VALUES: [string, string][] = [
  ['1e309', '1e309'],
  ['-1e309', '-1e309'],
  ['1e-400', '1e-400'],
  ['2**64', '18446744073709551616'],
  ['a 200 KB string', `"${'s'.repeat(200_000)}"`],
  ['__proto__ object', '{"__proto__":{"polluted":"yes"}}'],
  ['constructor object', '{"constructor":{"prototype":{"polluted":"yes"}}}'],
  ['100-deep object', `${'{"a":'.repeat(100)}1${'}'.repeat(100)}`],
];

// ('.' and '%2e%2e' are left out: the client resolves them away before sending, as browsers do.)
const HOSTILE_PATH = [
  ...HOSTILE_IN_URL,
  '__proto__',
  'constructor',
  'prototype',
  '-1',
  '0',
  '1e309',
  '99999999999999999999999',
  'NaN',
  'null',
  '%20',
  "1'%3B--",
  '%C0%AE',
  '%uD800',
];

/**
 * Operations that create what their path names in the caller's own tenant, so a strange but valid
 * name may be accepted: points create the participant; an event type is the integrator's name.
 * Later operations on a name one of these accepted may succeed too.
 */
const NAME_CREATING = new Set(['adjustPoints', 'putEventTypeSchema']);
const createdNames = new Set<string>();

/**
 * The body of `PUT /v1/event-types/{key}/schema` may be a bare JSON Schema, an open object (any
 * keyword): keys beside `schema` make it one, so they are accepted there.
 */
const OPEN_BODY = new Set(['putEventTypeSchema']);
const EXTRA_KEY_CASES = new Set([
  '1e309 beside the fields',
  'duplicate keys with a hostile value',
  '__proto__',
  'constructor.prototype',
  'prototype',
]);

/** The collection a path parameter belongs to (`participants/{external_id}`). */
const collectionOf = (op: Operation, name: string) => {
  const at = op.path.indexOf(`{${name}}`);
  return `${op.path.slice(0, at)}{${name}}`.replace(/^.*\/([\w-]+\/\{\w+\})$/, '$1');
};

/** The failures a test added to the shared client's list. */
const failuresSince = (start: number) => client.failures.slice(start);

/** Accepted during the sweep: event ids, and ledger entry ids with their participant's path segment. */
const accepted = { events: new Set<string>(), entries: new Map<string, string>() };

async function sendBody(op: Operation, path: string, raw: string | Buffer) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (op.auth === 'signature') {
    const t = Math.floor(Date.now() / 1000);
    headers['x-signature'] =
      `t=${t},v1=${createHmac('sha256', ingestSecret).update(`${t}.`).update(raw).digest('hex')}`;
  }
  const res = await client.send(path, { method: op.method.toUpperCase(), raw, key: ws.keys.test, headers });
  if (res.status < 300 && (op.operationId === 'createEvent' || op.operationId === 'ingestEvent'))
    accepted.events.add(res.body.event_id);
  if (res.status < 300 && op.operationId === 'adjustPoints')
    accepted.entries.set(String(res.body.id), path.split('/')[3]!);
  return res;
}

const bodyOps = OPERATIONS.filter((op) => op.body);

describe('hostile bodies and path parameters over every declared operation', () => {
  it('has a sample body for every operation that takes one', () => {
    expect(bodyOps.filter((op) => !SAMPLES[op.operationId]).map((op) => op.operationId)).toEqual([]);
  });

  it('answers every hostile whole body with a 4xx envelope, never a 5xx', async () => {
    const start = client.failures.length;
    const limit = app.ctx.config.MAX_BODY_BYTES;
    for (const op of bodyOps) {
      const sample = JSON.stringify(SAMPLES[op.operationId]!());
      // An empty body is `{}` (SPEC 3.2: an event without a type is kept, quarantined; a PATCH of
      // nothing changes nothing), so it is hostile only where `{}` is not a valid body.
      const emptyIsValid = op.body!.schema.safeParse({}).success;
      for (const [label, raw] of hostileBodies(sample, op.body?.maxBytes ?? limit)) {
        const res = await sendBody(op, pathFor(op), raw);
        if (res.status < 300 && label === 'empty' && emptyIsValid) continue;
        if (res.status < 300 && OPEN_BODY.has(op.operationId) && EXTRA_KEY_CASES.has(label)) continue;
        const problem = envelopeProblem(res);
        if (problem) client.fail(`${op.operationId} [${label}] → ${res.status}: ${problem}`);
        if (label === 'beyond the body limit' && res.status !== 413)
          client.fail(`${op.operationId} [${label}] → ${res.status}, not 413`);
      }
    }
    expect(failuresSince(start), failuresSince(start).join('\n')).toEqual([]);
  }, 60_000);

  it('answers hostile field values with a 4xx envelope or a success, never a 5xx', async () => {
    const start = client.failures.length;
    for (const op of bodyOps) {
      const sample = SAMPLES[op.operationId]!();
      for (const at of leaves(sample))
        for (const [label, raw] of FIELD_VALUES) {
          const res = await sendBody(op, pathFor(op), rawAt(SAMPLES[op.operationId]!(), at, raw));
          if (res.status >= 400) {
            const problem = envelopeProblem(res);
            if (problem)
              client.fail(`${op.operationId} ${at.join('.')} [${label}] → ${res.status}: ${problem}`);
          } else if (/1e309/.test(label) && res.text.includes('Infinity'))
            client.fail(`${op.operationId} ${at.join('.')} [${label}] stored Infinity`);
        }
    }
    // 1e309 as a member of every object of a sample (free-form JSON such as an event payload, a
    // JSON Schema, flow conditions or headers): JSON.parse makes it Infinity, which jsonb would
    // store as null, so it must be refused, never silently changed.
    for (const op of bodyOps) {
      const sample = SAMPLES[op.operationId]!();
      const objects = [[], ...leaves(sample)].filter((at) => {
        const v = at.reduce<any>((o, k) => o?.[k], sample);
        return v !== null && typeof v === 'object' && !Array.isArray(v);
      });
      for (const at of objects) {
        const holder = at.reduce<any>((o, k) => o[k], sample);
        const raw = rawAt(sample, at, JSON.stringify({ ...holder, sweep_n: JSON.parse(HOLE) })).replace(
          HOLE,
          '1e309',
        );
        const res = await sendBody(op, pathFor(op), raw);
        const problem = envelopeProblem(res);
        if (problem)
          client.fail(
            `${op.operationId} ${at.join('.') || '(body)'} [member 1e309] → ${res.status}: ${problem}`,
          );
      }
    }
    // Nothing reached Object.prototype in this process, which is the server's.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(failuresSince(start), failuresSince(start).join('\n')).toEqual([]);
  }, 60_000);

  it('answers hostile path parameters with a 4xx envelope, never a 5xx', async () => {
    const start = client.failures.length;
    let sent = 0;
    for (const op of OPERATIONS)
      for (const name of pathParams(op))
        for (const hostile of HOSTILE_PATH) {
          const path = pathFor(op, { [name]: hostile });
          const sample = SAMPLES[op.operationId];
          const raw = op.body && sample ? JSON.stringify(sample()) : undefined;
          const res = raw
            ? await sendBody(op, path, raw)
            : await client.send(path, { method: op.method.toUpperCase(), key: ws.keys.test });
          sent++;
          const name_ = `${collectionOf(op, name)}=${hostile}`;
          if (res.status < 300 && NAME_CREATING.has(op.operationId)) createdNames.add(name_);
          if (res.status < 300 && createdNames.has(name_)) continue;
          const problem = envelopeProblem(res);
          if (problem)
            client.fail(`${op.method.toUpperCase()} ${path.slice(0, 120)} → ${res.status}: ${problem}`);
        }
    expect(sent).toBeGreaterThan(500);
    expect(failuresSince(start), failuresSince(start).join('\n')).toEqual([]);
  }, 60_000);

  it('answers unknown routes and methods with a 4xx envelope, never a 5xx', async () => {
    const start = client.failures.length;
    for (const path of [
      '/v1/nope',
      '/v1/events/x/y/z',
      '/v1/%FF',
      '/v1/%00',
      '/nope',
      '/v1/events/..%2F..%2Fetc%2Fpasswd',
    ])
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
        const res = await client.send(path, {
          method,
          key: ws.keys.test,
          ...(method !== 'GET' && { raw: '{}' }),
        });
        const problem = envelopeProblem(res);
        if (problem) client.fail(`${method} ${path} → ${res.status}: ${problem}`);
      }
    for (const op of OPERATIONS.filter((o) => o.path.startsWith('/v1/') && o.auth !== 'none'))
      for (const method of ['PUT', 'PATCH', 'DELETE'].filter(
        (m) => !OPERATIONS.some((o) => o.path === op.path && o.method === m.toLowerCase()),
      )) {
        const res = await client.send(pathFor(op), { method, key: ws.keys.test, raw: '{}' });
        const problem = envelopeProblem(res);
        if (problem) client.fail(`${method} ${op.path} (undeclared method) → ${res.status}: ${problem}`);
      }
    expect(failuresSince(start), failuresSince(start).join('\n')).toEqual([]);
  });

  it('still serves afterwards, and every event and ledger entry it accepted is still there', async () => {
    for (const path of ['/healthz', '/readyz'])
      expect((await client.send(path, { method: 'GET' })).status).toBe(200);
    const fresh = await client.send('/v1/events', {
      method: 'POST',
      body: { event_type: 'keeper.check', participant: { external_id: KEEPER } },
      key: ws.keys.test,
    });
    expect(fresh.status).toBe(202);
    await eventually(async () => {
      const e = await client.send(`/v1/events/${fresh.body.event_id}`, { method: 'GET', key: ws.keys.test });
      return e.body?.status === 'processed';
    }, 20_000);
    for (const id of [...acceptedEvents, ...accepted.events]) {
      const e = await client.send(`/v1/events/${id}`, { method: 'GET', key: ws.keys.test });
      expect(e.status, `event ${id}`).toBe(200);
    }
    const keeper = await client.send(`/v1/participants/${KEEPER}`, { method: 'GET', key: ws.keys.test });
    expect(keeper.body.balance).toBe(keeperBalance);
    const entries = new Set<string>();
    for (const external of new Set([...acceptedEntries.values(), ...accepted.entries.values()])) {
      let next: string | null = `/v1/participants/${external}/ledger?limit=200`;
      while (next) {
        const page = await client.send(next, { method: 'GET', key: ws.keys.test });
        for (const entry of page.body.data) entries.add(String(entry.id));
        next = page.body.links.next
          ? new URL(page.body.links.next).pathname + new URL(page.body.links.next).search
          : null;
      }
    }
    const missing = [...acceptedEntries.keys(), ...accepted.entries.keys()].filter((id) => !entries.has(id));
    expect(missing).toEqual([]);
    expect(accepted.events.size + acceptedEvents.size).toBeGreaterThan(20);
  }, 60_000);

  it('shows secrets only in their create responses, and no error body shows internals', () => {
    expect(client.records.length).toBeGreaterThan(2000);
    expect(
      scanRecords(client.records, [
        { label: 'the ingest secret', pattern: ingestSecret, allowedIn: ['createIngestEndpoint'] },
      ]),
    ).toEqual([]);
  });
});
