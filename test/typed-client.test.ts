import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../clients/typescript/example.ts';
import { createSvcClient, ok, SvcApiError } from '../clients/typescript/index.ts';
import { buildReceiver, closeReceivers } from './factories.ts';
import { eventually, startTestApp, type TestApp } from './helpers.ts';
import { checkResponse } from './response-check.ts';

// The typed client (clients/typescript) against the real service: its README example, typed
// answers and typed errors. Every response it gets is also checked against the operation's
// declaration, as helpers' `request` checks the other tests' responses.
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
  await closeReceivers();
});

async function checkedFetch(req: Request): Promise<Response> {
  const res = await fetch(req);
  const text = await res.clone().text();
  const url = new URL(req.url);
  checkResponse(req.method, url.pathname + url.search, {
    status: res.status,
    contentType: res.headers.get('content-type'),
    body: text ? JSON.parse(text) : null,
    text,
  });
  return res;
}

const client = (apiKey: string) => createSvcClient({ baseUrl: app.url, apiKey, fetch: checkedFetch });

describe('the README example (clients/typescript/example.ts)', () => {
  it('sends an event, credits and reads a participant, redeems, is refused with a typed error, and lists deliveries; a rerun changes nothing', async () => {
    const ws = await app.workspace();
    const svc = client(ws.keys.test);
    // A sandbox subscription, so the redemption's reward.redeemed result shows as a (simulated) delivery.
    const rx = await buildReceiver();
    await ok(
      svc.POST('/v1/webhook-subscriptions', {
        body: { url: `${rx.url}/svc`, event_types: ['reward.redeemed'] },
      }),
    );

    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const first = await main({ baseUrl: app.url, apiKey: ws.keys.test, fetch: checkedFetch });
    expect(first.participant).toMatchObject({
      external_id: 'alice',
      email: 'alice@example.com',
      balance: 500,
    });
    expect(first.redemption).toMatchObject({
      participant: { external_id: 'alice' },
      status: 'pending',
      cost_points: 300,
      is_sandbox: true,
    });
    expect(first.refusal).toEqual({ type: 'insufficient_points', balance: 200, cost_points: 300 });

    const second = await main({ baseUrl: app.url, apiKey: ws.keys.test, fetch: checkedFetch });
    expect(second.eventId).toBe(first.eventId);
    expect(second.redemption.id).toBe(first.redemption.id);
    expect(second.participant.balance).toBe(200);
    expect(second.refusal).toEqual(first.refusal);
    expect(log.mock.calls.map(([line]) => line)).toContain(
      'refused: insufficient_points (balance 200, cost 300)',
    );
    log.mockRestore();

    const { data: rewards } = await ok(svc.GET('/v1/rewards'));
    expect(rewards.map((r) => r.name)).toEqual(['Tote bag']);
    const deliveries = await eventually(async () => {
      const page = await ok(
        svc.GET('/v1/webhook-deliveries', { params: { query: { type: 'reward.redeemed' } } }),
      );
      return page.data.length ? page.data : null;
    });
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]!.status).toBe('simulated');
    expect(rx.received).toEqual([]);
  });

  it('runs as the README says: node clients/typescript/example.ts with SVC_URL and SVC_API_KEY', async () => {
    const ws = await app.workspace();
    const { stdout } = await promisify(execFile)(process.execPath, ['clients/typescript/example.ts'], {
      env: { ...process.env, SVC_URL: app.url, SVC_API_KEY: ws.keys.test },
    });
    expect(stdout).toContain('alice has 500 points');
    expect(stdout).toMatch(/redemption \d+ is pending/);
  });
});

