import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { OPERATIONS } from '../src/rest/openapi.ts';
import type { Operation } from '../src/rest/operation.ts';
import { startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';
import { HOSTILE_IN_URL, HOSTILE_VALUES, sampleBodies } from './operation-samples.ts';

/**
 * A black-box sweep of hostile values over every declared operation (issue 11, item 9): each
 * path parameter, query parameter and body field in turn gets values Postgres cannot store or
 * should never see (NUL, a lone surrogate, invalid UTF-8, over-long text, wrong types), with
 * every other input valid, so the hostile value reaches as deep as it can. Every answer must be
 * a 4xx (or a success): never a 500. The sweep walks OPERATIONS, so an operation added later is
 * swept too, and one with a body must have a valid sample body in test/operation-samples.ts.
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
  // A tier programme with the level the manual-level sample names, so that sample is valid.
  await ws.api('/v1/tiers', { method: 'PUT', body: SAMPLES.putTiers!() });
}, 60_000);
afterAll(() => app?.close());

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
