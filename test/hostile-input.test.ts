import {
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  getNamedType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { OPERATIONS } from '../src/rest/openapi.ts';
import type { Operation } from '../src/rest/operation.ts';
import { schema } from '../src/schema/schema.ts';
import { graphqlClient } from './factories.ts';
import { startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';
import { HOSTILE_IN_URL, HOSTILE_VALUES, SAMPLE_RECEIVER, sampleBodies } from './operation-samples.ts';

/**
 * A black-box sweep of hostile values over every declared operation (issue 11, item 9): each
 * path parameter, query parameter and body field in turn gets values Postgres cannot store or
 * should never see (NUL, a lone surrogate, invalid UTF-8, over-long text, wrong types), with
 * every other input valid, so the hostile value reaches as deep as it can. Every answer must be
 * a 4xx (or a success): never a 500. The sweep walks OPERATIONS, so an operation added later is
 * swept too, and one with a body must have a valid sample body in test/operation-samples.ts.
 * The GraphQL door gets the same: NUL and lone surrogates through every String and ID argument of
 * the schema, input object fields included.
 */

let app: TestApp;
let ws: TestWorkspace;
/** Real ids of seeded resources, so a hostile value in one place meets valid values elsewhere. */
const ids: Record<string, string> = {};

/** A valid body per operation; `{}`-bodied operations need none. */
const SAMPLES = sampleBodies(ids);

const failures: string[] = [];
let sent = 0;

async function send(method: string, path: string, body?: unknown) {
  sent++;
  let res: Awaited<ReturnType<TestWorkspace['api']>>;
  try {
    res = await ws.api(path, { method: method.toUpperCase(), body, mode: 'test' });
  } catch (err) {
    // The test client refused an answer its operation does not declare.
    failures.push(`${method.toUpperCase()} ${path.slice(0, 120)}: ${String(err).slice(0, 300)}`);
    return null;
  }
  if (res.status >= 500)
    failures.push(
      `${method.toUpperCase()} ${path.slice(0, 120)} ${JSON.stringify(body)?.slice(0, 200)} → ${res.status}`,
    );
  return res;
}

function pathFor(op: Operation, override: Record<string, string> = {}): string {
  return op.path.replace(
    /\{(\w+)\}/g,
    (_m, name: string) => override[name] ?? ids[`${op.operationId}.${name}`] ?? ids[name] ?? 'x',
  );
}

/** Every leaf of a sample with its path, one level into objects and arrays. */
function leaves(value: unknown, prefix: string[] = []): string[][] {
  if (value === null || typeof value !== 'object') return [prefix];
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  return [
    prefix,
    ...entries.flatMap(([k, v]) => (prefix.length < 3 ? leaves(v, [...prefix, k]) : [[...prefix, k]])),
  ];
}

function setAt(value: unknown, path: string[], replacement: unknown): unknown {
  if (!path.length) return replacement;
  const copy: any = Array.isArray(value) ? [...value] : { ...(value as object) };
  const [head, ...rest] = path as [string, ...string[]];
  copy[head] = setAt(copy[head], rest, replacement);
  return copy;
}

beforeAll(async () => {
  app = await startTestApp();
  ws = await app.workspace();
  const adj = await ws.api('/v1/participants/alice/points', { body: { points: 100, reason: 'seed' } });
  ids.entry_id = String(adj.body.id);
  ids.external_id = 'alice';
  const reward = await ws.api('/v1/rewards', {
    body: { name: 'seed', type: 'physical', cost_points: 1, stock: 1000 },
  });
  ids.reward = String(reward.body.id);
  ids['getReward.id'] = ids.reward;
  ids['updateReward.id'] = ids.reward;
  ids['archiveReward.id'] = ids.reward;
  ids['importRewardCodes.id'] = ids.reward;
  ids['generateRewardCodes.id'] = ids.reward;
  ids['testRewardFulfilment.id'] = ids.reward;
  const redemption = await ws.api('/v1/redemptions', {
    body: { participant: 'alice', reward_id: reward.body.id },
  });
  for (const op of ['getRedemption', 'fulfilRedemption', 'cancelRedemption'])
    ids[`${op}.id`] = String(redemption.body.id);
  const flow = await ws.api('/v1/flows', { body: SAMPLES.createFlow!() });
  for (const op of ['getFlow', 'updateFlow', 'deleteFlow']) ids[`${op}.id`] = flow.body.id;
  const sub = await ws.api('/v1/webhook-subscriptions', { body: SAMPLES.createWebhookSubscription!() });
  for (const op of [
    'getWebhookSubscription',
    'updateWebhookSubscription',
    'deleteWebhookSubscription',
    'testWebhookSubscription',
    'rotateWebhookSecret',
    'recoverWebhookDeliveries',
  ])
    ids[`${op}.id`] = sub.body.id;
  const endpoint = await ws.api('/v1/ingest-endpoints', { body: SAMPLES.createIngestEndpoint!() });
  for (const op of ['getIngestEndpoint', 'deleteIngestEndpoint']) ids[`${op}.id`] = endpoint.body.id;
  ids['ingestEvent.key'] = endpoint.body.key;
  await ws.api('/v1/message-templates', { body: SAMPLES.createMessageTemplate!() });
  ids.key = 'hello';
  ids['getLeaderboard.key'] = 'points';
  ids['getLeaderboardStanding.key'] = 'points';
  ids['putEventTypeSchema.key'] = 'order.completed';
  const event = await ws.api('/v1/events', { body: SAMPLES.createEvent!() });
  ids['getEvent.id'] = event.body.event_id;
  // A quarantined event (no participant), so replay's hostile fixes meet one that can be replayed.
  const quarantined = await ws.api('/v1/events', { body: { event_type: 'order.completed', payload: {} } });
  ids['replayEvent.id'] = quarantined.body.event_id;
  // A tier programme with the level the manual-level sample names, so that sample is valid.
  await ws.api('/v1/tiers', { method: 'PUT', body: SAMPLES.putTiers!() });
  // A streak the streak operations name, so their hostile values meet a real one.
  const streak = await ws.api('/v1/streaks', {
    body: { ...(SAMPLES.createStreak!() as object), key: 'sweep' },
  });
  for (const op of ['getStreak', 'updateStreak', 'archiveStreak']) ids[`${op}.key`] = streak.body.key;
}, 60_000);
afterAll(() => app?.close());

/** Strings Postgres cannot store, as GraphQL variables (JSON escapes both). */
const HOSTILE_STRINGS = { NUL: 'a\u0000b', 'lone surrogate': '\ud800', 'lone low surrogate': 'x\udc00y' };

/**
 * Valid arguments for every field with a String or ID argument whose other arguments are required
 * (camelCase, as GraphQL takes them), so the hostile value meets valid values everywhere else.
 */
const gqlSamples = (): Record<string, Record<string, unknown>> => ({
  'Query.participant': { externalId: 'alice' },
  'Query.participantExport': { externalId: 'alice' },
  'Query.leaderboard': { key: 'points' },
  'Query.messageTemplate': { key: 'hello' },
  'Query.event': { id: ids['getEvent.id'] },
  'Query.flow': { id: ids['getFlow.id'] },
  'Query.reward': { id: ids.reward },
  'Query.redemption': { id: ids['getRedemption.id'] },
  'Query.ingestEndpoint': { id: ids['getIngestEndpoint.id'] },
  'Query.webhookSubscription': { id: ids['getWebhookSubscription.id'] },
  'Leaderboard.standing': { externalId: 'alice' },
  'Mutation.adjustPoints': { externalId: 'alice', points: 1, reason: 'sweep', idempotencyKey: 'gql-sweep' },
  'Mutation.reverseLedgerEntry': { externalId: 'alice', entryId: ids.entry_id, reason: 'sweep' },
  'Mutation.mintParticipantToken': { externalId: 'alice', ttlSeconds: 600 },
  'Mutation.updateParticipant': {
    externalId: 'alice',
    input: { email: 'a@example.com', name: 'Alice', timezone: 'Europe/Paris' },
  },
  'Mutation.eraseParticipant': { externalId: 'alice' },
  'Mutation.setParticipantTier': { externalId: 'alice', input: { key: 'gold', reason: 'sweep' } },
  'Mutation.redeem': { input: { participant: 'alice', rewardId: ids.reward, idempotencyKey: 'gql-sweep' } },
  'Mutation.ingestEvent': {
    input: {
      eventType: 'order.completed',
      participant: { externalId: 'alice', email: 'a@example.com', phone: '+15550100', name: 'Alice' },
      payload: {},
      occurredAt: '2026-01-01T00:00:00Z',
      idempotencyKey: 'gql-sweep',
    },
  },
  'Mutation.ingestEventBatch': {
    events: [
      {
        eventType: 'order.completed',
        participant: { externalId: 'alice', email: 'a@example.com', phone: '+15550100', name: 'Alice' },
        payload: {},
        occurredAt: '2026-01-01T00:00:00Z',
        idempotencyKey: 'gql-sweep-batch',
      },
    ],
  },
  'Mutation.replayEvent': { id: ids['replayEvent.id'], input: { eventType: 'order.completed', payload: {} } },
  'Mutation.replayEvents': {
    input: { eventType: 'order.completed', since: '2026-01-01', until: '2026-02-01' },
  },
  // An inactivity flow (refused by the simulation, a validation_error) for the reason createFlow's has one.
  'Mutation.simulateEvent': {
    input: {
      event: {
        eventType: 'order.completed',
        participant: { externalId: 'alice', email: 'a@example.com', name: 'Alice' },
        payload: {},
      },
      flow: { name: 'f', trigger: GQL_TRIGGER, actions: [{ type: 'award_points', points: 1 }] },
    },
  },
  'Mutation.putEventTypeSchema': { key: 'order.completed', schema: { type: 'object' } },
  'Mutation.dropEventTypeSchema': { key: 'order.completed' },
  'Mutation.createIngestEndpoint': { input: { name: 'shop', defaultEventType: 'order.completed' } },
  'Mutation.createMessageTemplate': { input: { key: 'hi', channel: 'email', subject: 'Hi', body: 'Hello' } },
  'Mutation.updateMessageTemplate': { key: 'hello', input: { subject: 'Hi again', body: 'Hello' } },
  'Mutation.deleteMessageTemplate': { key: 'hello' },
  // Inactivity flows, so a hostile value meets a whole trigger: GraphQL refuses a trigger missing a
  // required field before any check of ours. (A hostile `eventType` beside the trigger is still a
  // validation_error.)
  'Mutation.createFlow': {
    input: { name: 'f', trigger: GQL_TRIGGER, actions: [{ type: 'award_points', points: 1 }] },
  },
  'Mutation.updateFlow': { id: ids['getFlow.id'], input: { name: 'g', trigger: GQL_TRIGGER } },
  'Mutation.defineBadge': {
    input: {
      key: 'vip',
      name: 'VIP',
      description: 'd',
      imageUrl: 'https://example.com/i.png',
      tiers: ['gold'],
    },
  },
  'Mutation.createLeaderboard': { input: { key: 'weekly', name: 'Weekly', period: 'WEEKLY' } },
  'Mutation.createReward': {
    input: { name: 'r', type: 'physical', costPoints: 1, description: 'd', subtitle: 's', minTier: 'gold' },
  },
  'Mutation.updateReward': {
    id: ids.reward,
    input: { description: 'd', subtitle: 's', imageUrl: 'https://example.com/i.png' },
  },
  'Mutation.importRewardCodes': { rewardId: ids.voucher, codes: ['A1'] },
  'Mutation.generateRewardCodes': { rewardId: ids.voucher, input: { count: 1, prefix: 'P' } },
  'Mutation.testRewardFulfilment': { rewardId: ids.reward },
  'Mutation.createWebhookSubscription': {
    input: { url: SAMPLE_RECEIVER, eventTypes: ['points.changed'], description: 'd', secret: 's'.repeat(32) },
  },
  'Mutation.updateWebhookSubscription': {
    id: ids['getWebhookSubscription.id'],
    input: { url: SAMPLE_RECEIVER, eventTypes: ['points.changed'], description: 'd' },
  },
  'Mutation.rotateWebhookSecret': { id: ids['rotateWebhookSecret.id'], input: { secret: 's'.repeat(32) } },
  'Mutation.recoverWebhookDeliveries': {
    id: ids['recoverWebhookDeliveries.id'],
    input: { since: new Date(Date.now() - 3_600_000).toISOString() },
  },
  'Mutation.updateProgram': {
    input: {
      timezone: 'UTC',
      expiryNotice: 'P7D',
      pendingFor: 'P1D',
      pointsExpiry: { mode: 'fixed', after: 'P12M' },
    },
  },
  'Mutation.createStreak': {
    input: {
      key: 'gql-sweep',
      name: 'Daily',
      eventTypes: ['order.completed'],
      frequency: 'daily',
      freezes: { initial: 1, max: 2, earnEvery: 7 },
    },
  },
  'Mutation.updateStreak': { key: 'sweep', input: { name: 'Every day', eventTypes: ['order.completed'] } },
  'Mutation.putReferralProgram': {
    input: {
      qualifyingEventType: 'order.completed',
      qualifyWithin: 'P30D',
      hold: 'P7D',
      friendActions: [{ type: 'award_points', points: 10, reason: 'r' }],
      advocateActions: [{ type: 'award_badge', badge: 'b', tier: 'gold' }],
      advocateLimit: { period: 'month', max: 5 },
      active: true,
    },
  },
  'Mutation.putTiers': { input: GQL_PROGRAMME },
  'Mutation.previewTiers': { input: GQL_PROGRAMME },
});

const GQL_TRIGGER = { type: 'inactivity', after: 'P30D', eventTypes: ['order.completed'] };

const GQL_PROGRAMME = {
  qualification: { window: 'rolling', duration: 'P12M' },
  downgrade: { policy: 'one_down', grace: 'P30D' },
  levels: [
    { key: 'bronze', name: 'Bronze', threshold: 0, description: 'd' },
    { key: 'gold', name: 'Gold', threshold: 100, earnMultiplier: 1.5 },
  ],
};

/** How a non-root type's field is reached: the parent field selecting a seeded object. */
const GQL_PARENTS: Record<string, string> = {
  Participant: 'participant(externalId: "alice")',
  Leaderboard: 'leaderboard(key: "points")',
};

interface Place {
  path: string[];
  type: 'String' | 'ID';
}

/** The String and ID places of an argument: the argument itself, or paths into its input object. */
function stringPlaces(type: GraphQLInputType, sample: unknown, path: string[], depth = 0): Place[] {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) {
    const element = Array.isArray(sample) ? sample[0] : undefined;
    return stringPlaces(inner.ofType, element, [...path, '0'], depth);
  }
  const named = getNamedType(inner);
  if (named.name === 'String' || named.name === 'ID') return [{ path, type: named.name }];
  if (!isInputObjectType(named) || depth > 3) return [];
  const value = (sample ?? {}) as Record<string, unknown>;
  return Object.values(named.getFields()).flatMap((f) =>
    stringPlaces(f.type, value[f.name], [...path, f.name], depth + 1),
  );
}

interface GqlCase {
  where: string;
  query: string;
  variables: Record<string, unknown>;
  /** The `extensions.code`s it may answer. */
  codes: string[];
  /** Whether it may instead answer null without an error (a lookup of an id that names nothing). */
  nullable: boolean;
}

/**
 * The answers a hostile value may get: validation_error; for an id, also not_found or a null lookup
 * (a malformed id names nothing, as on REST); for a page cursor, invalid_request_error (a cursor not
 * as the API returned it, as on REST).
 */
function acceptable(place: Place): Pick<GqlCase, 'codes' | 'nullable'> {
  if (place.type === 'ID') return { codes: ['validation_error', 'not_found'], nullable: true };
  if (place.path.length === 1 && ['after', 'before'].includes(place.path[0]!))
    return { codes: ['invalid_request_error'], nullable: false };
  return { codes: ['validation_error'], nullable: false };
}

/** One case per String/ID place of every argument of every field, with a hostile string there. */
function gqlCases(): { cases: GqlCase[]; missing: string[] } {
  const samples = gqlSamples();
  const cases: GqlCase[] = [];
  const missing: string[] = [];
  const roots = [schema.getQueryType()!, schema.getMutationType()!];
  const others = Object.values(schema.getTypeMap()).filter(
    (t) => isObjectType(t) && !t.name.startsWith('__') && !roots.includes(t as never),
  );
  // Subscriptions are swept over graphql-ws in their own tests.
  for (const type of [...roots, ...others]) {
    if (!isObjectType(type) || type === schema.getSubscriptionType()) continue;
    for (const field of Object.values(type.getFields()) as GraphQLField<unknown, unknown>[]) {
      const name = `${type.name}.${field.name}`;
      const sample = samples[name] ?? {};
      const places = field.args.flatMap((arg) => stringPlaces(arg.type, sample[arg.name], [arg.name]));
      if (!places.length) continue;
      const parent = roots.includes(type) ? null : GQL_PARENTS[type.name];
      // A field whose one required argument is the swept String or ID needs no sample.
      const required = field.args.filter((a) => isNonNullType(a.type) && a.defaultValue === undefined);
      const alone =
        required.length === 1 && places.some((p) => p.path.length === 1 && p.path[0] === required[0]!.name);
      if ((!roots.includes(type) && !parent) || (required.length && !alone && !samples[name])) {
        missing.push(name);
        continue;
      }
      const used = field.args.filter((a) => a.name in sample || places.some((p) => p.path[0] === a.name));
      const decl = (a: GraphQLArgument) => `$${a.name}: ${String(a.type)}`;
      const call = `${field.name}(${used.map((a) => `${a.name}: $${a.name}`).join(', ')})`;
      const selection = isLeafType(getNamedType(field.type)) ? call : `${call} { __typename }`;
      const body = parent ? `${parent} { ${selection} }` : selection;
      const op = type === schema.getMutationType() ? 'mutation' : 'query';
      const query = `${op} (${used.map(decl).join(', ')}) { ${body} }`;
      for (const place of places) {
        const [arg, ...rest] = place.path as [string, ...string[]];
        for (const [label, hostile] of Object.entries(HOSTILE_STRINGS))
          cases.push({
            where: `${name}(${place.path.join('.')}) ${label}`,
            query,
            variables: { ...sample, [arg]: setAt(sample[arg], rest, hostile) },
            ...acceptable(place),
          });
      }
    }
  }
  return { cases, missing };
}

/** The swept field's answer: each level of a case's query selects one field. */
const selected = (data: unknown): unknown =>
  data && typeof data === 'object' && !('__typename' in data) ? selected(Object.values(data)[0]) : data;

describe('hostile strings through every GraphQL argument', () => {
  beforeAll(async () => {
    // A reward with a code pool, so the code arguments reach their own checks.
    const voucher = await ws.api('/v1/rewards', {
      body: { name: 'gql-voucher', type: 'voucher_code', cost_points: 1 },
    });
    expect(voucher.status, voucher.text).toBe(201);
    ids.voucher = String(voucher.body.id);
  });

  it('has valid arguments for every field whose String or ID arguments it sweeps', () => {
    expect(gqlCases().missing, 'add the field’s valid arguments to gqlSamples').toEqual([]);
  });

  it('answers NUL and lone surrogates with validation_error, never api_error', async () => {
    const gql = graphqlClient(app, ws);
    const { cases } = gqlCases();
    const wrong: string[] = [];
    for (const c of cases) {
      const res = await gql(c.query, c.variables);
      const codes: string[] = (res.body?.errors ?? []).map((e: any) => e.extensions?.code ?? e.message);
      const answered = codes.length
        ? codes.every((code) => c.codes.includes(code))
        : c.nullable && selected(res.body?.data) === null;
      if (res.status !== 200 || !answered)
        wrong.push(`${c.where} → ${res.status} ${codes.join(', ') || JSON.stringify(res.body?.data)}`);
    }
    expect(cases.length).toBeGreaterThan(400);
    expect(wrong, `${wrong.length} of ${cases.length} hostile GraphQL arguments`).toEqual([]);
  }, 120_000);
});

// Destructive operations last, so the seeds live while the others are swept.
const destructive = (op: Operation) =>
  op.method === 'delete' || /erase|archive|cancel|fulfil/i.test(op.operationId);
const swept = [...OPERATIONS].sort((a, b) => Number(destructive(a)) - Number(destructive(b)));

describe('hostile input over every declared operation', () => {
  it('has a valid sample body for every operation that takes one', () => {
    const missing = OPERATIONS.filter((op) => op.body && !SAMPLES[op.operationId]).map(
      (op) => op.operationId,
    );
    expect(missing, 'add a sample body to sampleBodies in test/operation-samples.ts').toEqual([]);
  });

  it('answers 4xx, never 5xx, to hostile path parameters, query parameters and body fields', async () => {
    for (const op of swept) {
      const sample = SAMPLES[op.operationId];
      const body = () => (op.body ? sample?.() : undefined);
      for (const name of op.path.match(/\{(\w+)\}/g)?.map((p) => p.slice(1, -1)) ?? [])
        for (const hostile of HOSTILE_IN_URL) await send(op.method, pathFor(op, { [name]: hostile }), body());
      const query = (op.params?.query as z.ZodObject | undefined)?.shape ?? {};
      for (const key of Object.keys(query))
        for (const hostile of HOSTILE_IN_URL)
          await send(op.method, `${pathFor(op)}?${key}=${hostile}`, body());
      if (op.body && sample)
        for (const at of leaves(sample()))
          for (const hostile of HOSTILE_VALUES)
            await send(op.method, pathFor(op), setAt(sample(), at, hostile));
    }
    expect(sent).toBeGreaterThan(1000);
    expect(failures, `${failures.length} of ${sent} requests answered 5xx`).toEqual([]);
  }, 240_000);
});