describe('the typed client', () => {
  it('answers typed data and headers for a success', async () => {
    const ws = await app.workspace();
    const svc = client(ws.keys.live);
    const { data, error, response } = await svc.POST('/v1/participants/{external_id}/points', {
      params: { path: { external_id: 'bob' }, header: { 'Idempotency-Key': 'bob-1' } },
      body: { points: 40, reason: 'survey' },
    });
    expect(error).toBeUndefined();
    expect(response.status).toBe(201);
    expect(data).toMatchObject({ points: 40, source: 'adjustment', reason: 'survey' });
    const replay = await svc.POST('/v1/participants/{external_id}/points', {
      params: { path: { external_id: 'bob' }, header: { 'Idempotency-Key': 'bob-1' } },
      body: { points: 40, reason: 'survey' },
    });
    expect(replay.response.status).toBe(200);
    expect(replay.response.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.data!.id).toBe(data!.id);

    const bob = await ok(
      svc.GET('/v1/participants/{external_id}', { params: { path: { external_id: 'bob' } } }),
    );
    expect(bob.balance).toBe(40);
    const summary = await ok(
      svc.GET('/v1/participants/{external_id}/ledger', {
        params: { path: { external_id: 'bob' }, query: { limit: 1 } },
      }),
    );
    expect(summary.data.map((e) => e.points)).toEqual([40]);
  });

  it('answers a typed error with its status: not_found, validation_error with fields, authentication_error', async () => {
    const ws = await app.workspace();
    const svc = client(ws.keys.test);

    const missing = await svc.GET('/v1/participants/{external_id}', {
      params: { path: { external_id: 'nobody' } },
    });
    expect(missing.data).toBeUndefined();
    expect(missing.response.status).toBe(404);
    expect(missing.error?.error.type).toBe('not_found');

    const invalid = await svc.POST('/v1/rewards', {
      body: { name: 'Mug', type: 'physical', cost_points: -1 },
    });
    expect(invalid.response.status).toBe(422);
    const err = invalid.error?.error;
    if (err?.type !== 'validation_error') throw new Error(`expected validation_error, got ${err?.type}`);
    expect(err.errors.map((e) => e.field)).toContain('cost_points');

    const stranger = client('svc_test_0000000000000000000000000000000000000000');
    const refused = await stranger.GET('/v1/rewards');
    expect(refused.response.status).toBe(401);
    expect(refused.error?.error.type).toBe('authentication_error');
  });

  it('pages a list by meta.next_cursor, as the README shows', async () => {
    const ws = await app.workspace();
    const svc = client(ws.keys.test);
    for (const external_id of ['p1', 'p2', 'p3'])
      await ok(
        svc.POST('/v1/participants/{external_id}/points', {
          params: { path: { external_id } },
          body: { points: 1, reason: 'seed' },
        }),
      );
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await ok(svc.GET('/v1/participants', { params: { query: { limit: 2, cursor } } }));
      expect(page.data.length).toBeLessThanOrEqual(2);
      for (const p of page.data) seen.push(p.external_id);
      cursor = page.meta.next_cursor ?? undefined;
    } while (cursor);
    expect(seen.sort()).toEqual(['p1', 'p2', 'p3']);
  });

  it('ok() returns the data or throws SvcApiError with the status, the error and the request id', async () => {
    const ws = await app.workspace();
    const svc = client(ws.keys.test);
    const thrown = await ok(
      svc.GET('/v1/participants/{external_id}', {
        params: { path: { external_id: 'nobody' } },
        headers: { 'X-Request-Id': 'typed-client-404' },
      }),
    ).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(SvcApiError);
    expect(thrown).toMatchObject({
      status: 404,
      error: { type: 'not_found' },
      requestId: 'typed-client-404',
    });
  });

  it('refuses at compile time what the API does not have (checked by npm run typecheck)', async () => {
    const ws = await app.workspace();
    const svc = client(ws.keys.test);
    // @ts-expect-error: no such path
    const none = await svc.GET('/v1/no-such-thing');
    expect(none.response.status).toBe(404);
    const wrong = await svc.POST('/v1/participants/{external_id}/points', {
      params: { path: { external_id: 'carol' } },
      // @ts-expect-error: points is an integer, not a string
      body: { points: '5', reason: 'typed' },
    });
    expect(wrong.response.status).toBe(422);
  });
});
