import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import type { AppContext } from '../src/context.ts';
import { assertEgressAllowed, egressRequest } from '../src/lib/egress.ts';
import { openApiDocument } from '../src/rest/openapi.ts';
import type { Principal } from '../src/services/keys/principal.ts';
import { sendSms } from '../src/services/messages/transports.ts';
import { createReward } from '../src/services/rewards/save-reward.ts';
import { createSubscription } from '../src/services/webhooks/create-subscription.ts';
import { eventually, startTestApp, type TestApp, type TestWorkspace, testEnv } from './helpers.ts';
import { envelopeProblem, type SecretRule, SweepClient, scanRecords } from './security-sweep.ts';
import { type Receiver, startReceiver } from './webhooks-receiver.ts';

/**
 * The SSRF sweep (issue 15, CONTRACT 11): the service runs WITHOUT the EGRESS_ALLOW_CIDRS loopback
 * exemption the other test files use, and every outbound URL reachable through the API (webhook
 * subscription url, create and update; external reward endpoint_url, create and update; the "send
 * a test" actions of both; a redemption of an external reward; webhook deliveries) and the SMS
 * transport (SMS_WEBHOOK_URL, configuration) is given a corpus of addresses that reach this
 * machine or a private network: every one is refused, and loopback receivers see nothing.
 *
 * Safety: before any corpus URL goes to the service, the guard itself is asked about it in this
 * process; one it would let through is a failure and is never sent, so a guard bug cannot make
 * this test send traffic to a private network.
 */

let app: TestApp;
let ws: TestWorkspace;
let client: SweepClient;
let rx4: Receiver;
let rx6: Receiver | null = null;
const corpus: { label: string; url: string }[] = [];
/** Corpus URLs the guard itself refused: only these are sent. */
const refused: { label: string; url: string }[] = [];
const secrets: SecretRule[] = [];

