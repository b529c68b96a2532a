import { createHmac, randomBytes } from 'node:crypto';
import {
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  isUnionType,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uuidv7 } from '../src/lib/uuid7.ts';
import { OPERATIONS } from '../src/rest/openapi.ts';
import type { Operation } from '../src/rest/operation.ts';
import { schema } from '../src/schema/schema.ts';
import { ABILITIES, type Ability } from '../src/services/keys/abilities.ts';
import { issueKey, revokeKey } from '../src/services/keys/manage-keys.ts';
import { eventually, request, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';
import { sampleBodies, tierProgrammeSample } from './operation-samples.ts';
import {
  envelopeProblem,
  INTERNALS,
  pathParams,
  SECRET_SHAPES,
  type SecretRule,
  SweepClient,
  scanRecords,
} from './security-sweep.ts';

/**
 * The authentication and isolation sweep (issue 15): every operation of OPERATIONS (so one added
 * later is swept too) × { no key, malformed keys, a revoked key, a key lacking the operation's
 * ability, the other mode's key, another workspace's key }.
 *
 * A victim workspace's sandbox holds one of every resource, each named with a marker string. The
 * intruders (the victim's live key, another workspace's keys) must get 404 for any operation on
 * one of those resources, and on lists and creates a success that never shows the marker or any
 * of the victim's ids (unless the intruder sent that id itself). After the sweep every victim
 * resource is still there, unchanged.
 */

let app: TestApp;
let victim: TestWorkspace;
let other: TestWorkspace;
let client: SweepClient;
/** In every victim resource's name or text; never in a path or body an intruder sends. */
const MARK = `mk${randomBytes(6).toString('hex')}`;
const VICTIM_EXT = `v-${randomBytes(4).toString('hex')}`;
/** Victim ids by what they are (event, flow, …), and the victim's ids as path parameters. */
const seeded: Record<string, string> = {};
const secrets: SecretRule[] = [];
let revokedKey: string;
/** Per ability: a victim sandbox key holding every ability but that one. */
const lacking = new Map<Ability, string>();
let minimalKey: string;
let downloadToken: string;
let otherExportId: string;

/** The victim resource a path parameter names, by the path's collection. */
const RESOURCE_BY_COLLECTION: Record<string, string> = {
  '/v1/events/{id}': 'event',
  '/v1/ingest-endpoints/{id}': 'ingestEndpoint',
  '/v1/messages/{id}': 'message',
  '/v1/flows/{id}': 'flow',
  '/v1/flow-runs/{id}': 'flowRun',
  '/v1/webhook-subscriptions/{id}': 'subscription',
  '/v1/webhook-deliveries/{id}': 'delivery',
  '/v1/rewards/{id}': 'reward',
  '/v1/redemptions/{id}': 'redemption',
  '/v1/exports/{id}': 'export',
  '/v1/pending-points/{id}': 'pendingGrant',
  '/v1/event-types/{key}': 'eventType',
  '/v1/message-templates/{key}': 'template',
  '/v1/leaderboards/{key}': 'leaderboard',
  '/v1/streaks/{key}': 'streak',
  '/v1/referrals/{id}': 'referral',
  '/v1/badges/{key}': 'badge',
  '/v1/ingest/{key}': 'ingestKey',
  '{external_id}': 'externalId',
  '{entry_id}': 'entry',
};

/** `op.path` with the victim's resources; throws when a parameter has no victim resource. */
function victimPath(op: Operation): string {
  return op.path.replace(/\{(\w+)\}/g, (param, _name: string, offset: number) => {
    const collection = `${op.path.slice(0, offset)}${param}`.replace(/^.*(\/v1\/[\w-]+\/\{\w+\})$/, '$1');
    const what = RESOURCE_BY_COLLECTION[collection] ?? RESOURCE_BY_COLLECTION[param];
    const id = what && seeded[what];
    if (!id) throw new Error(`${op.operationId}: no victim resource for ${param} (add one to the seed)`);
    return encodeURIComponent(id);
  });
}

/** Query values that point at the victim's resources, for lists that filter by them. */
const victimQuery = (): Record<string, string> => ({
  participant: VICTIM_EXT,
  subscription_id: seeded.subscription!,
  flow_id: seeded.flow!,
  event_id: seeded.event!,
  reward_id: seeded.reward!,
  template: seeded.template!,
  event_type: seeded.eventType!,
  search: MARK,
  advocate: VICTIM_EXT,
  include_inactive: 'true',
});

function withVictimFilters(op: Operation, path: string): string[] {
  const shape = (op.params?.query as { shape?: Record<string, unknown> } | undefined)?.shape ?? {};
  const values = victimQuery();
  const qs = new URLSearchParams();
  for (const key of Object.keys(shape)) if (values[key]) qs.set(key, values[key]);
  return qs.size ? [path, `${path}?${qs}`] : [path];
}

/**
 * Operations on a path-named resource that an intruder may answer with a success in its own
 * tenant, each with the reason. Everything else on a victim resource must be a 404.
 */
const OWN_TENANT_SUCCESS: Record<string, string> = {
  // Participants are addressed by the integrator's own external id, and points create the participant
  // on first use (SPEC: events and adjustments name participants that need not exist yet): the
  // intruder credits a participant of that name in its own tenant.
  adjustPoints: 'creates the participant in the caller’s tenant',
  // Event types are named by the integrator; a schema for a type not seen yet is a definition in the
  // caller's tenant (it shapes the caller's own future events).
  putEventTypeSchema: 'defines the type in the caller’s tenant',
};

/** Creates that name a victim resource in their body: the resource is not found in the caller's tenant. */
const BODY_REFERENCE_NOT_FOUND = new Set(['createRedemption']);

// Destructive operations late, so every other operation meets the victim's resources; the
// operations that create a path-named resource in the caller's tenant last, so that until then
// the victim's participant and event type exist in the victim's tenant alone.
const destructive = (op: Operation) =>
  op.method === 'delete' || /erase|archive|cancel|fulfil|reversal/i.test(`${op.operationId} ${op.path}`);
const rank = (op: Operation) => (OWN_TENANT_SUCCESS[op.operationId] ? 2 : destructive(op) ? 1 : 0);
const bearerOps = OPERATIONS.filter((op) => op.auth !== 'none' && op.auth !== 'signature').sort(
  (a, b) => rank(a) - rank(b),
);

async function asVictim(path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST') {
  const res = await client.send(path, { method, body, key: victim.keys.test });
  expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
  return res.body;
}

beforeAll(async () => {
  app = await startTestApp();
  victim = await app.workspace();
  other = await app.workspace();
  client = new SweepClient(app.url);
  const ws = victim.slug;
  const toRevoke = await issueKey(app.ctx, { workspace: ws, mode: 'test', abilities: [] });
  revokedKey = toRevoke.key;
  await revokeKey(app.ctx, toRevoke.id);
  for (const ability of ABILITIES) {
    const abilities = ABILITIES.filter((a) => a !== ability);
    lacking.set(ability, (await issueKey(app.ctx, { workspace: ws, mode: 'test', abilities })).key);
  }
  minimalKey = (await issueKey(app.ctx, { workspace: ws, mode: 'test', abilities: ['events:write'] })).key;
  secrets.push(
    ...[
      revokedKey,
      minimalKey,
      ...lacking.values(),
      ...Object.values(victim.keys),
      ...Object.values(other.keys),
    ].map((key) => ({ label: 'an API key', pattern: key, allowedIn: [] })),
  );

  // One of every resource in the victim's sandbox, each carrying MARK.
  seeded.externalId = VICTIM_EXT;
  const template = await asVictim('/v1/message-templates', {
    key: `tpl-${MARK}`,
    channel: 'email',
    subject: `Hi ${MARK}`,
    body: `Hello ${MARK}`,
  });
  seeded.template = template.key;
  const sub = await asVictim('/v1/webhook-subscriptions', {
    url: 'http://127.0.0.1:9/hook',
    event_types: ['*'],
    description: `sub ${MARK}`,
  });
  seeded.subscription = sub.id;
  secrets.push({
    label: 'the victim’s webhook secret',
    pattern: sub.secret,
    allowedIn: ['createWebhookSubscription'],
  });
  // Points create the participant; then its contact fields.
  const entry = await asVictim(`/v1/participants/${VICTIM_EXT}/points`, {
    points: 500,
    reason: `seed ${MARK}`,
  });
  await asVictim(
    `/v1/participants/${VICTIM_EXT}`,
    { name: `Victim ${MARK}`, email: `${MARK}@example.com` },
    'PATCH',
  );
  seeded.entry = String(entry.id);
  const reward = await asVictim('/v1/rewards', {
    name: `reward ${MARK}`,
    type: 'physical',
    cost_points: 1,
    stock: 100,
  });
  seeded.reward = String(reward.id);
  const redemption = await asVictim('/v1/redemptions', { participant: VICTIM_EXT, reward_id: reward.id });
  seeded.redemption = String(redemption.id);
  seeded.eventType = `order.${MARK}`;
  // A streak the victim's event extends: no intruder reads, changes or archives it, or the
  // participant's standing in it.
  const streak = await asVictim('/v1/streaks', {
    key: `s-${MARK}`,
    name: `Streak ${MARK}`,
    event_types: [seeded.eventType],
    frequency: 'daily',
  });
  seeded.streak = streak.key;
  const flow = await asVictim('/v1/flows', {
    name: `flow ${MARK}`,
    event_type: seeded.eventType,
    actions: [
      { type: 'award_points', points: 3, reason: `flow ${MARK}` },
      { type: 'send_message', template: seeded.template },
      { type: 'award_points', points: 2, pending_for: 'P30D' },
    ],
  });
  seeded.flow = flow.id;
  seeded.badge = (await asVictim('/v1/badges', { key: `badge-${MARK}`, name: `Badge ${MARK}` })).key;
  const board = await asVictim('/v1/leaderboards', {
    key: `lb-${MARK}`,
    name: `Board ${MARK}`,
    period: 'weekly',
  });
  seeded.leaderboard = board.key;
  const endpoint = await asVictim('/v1/ingest-endpoints', { name: `ingest ${MARK}` });
  seeded.ingestEndpoint = endpoint.id;
  seeded.ingestKey = endpoint.key;
  secrets.push({
    label: 'the victim’s ingest secret',
    pattern: endpoint.secret,
    allowedIn: ['createIngestEndpoint'],
  });
  const event = await asVictim('/v1/events', {
    event_type: seeded.eventType,
    participant: { external_id: VICTIM_EXT },
    payload: { note: MARK },
  });
  seeded.event = event.event_id;
  await asVictim(`/v1/event-types/${seeded.eventType}/schema`, { schema: { type: 'object' } }, 'PUT');
  // The victim's tier programme, its level named with MARK: no intruder's read shows it, and no
  // intruder's DELETE /v1/tiers ends it.
  await asVictim('/v1/tiers', tierProgrammeSample(`Gold ${MARK}`), 'PUT');
  // The victim's referral programme (its event type carries MARK) and a referral on hold that the
  // victim's participant made, as the engine leaves it: no intruder reads or cancels it. Every
  // intruder tenant has a programme of its own, so its GET answers 200 without the victim's.
  await asVictim(
    '/v1/referrals/program',
    { ...referralSample(), qualifying_event_type: seeded.eventType },
    'PUT',
  );
  for (const key of [victim.keys.live, other.keys.test, other.keys.live])
    await client.send('/v1/referrals/program', { method: 'PUT', body: referralSample(), key });
  seeded.referral = await seedReferral();
  const exp = await asVictim('/v1/exports', { resource: 'ledger', format: 'jsonl' });
  seeded.export = exp.id;
  const run = await eventually(
    async () => (await asVictim(`/v1/flow-runs?event_id=${seeded.event}`)).data[0],
  );
  seeded.flowRun = run.id;
  const grant = await eventually(
    async () => (await asVictim(`/v1/participants/${VICTIM_EXT}/pending-points`)).data[0],
  );
  seeded.pendingGrant = grant.id;
  const message = await eventually(
    async () => (await asVictim(`/v1/messages?participant=${VICTIM_EXT}`)).data[0],
    15_000,
  );
  seeded.message = message.id;
  const delivery = await eventually(
    async () => (await asVictim(`/v1/webhook-deliveries?subscription_id=${sub.id}`)).data[0],
    15_000,
  );
  seeded.delivery = delivery.id;
  const done = await eventually(async () => {
    const e = await asVictim(`/v1/exports/${exp.id}`);
    return e.status === 'completed' && e;
  }, 20_000);
  downloadToken = new URL(done.download_url).searchParams.get('token')!;
  // An export of the other workspace, to try the victim's download token on.
  const theirs = await client.send('/v1/exports', {
    method: 'POST',
    body: { resource: 'ledger', format: 'csv' },
    key: other.keys.test,
  });
  otherExportId = theirs.body.id;
}, 90_000);
afterAll(() => app?.close());

const referralSample = () => sampleBodies({}).putReferralProgram!() as Record<string, unknown>;

/** A qualified referral of the victim's participant, its friend named with MARK, written as the engine writes it. */
async function seedReferral(): Promise<string> {
  const friend = `f-${MARK}`;
  await asVictim(`/v1/participants/${friend}/points`, { points: 1, reason: `seed ${MARK}` });
  const { code } = await asVictim(`/v1/participants/${VICTIM_EXT}/referral-code`);
  const id = uuidv7();
  await app.ctx.pool.query(
    `insert into referrals (id, workspace_id, mode, code, advocate_id, friend_id, status, event_id, created_at,
        qualified_at, reward_available_at, grant_ids, due_at)
     select $1, a.workspace_id, 'test', $2, a.id, f.id, 'qualified', $3, now() - interval '1 day',
        now() - interval '1 hour', now() + interval '7 days', '{}', now() + interval '7 days'
       from participants a, participants f
      where a.workspace_id = $4 and a.mode = 'test' and a.external_id = $5
        and f.workspace_id = $4 and f.mode = 'test' and f.external_id = $6`,
    [id, code, uuidv7(), victim.id, VICTIM_EXT, friend],
  );
  return id;
}

/** Victim ids and MARK that an intruder's answer shows, other than what it sent itself. */
function leaked(sent: string, text: string): string[] {
  const values = [
    MARK,
    ...Object.entries(seeded)
      .filter(([k]) => k !== 'externalId')
      .map(([, v]) => v),
  ];
  // Integer ids are too short to search for in text; names carry MARK instead.
  return values.filter((v) => v.length >= 8 && text.includes(v) && !sent.includes(v));
}

/** Every victim resource is still there, as seeded: what no intruder's call may have changed. */
async function victimUnchanged() {
  // Every read, as the victim (so the secret scan below also sees what reads show the owner).
  for (const op of bearerOps.filter((o) => o.method === 'get')) {
    const res = await client.send(victimPath(op), { method: 'GET', key: victim.keys.test });
    expect(res.status, `${op.operationId}: ${res.text}`).toBe(200);
  }
  const lists = await client.send('/v1/webhook-subscriptions', { method: 'GET', key: victim.keys.test });
  expect(lists.text).toContain(seeded.subscription);
  const summary = await asVictim(`/v1/participants/${VICTIM_EXT}`);
  expect(summary.name).toBe(`Victim ${MARK}`);
  const sub = await asVictim(`/v1/webhook-subscriptions/${seeded.subscription}`);
  expect(sub).toMatchObject({ status: 'active', description: `sub ${MARK}` });
  const redemption = await asVictim(`/v1/redemptions/${seeded.redemption}`);
  expect(redemption.status).not.toBe('cancelled');
  const reward = await asVictim(`/v1/rewards/${seeded.reward}`);
  expect(reward).toMatchObject({ name: `reward ${MARK}`, active: true });
  const tiers = await asVictim('/v1/tiers');
  expect(tiers?.levels?.[1]?.name).toBe(`Gold ${MARK}`);
  const streak = await asVictim(`/v1/streaks/${seeded.streak}`);
  expect(streak).toMatchObject({
    name: `Streak ${MARK}`,
    event_types: [seeded.eventType],
    archived_at: null,
  });
  const standing = await asVictim(`/v1/participants/${VICTIM_EXT}/streaks`);
  expect(standing.data).toMatchObject([{ key: seeded.streak, longest: 1 }]);
  expect(await asVictim(`/v1/referrals/${seeded.referral}`)).toMatchObject({ status: 'qualified' });
  expect((await asVictim('/v1/referrals/program')).qualifying_event_type).toBe(seeded.eventType);
  const types = await asVictim('/v1/event-types');
  expect(types.data.find((t: { key: string }) => t.key === seeded.eventType)?.schema).toEqual({
    type: 'object',
  });
}

const AUTH_401 = ['no key', 'malformed key', 'revoked key'] as const;

function malformedKeys(): (string | { header: string })[] {
  const real = victim.keys.test;
  return [
    'garbage',
    'svc_test_short',
    `svc_test_${'A'.repeat(40)}`,
    `svc_prod_${real.slice(9)}`,
    `${real.slice(0, -1)}${real.endsWith('A') ? 'B' : 'A'}`,
    { header: `Basic ${Buffer.from(`${real}:`).toString('base64')}` },
    { header: `Bearer  ${real} extra` },
    { header: real },
  ];
}

describe('the authentication and isolation sweep over every declared operation', () => {
  it('knows a victim resource for every path parameter', () => {
    for (const op of OPERATIONS) expect(() => victimPath(op)).not.toThrow();
  });

  it('answers 401 without a valid key, 403 without the ability, and 404 across tenants and modes', async () => {
    const samples = sampleBodies({ reward: seeded.reward! });
    const bodyFor = (op: Operation) => {
      if (!op.body) return undefined;
      const sample = samples[op.operationId];
      if (!sample) throw new Error(`${op.operationId}: no sample body in test/operation-samples.ts`);
      // References to rewards point at the victim's (participants are the caller's own: see OWN_TENANT_SUCCESS).
      return sample();
    };
    const expectStatus = (
      where: string,
      res: { status: number; body: any; headers: Headers },
      status: number,
    ) => {
      if (res.status !== status)
        client.fail(`${where}: expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
      else if (status >= 400) {
        const problem = envelopeProblem(res);
        if (problem) client.fail(`${where}: ${problem}`);
        const type = { 401: 'authentication_error', 403: 'permission_error', 404: 'not_found' }[status];
        if (type && res.body?.error?.type !== type)
          client.fail(`${where}: type ${res.body?.error?.type}, not ${type}`);
      }
    };
    let requests = 0;
    for (const op of bearerOps) {
      const method = op.method.toUpperCase();
      const path = victimPath(op);
      const hasResource = pathParams(op).length > 0;
      const send = async (
        key: string | null | { header: string },
        p = path,
      ): Promise<{ status: number; body: any; headers: Headers; text: string }> => {
        requests++;
        const auth =
          typeof key === 'object' && key ? { key: null, headers: { authorization: key.header } } : { key };
        return client.send(p, { method, body: bodyFor(op), ...(auth as { key: string | null }) });
      };
      const at = (label: string, p = path) => `${method} ${p.slice(0, 100)} [${label}]`;

      // 1-3: no key, malformed keys, a revoked key.
      expectStatus(at(AUTH_401[0]), await send(null), 401);
      for (const key of malformedKeys())
        expectStatus(at(`malformed ${JSON.stringify(key).slice(0, 40)}`), await send(key), 401);
      expectStatus(at(AUTH_401[2]), await send(revokedKey), 401);

      // 4: a key of the victim's own sandbox lacking the ability (every other ability held); an
      // operation open to any key must answer a key holding a single unrelated ability.
      if (op.auth === 'key') {
        if (!destructive(op)) {
          const res = await send(minimalKey);
          if (res.status >= 300) client.fail(`${at('minimal key')}: ${res.status} for an any-key operation`);
        }
      } else {
        const res = await send(lacking.get(op.auth as Ability)!);
        expectStatus(at(`lacking ${op.auth}`), res, 403);
        if (res.status === 403 && res.body?.error?.required_ability !== op.auth)
          client.fail(`${at('lacking')}: required_ability ${res.body?.error?.required_ability}`);
      }

      // 5-6: the victim's live key, and the other workspace's keys (both modes).
      const intruders: [string, string][] = [
        ['other mode', victim.keys.live],
        ['other workspace', other.keys.test],
        ['other workspace, live', other.keys.live],
      ];
      for (const [label, key] of intruders)
        for (const p of hasResource ? [path] : op.method === 'get' ? withVictimFilters(op, path) : [path]) {
          const res = await send(key, p);
          const sent = `${p} ${JSON.stringify(bodyFor(op) ?? '')}`;
          for (const v of leaked(sent, res.text)) client.fail(`${at(label, p)}: shows the victim's ${v}`);
          if (hasResource && !OWN_TENANT_SUCCESS[op.operationId]) expectStatus(at(label, p), res, 404);
          else if (BODY_REFERENCE_NOT_FOUND.has(op.operationId)) expectStatus(at(label, p), res, 404);
          else if (res.status >= 300) client.fail(`${at(label, p)}: ${res.status} ${res.text.slice(0, 200)}`);
        }
    }
    expect(requests).toBeGreaterThan(bearerOps.length * 12);
    expect(client.failures, client.failures.join('\n')).toEqual([]);
  }, 120_000);

  it('leaves every victim resource in place and unchanged', victimUnchanged);

  it('serves the public operations to anyone, with no tenant data in them', async () => {
    const publicOps = OPERATIONS.filter((op) => op.auth === 'none');
    // /v1/openapi.json, /healthz, /readyz and /metrics are public by design (CONTRACT 2-3 and the
    // document's security: []): a key, good or bad, changes nothing, and none shows tenant data.
    expect(publicOps.map((o) => o.operationId).sort()).toEqual([
      'getOpenApiDocument',
      'healthz',
      'metrics',
      'readyz',
    ]);
    for (const op of publicOps)
      for (const key of [null, 'garbage', revokedKey, other.keys.test, victim.keys.live]) {
        const res = await client.send(op.path, { method: 'GET', key });
        expect(res.status, `${op.path} with ${String(key).slice(0, 12)}`).toBe(200);
        expect(leaked(op.path, res.text)).toEqual([]);
      }
  });

  it('ingest (key in the path + X-Signature, no bearer key): 401 for every credential but its own', async () => {
    const raw = JSON.stringify({ event_type: seeded.eventType, participant: { external_id: VICTIM_EXT } });
    const sign = (secret: string, t = Math.floor(Date.now() / 1000)) =>
      `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${raw}`).digest('hex')}`;
    const theirs = await client.send('/v1/ingest-endpoints', {
      method: 'POST',
      body: { name: 'theirs' },
      key: other.keys.test,
    });
    const gone = await asVictim('/v1/ingest-endpoints', { name: `deleted ${MARK}` });
    await asVictim(`/v1/ingest-endpoints/${gone.id}`, undefined, 'DELETE');
    const post = (key: string, headers: Record<string, string>) =>
      client.send(`/v1/ingest/${key}`, {
        method: 'POST',
        raw,
        key: null,
        headers: { 'content-type': 'application/json', ...headers },
      });
    const cases: [string, string, Record<string, string>][] = [
      ['no signature', seeded.ingestKey!, {}],
      [
        'a bearer key instead of a signature',
        seeded.ingestKey!,
        { authorization: `Bearer ${victim.keys.test}` },
      ],
      ['a malformed signature', seeded.ingestKey!, { 'x-signature': 'v1=abc' }],
      [
        'a stale signature',
        seeded.ingestKey!,
        { 'x-signature': sign('x', Math.floor(Date.now() / 1000) - 3600) },
      ],
      ['another endpoint’s secret', seeded.ingestKey!, { 'x-signature': sign(theirs.body.secret) }],
      ['a deleted endpoint', gone.key, { 'x-signature': sign(gone.secret) }],
      ['an unknown key', `ing_${'a'.repeat(32)}`, { 'x-signature': sign(theirs.body.secret) }],
    ];
    for (const [label, key, headers] of cases) {
      const res = await post(key, headers);
      expect(res.status, `${label}: ${res.text}`).toBe(401);
      expect(envelopeProblem(res), label).toBeNull();
      expect(res.body.error.type).toBe('authentication_error');
    }
    secrets.push({
      label: 'the other workspace’s ingest secret',
      pattern: theirs.body.secret,
      allowedIn: ['createIngestEndpoint'],
    });
  });

  it('download URLs: the token is the credential for its own export only', async () => {
    // With `token` no key is asked for (a signed URL, CONTRACT 15); it must not open another export.
    const ok = await client.send(`/v1/exports/${seeded.export}/download?token=${downloadToken}`, {
      method: 'GET',
      key: null,
    });
    expect(ok.status).toBe(200);
    for (const [label, path] of [
      [
        'the victim’s token on another workspace’s export',
        `/v1/exports/${otherExportId}/download?token=${downloadToken}`,
      ],
      ['a forged token', `/v1/exports/${seeded.export}/download?token=${downloadToken.slice(0, -2)}xx`],
      ['an empty token', `/v1/exports/${seeded.export}/download?token=`],
    ] as const) {
      const res = await client.send(path, { method: 'GET', key: null });
      expect(res.status, `${label}: ${res.text}`).toBe(404);
      expect(envelopeProblem(res)).toBeNull();
      expect(leaked(path, res.text)).toEqual([]);
    }
  });

  it('shows secrets only in their create responses, and no error body shows internals', () => {
    expect(client.records.length).toBeGreaterThan(1000);
    expect(scanRecords(client.records, secrets)).toEqual([]);
  });
});

// --- GraphQL: the same callers over every root field of the schema ---

/** The victim resource an `id` or `key` argument of a root field names. */
const GRAPHQL_RESOURCE: Record<string, string> = {
  event: 'event',
  flow: 'flow',
  updateFlow: 'flow',
  deleteFlow: 'flow',
  flowRun: 'flowRun',
  ingestEndpoint: 'ingestEndpoint',
  deleteIngestEndpoint: 'ingestEndpoint',
  message: 'message',
  webhookSubscription: 'subscription',
  updateWebhookSubscription: 'subscription',
  deleteWebhookSubscription: 'subscription',
  testWebhookSubscription: 'subscription',
  webhookDelivery: 'delivery',
  replayWebhookDelivery: 'delivery',
  reward: 'reward',
  updateReward: 'reward',
  archiveReward: 'reward',
  redemption: 'redemption',
  fulfilRedemption: 'redemption',
  cancelRedemption: 'redemption',
  activatePendingPoints: 'pendingGrant',
  cancelPendingPoints: 'pendingGrant',
  export: 'export',
  messageTemplate: 'template',
  updateMessageTemplate: 'template',
  deleteMessageTemplate: 'template',
  leaderboard: 'leaderboard',
  streak: 'streak',
  updateStreak: 'streak',
  archiveStreak: 'streak',
  referral: 'referral',
  cancelReferral: 'referral',
  backfillBadge: 'badge',
  putEventTypeSchema: 'eventType',
  dropEventTypeSchema: 'eventType',
};

/** What an argument (or input field) of this name carries when it names a victim resource. */
function victimValue(field: string, name: string): unknown {
  const byName: Record<string, string | undefined> = {
    id: seeded[GRAPHQL_RESOURCE[field] ?? ''],
    key: seeded[GRAPHQL_RESOURCE[field] ?? ''],
    externalId: VICTIM_EXT,
    participant: VICTIM_EXT,
    rewardId: seeded.reward,
    entryId: seeded.entry,
    subscriptionId: seeded.subscription,
    flowId: seeded.flow,
    eventId: seeded.event,
    template: seeded.template,
    eventType: seeded.eventType,
    search: MARK,
    advocate: VICTIM_EXT,
  };
  return byName[name];
}

/** A value of `type` for field `field`: the victim's resource where the name names one, else a plausible one. */
function sampleValue(field: string, name: string, type: GraphQLInputType): unknown {
  if (isNonNullType(type)) return sampleValue(field, name, type.ofType);
  if (isListType(type)) return [sampleValue(field, name, type.ofType)];
  if (isEnumType(type)) return type.getValues()[0]!.name;
  if (isInputObjectType(type))
    return Object.fromEntries(
      Object.values(type.getFields())
        .filter(
          (f) =>
            (isNonNullType(f.type) && f.defaultValue === undefined) ||
            victimValue(field, f.name) !== undefined,
        )
        .map((f) => [f.name, sampleValue(field, f.name, f.type)]),
    );
  const victims = victimValue(field, name);
  if (victims !== undefined) return victims;
  return (
    { Int: 1, SafeInt: 1, Float: 1, Boolean: true, JSON: {}, DateTime: new Date().toISOString() }[
      type.name
    ] ?? 'x'
  );
}

/** Every scalar of an object type, and of its objects `depth` levels down (a connection's nodes). */
function selection(type: GraphQLNamedType, depth: number): string {
  if (!isObjectType(type)) return isInterfaceType(type) || isUnionType(type) ? '{ __typename }' : '';
  const fields = Object.values(type.getFields())
    .filter((f) => f.args.every((a) => !isNonNullType(a.type)))
    .flatMap((f) => {
      const inner = getNamedType(f.type);
      if (!isObjectType(inner) && !isInterfaceType(inner) && !isUnionType(inner)) return [f.name];
      return depth > 0 ? [`${f.name} ${selection(inner, depth - 1)}`] : [];
    });
  return `{ __typename ${fields.join(' ')} }`;
}

/** One root field as a request: its required arguments, and every argument that can name a victim resource. */
function rootRequest(kind: 'query' | 'mutation', field: GraphQLField<unknown, unknown>) {
  const args = field.args.filter(
    (a) => isNonNullType(a.type) || victimValue(field.name, a.name) !== undefined,
  );
  const declared = args.map((a) => `$${a.name}: ${String(a.type)}`).join(', ');
  const passed = args.map((a) => `${a.name}: $${a.name}`).join(', ');
  const query = `${kind}${declared ? `(${declared})` : ''} { ${field.name}${passed ? `(${passed})` : ''} ${selection(getNamedType(field.type), 3)} }`;
  const variables = Object.fromEntries(args.map((a) => [a.name, sampleValue(field.name, a.name, a.type)]));
  return { query, variables };
}

describe('the same sweep over every GraphQL root field', () => {
  const roots = [
    ...Object.values(schema.getQueryType()!.getFields()).map((f) => ['query', f] as const),
    ...Object.values(schema.getMutationType()!.getFields()).map((f) => ['mutation', f] as const),
  ];
  const records: { sent: string; text: string }[] = [];

  async function call(
    field: GraphQLField<unknown, unknown>,
    kind: 'query' | 'mutation',
    key: string | null | { header: string },
  ) {
    const body = rootRequest(kind, field);
    const auth =
      typeof key === 'object' && key ? { key: null, headers: { authorization: key.header } } : { key };
    const res = await request(app.url, '/graphql', {
      body,
      unchecked: true,
      ...(auth as { key: string | null }),
    });
    const sent = JSON.stringify(body);
    records.push({ sent, text: res.text });
    return {
      res,
      sent,
      errors: (res.body?.errors ?? []) as { message: string; extensions?: { code?: string } }[],
    };
  }

  it('answers authentication_error without a valid key, permission_error without the ability, and never shows another tenant', async () => {
    const failures: string[] = [];
    let requests = 0;
    for (const [kind, field] of roots) {
      const scopes = (field.extensions as { pothosOptions?: { authScopes?: unknown } }).pothosOptions
        ?.authScopes;
      const at = (label: string) => `${kind} ${field.name} [${label}]`;
      const expectCode = (label: string, r: Awaited<ReturnType<typeof call>>, code: string) => {
        const got = r.errors[0]?.extensions?.code;
        if (got !== code)
          failures.push(`${at(label)}: ${got ?? 'no error'} instead of ${code}: ${r.res.text.slice(0, 200)}`);
        else if (r.res.body?.data?.[field.name] != null) failures.push(`${at(label)}: data beside ${code}`);
      };
      const check = (label: string, r: Awaited<ReturnType<typeof call>>) => {
        requests++;
        if (r.res.status >= 500) failures.push(`${at(label)}: HTTP ${r.res.status}`);
        if (!r.res.headers.get('x-request-id')) failures.push(`${at(label)}: no X-Request-Id`);
        for (const e of r.errors)
          if (
            !e.extensions?.code ||
            e.extensions.code === 'api_error' ||
            e.extensions.code === 'INTERNAL_SERVER_ERROR'
          )
            failures.push(`${at(label)}: ${e.extensions?.code ?? 'no code'}: ${e.message.slice(0, 200)}`);
        return r;
      };

      // Every field that reads or writes workspace data declares its scopes; none is open.
      if (!scopes) failures.push(`${at('scopes')}: no authScopes`);

      expectCode('no key', check('no key', await call(field, kind, null)), 'authentication_error');
      for (const key of malformedKeys())
        expectCode('malformed key', check('malformed', await call(field, kind, key)), 'authentication_error');
      expectCode(
        'revoked key',
        check('revoked', await call(field, kind, revokedKey)),
        'authentication_error',
      );

      const ability = (scopes as { ability?: Ability } | undefined)?.ability;
      if (ability) {
        const r = check('lacking', await call(field, kind, lacking.get(ability)!));
        expectCode(`lacking ${ability}`, r, 'permission_error');
      }

      for (const [label, key] of [
        ['other mode', victim.keys.live],
        ['other workspace', other.keys.test],
        ['other workspace, live', other.keys.live],
      ] as const) {
        const r = check(label, await call(field, kind, key));
        // The REST sweep above defined a type of that name in each intruder's own tenant (its
        // putEventTypeSchema): the name is theirs too now, so it is no finding in their answers.
        const text = r.res.text.replaceAll(seeded.eventType!, '');
        for (const v of leaked(r.sent, text)) failures.push(`${at(label)}: shows the victim's ${v}`);
        // A single resource of the victim is not found: null, or a not_found error; never the resource.
        const resource = GRAPHQL_RESOURCE[field.name];
        if (resource && !OWN_TENANT_SUCCESS_GRAPHQL.has(field.name)) {
          const found = r.res.body?.data?.[field.name];
          if (found != null) failures.push(`${at(label)}: answered the victim's ${resource}`);
        }
      }
    }
    expect(requests).toBeGreaterThan(roots.length * 12);
    expect(failures, failures.join('\n')).toEqual([]);
  }, 120_000);

  it('leaves every victim resource in place and unchanged', victimUnchanged);

  it('shows no key or victim secret, and no error shows internals', () => {
    const problems: string[] = [];
    const victimSecrets = secrets.filter((s) => typeof s.pattern === 'string');
    for (const r of records) {
      for (const s of [SECRET_SHAPES[0]!, ...victimSecrets]) {
        const hit = typeof s.pattern === 'string' ? r.text.includes(s.pattern) : s.pattern.test(r.text);
        if (hit && !(typeof s.pattern === 'string' && r.sent.includes(s.pattern)))
          problems.push(`${r.sent.slice(0, 80)} shows ${s.label}`);
      }
      for (const [what, re] of INTERNALS) {
        const m = re.exec(r.text);
        if (m && !r.sent.includes(m[0].trim()))
          problems.push(`${r.sent.slice(0, 80)}: carries ${what}: ${m[0]}`);
      }
    }
    expect(records.length).toBeGreaterThan(500);
    expect(problems).toEqual([]);
  });
});

/**
 * Root fields that name an event type by the integrator's own name: they answer in the caller's
 * tenant (a schema for a type not seen yet defines it there, as on REST; the REST sweep above
 * defined the victim's type name in every intruder's tenant, so dropping it drops theirs).
 */
const OWN_TENANT_SUCCESS_GRAPHQL = new Set(['putEventTypeSchema', 'dropEventTypeSchema']);