/** Names /etc/hosts maps to a loopback address (machine names such as `vm`), besides localhost. */
function loopbackHostNames(): string[] {
  let hosts = '';
  try {
    hosts = readFileSync('/etc/hosts', 'utf8');
  } catch {
    return [];
  }
  const names = new Set<string>();
  for (const line of hosts.split('\n')) {
    const [address, ...rest] = line.replace(/#.*/, '').trim().split(/\s+/);
    if (address && (/^127\./.test(address) || address === '::1'))
      for (const n of rest) if (n && n !== 'localhost' && !n.includes(':')) names.add(n);
  }
  return [...names].slice(0, 4);
}

function buildCorpus(p: number, p6: number) {
  const add = (label: string, url: string) => corpus.push({ label, url });
  // Loopback, in every spelling a URL parser turns into 127.0.0.1 or ::1.
  for (const host of [
    '127.0.0.1',
    '127.1',
    '127.0.1',
    '127.0.0.2',
    '127.255.255.254',
    '2130706433',
    '0x7f000001',
    '0x7f.0.0.1',
    '0x7f.1',
    '0177.0.0.1',
    '0177.1',
    '017700000001',
    '%31%32%37.0.0.1',
    '１２７.０.０.１',
    '127。0。0。1',
    'localhost',
    'localhost.',
    'LOCALHOST',
    'sub.localhost',
    ...loopbackHostNames(),
  ])
    add(`loopback ${host}`, `http://${host}:${p}/hook`);
  add('https loopback', `https://127.0.0.1:${p}/hook`);
  add('uppercase scheme', `HTTP://127.0.0.1:${p}/hook`);
  // Unspecified: connecting to 0.0.0.0 or :: reaches this machine.
  for (const host of ['0.0.0.0', '0', '[::]', '[0:0:0:0:0:0:0:0]'])
    add(`unspecified ${host}`, `http://${host}:${p}/hook`);
  // IPv6 loopback and IPv4-mapped, -compatible and translated forms of loopback.
  for (const host of [
    '[::1]',
    '[0:0:0:0:0:0:0:1]',
    '[::ffff:127.0.0.1]',
    '[::ffff:7f00:1]',
    '[0:0:0:0:0:ffff:127.0.0.1]',
    '[::127.0.0.1]',
    '[::7f00:1]',
    '[::ffff:0:127.0.0.1]',
    '[64:ff9b::127.0.0.1]',
    '[2002:7f00:1::1]',
  ])
    add(
      `IPv6 ${host}`,
      `http://${host}:${host === '[::1]' || host.startsWith('[0:0:0:0:0:0:0:1') ? p6 : p}/hook`,
    );
  // Userinfo and delimiter tricks: the host a socket would dial is loopback.
  add('userinfo host', `http://example.com@127.0.0.1:${p}/hook`);
  add('userinfo user:pass', `http://user:pass@localhost:${p}/hook`);
  add('userinfo public-looking', `http://1.1.1.1:80@127.0.0.1:${p}/hook`);
  add('backslash', `http://127.0.0.1:${p}\\@example.com/hook`);
  add('fragment @', `http://127.0.0.1:${p}#@example.com/hook`);
  add('query @', `http://127.0.0.1:${p}?@example.com/hook`);
  add('tab in host', `http://127.0.0.\t1:${p}/hook`);
  // Private, CGNAT, link-local, metadata, multicast, broadcast, reserved, unique-local (never dialled).
  for (const host of [
    '10.0.0.1',
    '10.255.255.255',
    '172.16.0.1',
    '172.31.255.254',
    '192.168.0.1',
    '192.168.255.255',
    '100.64.0.1',
    '100.127.255.254',
    '169.254.169.254',
    '169.254.0.1',
    '2852039166',
    '0xa9fea9fe',
    '0251.0376.0251.0376',
    '0xa9.0xfe.0xa9.0xfe',
    '224.0.0.1',
    '239.255.255.250',
    '255.255.255.255',
    '192.0.0.1',
    '192.0.2.1',
    '198.18.0.1',
    '240.0.0.1',
    '0.1.2.3',
    '[fc00::1]',
    '[fd00::1]',
    '[fd00:ec2::254]',
    '[fe80::1]',
    '[fec0::1]',
    '[ff02::1]',
    '[ff05::1:3]',
    '[::ffff:10.0.0.1]',
    '[::ffff:169.254.169.254]',
    '[::ffff:a9fe:a9fe]',
    '[::ffff:192.168.1.1]',
    '[64:ff9b::a9fe:a9fe]',
    '[2001:db8::1]',
    '[100::1]',
  ])
    add(`non-public ${host}`, `http://${host}:${p}/hook`);
  // Schemes other than http and https, and URLs that are not absolute http URLs at all.
  for (const url of [
    'file:///etc/passwd',
    `gopher://127.0.0.1:${p}/_hello`,
    `ftp://127.0.0.1:${p}/`,
    `dict://127.0.0.1:${p}/info`,
    `ldap://127.0.0.1:${p}/`,
    `ws://127.0.0.1:${p}/`,
    `wss://127.0.0.1:${p}/`,
    `tftp://127.0.0.1:${p}/x`,
    'data:text/plain,hello',
    'javascript:alert(1)',
    `//127.0.0.1:${p}/hook`,
    `/hook`,
    'http://',
    `http://[::1:${p}/hook`,
  ])
    add(`scheme/shape ${url.slice(0, 12)}`, url);
}

/** A principal of the workspace's `mode` key, for calling services as the API would. */
const principal = (mode: 'test' | 'live'): Promise<Principal> =>
  app.ctx.keys.authenticate(`Bearer ${ws.keys[mode]}`);

/**
 * The context the service would have with the loopback exemption: used only to store a URL that is
 * unsafe under the real configuration (as if stored before a DNS change, or under an older guard),
 * so the send-time check is what is tested.
 */
const exempted = (): AppContext => ({
  ...app.ctx,
  config: { ...app.ctx.config, EGRESS_ALLOW_CIDRS: ['127.0.0.0/8', '::1/128'] },
});

beforeAll(async () => {
  app = await startTestApp({
    env: { EGRESS_ALLOW_CIDRS: '', WEBHOOK_RETRY_SCHEDULE: '1,1', WEBHOOK_TIMEOUT_MS: '2000' },
  });
  expect(app.ctx.config.EGRESS_ALLOW_CIDRS).toEqual([]);
  ws = await app.workspace();
  client = new SweepClient(app.url);
  rx4 = await startReceiver();
  try {
    rx6 = await startReceiver({ host: '::1' });
  } catch {
    rx6 = null; // no IPv6 loopback here: the IPv6 corpus still must be refused
  }
  buildCorpus(rx4.port, rx6?.port ?? rx4.port);
  for (const entry of corpus) {
    try {
      await assertEgressAllowed(entry.url, { allowCidrs: [] });
    } catch {
      refused.push(entry);
    }
  }
}, 60_000);
afterAll(async () => {
  await rx4?.close();
  await rx6?.close();
  await app?.close();
});

const seen = () => rx4.received.length + (rx6?.received.length ?? 0);

/**
 * The operations this file sends outbound URLs through (or makes call out), and what every other
 * URL-named body field is. A new operation whose document mentions the egress guard or an
 * `endpoint_url`, or a new URL-named field, fails the first test until it is swept here.
 */
const SWEPT_OPERATIONS = [
  'createWebhookSubscription',
  'updateWebhookSubscription',
  'testWebhookSubscription',
  'createReward',
  'updateReward',
  'testRewardFulfilment',
  'createRedemption',
];
const URL_FIELDS: Record<string, string> = {
  'createWebhookSubscription url': 'outbound: swept below',
  'updateWebhookSubscription url': 'outbound: swept below',
  'defineBadge image_url': 'shown to browsers; the service never fetches it',
  'createReward image_url': 'shown to browsers; the service never fetches it',
  'updateReward image_url': 'shown to browsers; the service never fetches it',
};

function documentedOutbound(): { egress: string[]; urlFields: string[] } {
  const doc = openApiDocument() as any;
  const schemas = doc.components?.schemas ?? {};
  const resolve = (x: any): any => (x?.$ref ? resolve(schemas[x.$ref.split('/').pop()]) : x);
  const urlFields = new Set<string>();
  const walk = (x: any, opId: string, path: string[], seen: Set<unknown>) => {
    const node = resolve(x);
    if (!node || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    for (const k of ['oneOf', 'anyOf', 'allOf']) for (const sub of node[k] ?? []) walk(sub, opId, path, seen);
    if (node.items) walk(node.items, opId, path, seen);
    for (const [name, sub] of Object.entries(node.properties ?? {})) {
      if (/url|uri|href|endpoint|callback/i.test(name)) urlFields.add(`${opId} ${[...path, name].join('.')}`);
      walk(sub, opId, [...path, name], seen);
    }
  };
  const egress: string[] = [];
  for (const item of Object.values<any>(doc.paths))
    for (const op of Object.values<any>(item)) {
      const text = JSON.stringify([op.description, op.requestBody]);
      const refs = [...text.matchAll(/#\/components\/schemas\/(\w+)/g)].map((r) =>
        JSON.stringify(schemas[r[1]!]),
      );
      if (/egress|endpoint_url/i.test(text + refs.join(''))) egress.push(op.operationId);
      const body = op.requestBody?.content?.['application/json']?.schema;
      if (body) walk(body, op.operationId, [], new Set());
    }
  return { egress: egress.sort(), urlFields: [...urlFields].sort() };
}

describe('the SSRF corpus over every outbound URL', () => {
  it('sweeps every operation the document says calls out, and knows every URL field', () => {
    const { egress, urlFields } = documentedOutbound();
    expect(egress).toEqual([...SWEPT_OPERATIONS].sort());
    expect(urlFields).toEqual(Object.keys(URL_FIELDS).sort());
  });

  it('reaches the receivers when loopback is exempted (so their silence below means something)', async () => {
    const allow = ['127.0.0.0/8', '::1/128'];
    const res = await egressRequest(`http://localhost:${rx4.port}/control`, {
      allowCidrs: allow,
      timeoutMs: 2000,
    });
    expect(res.status).toBe(200);
    if (rx6) await egressRequest(`http://[::1]:${rx6.port}/control`, { allowCidrs: allow, timeoutMs: 2000 });
    expect(seen()).toBe(rx6 ? 2 : 1);
    rx4.received.length = 0;
    if (rx6) rx6.received.length = 0;
  });

  it('has the egress guard refuse every corpus URL', () => {
    expect(corpus.length).toBeGreaterThan(90);
    const admitted = corpus.filter((e) => !refused.includes(e)).map((e) => `${e.label}: ${e.url}`);
    expect(admitted, 'the guard lets these through (they are not sent to the service)').toEqual([]);
  });

  it('refuses each as a webhook subscription url (create and update) with 422 on url', async () => {
    const sub = await createSubscription(exempted(), await principal('test'), {
      url: 'http://127.0.0.1:9/ok',
      event_types: ['*'],
    });
    secrets.push({ label: 'a webhook secret', pattern: sub.secret, allowedIn: [] });
    for (const { label, url } of refused) {
      for (const [method, path, body] of [
        ['POST', '/v1/webhook-subscriptions', { url, event_types: ['points.changed'] }],
        ['PATCH', `/v1/webhook-subscriptions/${sub.id}`, { url }],
      ] as const) {
        const res = await client.send(path, { method, body, key: ws.keys.test });
        expectRefusal(`${method} ${path} [${label}] ${url}`, res, 'url');
      }
    }
    const after = await client.send(`/v1/webhook-subscriptions/${sub.id}`, {
      method: 'GET',
      key: ws.keys.test,
    });
    expect(after.body.url).toBe('http://127.0.0.1:9/ok');
    expect(client.failures, client.failures.join('\n')).toEqual([]);
  }, 60_000);

  it('refuses each as an external reward endpoint_url (create, update and the test call)', async () => {
    const reward = await createReward(exempted(), await principal('test'), {
      name: 'external',
      type: 'external',
      cost_points: 1,
      config: { endpoint_url: 'http://127.0.0.1:9/ok', method: 'POST', code_path: 'code' },
    });
    for (const { label, url } of refused) {
      const config = { endpoint_url: url, method: 'POST', code_path: 'code' };
      for (const [method, path, body] of [
        ['POST', '/v1/rewards', { name: `x ${label}`, type: 'external', cost_points: 1, config }],
        ['PATCH', `/v1/rewards/${reward.id}`, { config }],
      ] as const) {
        const res = await client.send(path, { method, body, key: ws.keys.test });
        expectRefusal(`${method} ${path} [${label}] ${url}`, res, 'endpoint_url');
      }
      const tried = await client.send(`/v1/rewards/${reward.id}/test-fulfilment`, {
        method: 'POST',
        body: { config },
        key: ws.keys.test,
      });
      expectNotSent(`test-fulfilment [${label}] ${url}`, tried);
    }
    expect(client.failures, client.failures.join('\n')).toEqual([]);
  }, 60_000);

  it('refuses at send time a stored URL that is not public (test actions, redemptions, deliveries)', async () => {
    // Stored while loopback was exempted; the service itself runs without the exemption.
    const stored = [`http://127.0.0.1:${rx4.port}/stored`, `http://localhost:${rx4.port}/stored`];
    if (rx6) stored.push(`http://[::1]:${rx6.port}/stored`);
    for (const url of stored) {
      const live = await principal('live');
      const sub = await createSubscription(exempted(), live, { url, event_types: ['*'] });
      secrets.push({ label: 'a webhook secret', pattern: sub.secret, allowedIn: [] });
      const test = await client.send(`/v1/webhook-subscriptions/${sub.id}/test`, {
        method: 'POST',
        body: {},
        key: ws.keys.live,
      });
      expectNotSent(`webhook test to ${url}`, test);
      const reward = await createReward(exempted(), live, {
        name: `stored ${url}`,
        type: 'external',
        cost_points: 1,
        config: { endpoint_url: url, method: 'POST', code_path: 'code' },
      });
      const tried = await client.send(`/v1/rewards/${reward.id}/test-fulfilment`, {
        method: 'POST',
        body: {},
        key: ws.keys.live,
      });
      expectNotSent(`reward test to ${url}`, tried);
      // A live redemption: points credited (a points.changed result for the subscription), then
      // the external call, which must be refused (the redemption fails and is refunded).
      const who = `p-${sub.id.slice(-6)}`;
      await client.send(`/v1/participants/${who}/points`, {
        method: 'POST',
        body: { points: 5, reason: 'ssrf' },
        key: ws.keys.live,
      });
      const redeemed = await client.send('/v1/redemptions', {
        method: 'POST',
        body: { participant: who, reward_id: reward.id },
        key: ws.keys.live,
      });
      if (redeemed.status < 300 && redeemed.body.status === 'fulfilled')
        client.fail(`redemption via ${url} was fulfilled: ${redeemed.text}`);
      // The live deliveries of the points.changed result: attempted, refused, never received.
      const delivery = await eventually(async () => {
        const list = await client.send(`/v1/webhook-deliveries?subscription_id=${sub.id}`, {
          method: 'GET',
          key: ws.keys.live,
        });
        const d = list.body.data[0];
        if (!d) return null;
        const one = await client.send(`/v1/webhook-deliveries/${d.id}`, { method: 'GET', key: ws.keys.live });
        return one.body.attempts.length > 0 ? one.body : null;
      }, 20_000);
      for (const attempt of delivery.attempts) {
        expect(attempt.status_code, `delivery to ${url}`).toBeNull();
        expect(attempt.error, `delivery to ${url}`).toMatch(/loopback|refused|not allowed/i);
      }
    }
    expect(seen()).toBe(0);
    expect(client.failures, client.failures.join('\n')).toEqual([]);
  }, 60_000);

  it('refuses each as the SMS transport (SMS_WEBHOOK_URL)', async () => {
    let tried = 0;
    for (const { label, url } of refused) {
      let config: ReturnType<typeof loadConfig>;
      try {
        config = loadConfig(testEnv(app.databaseUrl, { EGRESS_ALLOW_CIDRS: '', SMS_WEBHOOK_URL: url }));
      } catch {
        continue; // refused when the configuration is read: never used
      }
      tried++;
      const outcome = await sendSms(config, {
        id: `m-${tried}`,
        channel: 'sms',
        to: '+15550100',
        subject: null,
        body: 'hello',
      } as Parameters<typeof sendSms>[1]);
      expect(outcome.outcome, `SMS via ${label} ${url}`).toBe('not_sent');
    }
    expect(tried).toBeGreaterThan(80);
  }, 60_000);

  it('refuses the SMS transport at a loopback name end to end: a live flow’s SMS fails, nothing arrives', async () => {
    const sms = await startTestApp({
      env: { EGRESS_ALLOW_CIDRS: '', SMS_WEBHOOK_URL: `http://localhost:${rx4.port}/sms` },
    });
    try {
      const w = await sms.workspace();
      const key = w.keys.live;
      const direct = new SweepClient(sms.url);
      const call = (path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST') =>
        direct.send(path, { method, body, key });
      expect(
        (await call('/v1/message-templates', { key: 'sms.hi', channel: 'sms', body: 'Hi' })).status,
      ).toBe(201);
      const flow = await call('/v1/flows', {
        name: 'sms',
        event_type: 'signup',
        actions: [{ type: 'send_message', template: 'sms.hi' }],
      });
      expect(flow.status, flow.text).toBe(201);
      await call('/v1/participants/sms-1/points', { points: 1, reason: 'x' });
      await call('/v1/participants/sms-1', { phone: '+15550100' }, 'PATCH');
      expect((await call('/v1/events', { event_type: 'signup', participant: 'sms-1' })).status).toBe(202);
      const message = await eventually(async () => {
        const m = (await call('/v1/messages?participant=sms-1')).body.data[0];
        return m && m.status !== 'pending' ? m : null;
      }, 20_000);
      expect(message.status).toBe('failed');
      expect(JSON.stringify(message)).toMatch(/loopback|refused/i);
      expect(direct.failures).toEqual([]);
      client.records.push(...direct.records);
    } finally {
      await sms.close();
    }
    expect(seen()).toBe(0);
  }, 60_000);

  it('let nothing reach the loopback receivers', async () => {
    // Retries of refused deliveries run on a 1 s schedule: give them the time to (not) arrive.
    await new Promise((r) => setTimeout(r, 2500));
    expect(seen()).toBe(0);
    expect((await client.send('/healthz', { method: 'GET' })).status).toBe(200);
  });

  it('shows secrets only in their create responses, and no error body shows internals', () => {
    expect(client.records.length).toBeGreaterThan(400);
    expect(scanRecords(client.records, secrets)).toEqual([]);
  });
});

/** A 422 validation_error naming the URL field. */
function expectRefusal(where: string, res: { status: number; body: any; headers: Headers }, field: string) {
  const problem = envelopeProblem(res);
  if (problem || res.status !== 422 || res.body.error.type !== 'validation_error') {
    client.fail(`${where} → ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
    return;
  }
  const fields: string[] = (res.body.error.errors ?? []).map((e: { field: string }) => e.field);
  if (!fields.some((f) => f.endsWith(field)))
    client.fail(`${where}: refused, but not on ${field}: ${fields.join(', ')}`);
}

/** A test action that reports it did not reach the URL (200 `ok: false`), or a 4xx refusal. */
function expectNotSent(where: string, res: { status: number; body: any; headers: Headers; text: string }) {
  if (res.status >= 400) {
    const problem = envelopeProblem(res);
    if (problem) client.fail(`${where} → ${res.status}: ${problem}`);
    return;
  }
  if (res.body?.ok !== false || res.body?.status_code != null)
    client.fail(`${where} → ${res.status} ${res.text.slice(0, 200)}`);
}
