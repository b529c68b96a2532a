import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceOf, buildParticipant, buildReward, outboxOf } from './factories.ts';
import { eventually, request, startTestApp, type TestApp, type TestWorkspace, testEnv } from './helpers.ts';

// External fulfilment against real HTTP servers on loopback (EGRESS_ALLOW_CIDRS=127.0.0.1/32 in
// tests). WEBHOOK_TIMEOUT_MS is short so the timeout case and the recovery delay stay quick.

const TIMEOUT_MS = 600;
const ROOT = path.resolve(import.meta.dirname, '..');

interface Received {
  path: string;
  method: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A loopback endpoint whose behaviour is chosen by path; records every request it gets. */
async function endpoint(handle: (req: Received, res: http.ServerResponse) => void) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const r = { path: req.url ?? '', method: req.method ?? '', headers: req.headers, body };
      received.push(r);
      handle(r, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

let app: TestApp;
let ws: TestWorkspace;
let server: Awaited<ReturnType<typeof endpoint>>;

beforeAll(async () => {
  app = await startTestApp({ env: { WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) } });
  ws = await app.workspace();
  server = await endpoint((req, res) => {
    const reference = (() => {
      try {
        return JSON.parse(req.body).ref as string;
      } catch {
        return 'none';
      }
    })();
    if (req.path.startsWith('/ok')) return json(res, 200, { data: { voucher: `EXT-${reference}` } });
    if (req.path.startsWith('/fail')) return json(res, 500, { error: 'boom' });
    if (req.path.startsWith('/slow')) return; // never answers
    if (req.path.startsWith('/redirect')) {
      res.writeHead(302, { location: `${server.url}/ok` });
      return res.end();
    }
    if (req.path.startsWith('/html')) {
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end('<html>hi</html>');
    }
    if (req.path.startsWith('/nocode')) return json(res, 200, { data: { other: 'x', voucher: 42 } });
    json(res, 404, {});
  });
});
afterAll(async () => {
  await server?.close();
  await app?.close();
});

const externalReward = (name: string, route: string, extra: Record<string, unknown> = {}) =>
  buildReward(ws, {
    name,
    type: 'external',
    cost_points: 100,
    stock: 5,
    config: {
      endpoint_url: `${server.url}${route}`,
      method: 'POST',
      headers: { 'X-Api-Key': 'k-123', 'X-Participant': '{{participant.external_id}}' },
      body: {
        ref: '{{reference}}',
        who: { email: '{{participant.email}}', name: '{{participant.name}}' },
        reward: '{{reward.name}}',
        literal: '{{not.a.token}}',
      },
      code_path: 'data.voucher',
      ...extra,
    },
  });

describe('external fulfilment', () => {
  it('fetches the code after the debit commits, substituting tokens as plain text', async () => {
    const r = await externalReward('Partner voucher', '/ok');
    await buildParticipant(app, ws, {
      externalId: 'ext-ok',
      points: 250,
      email: 'ok@example.com',
      name: 'Ann',
    });
    const res = await ws.api('/v1/redemptions', {
      body: { participant: 'ext-ok', reward_id: r.id, idempotency_key: 'ord-1' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      status: 'fulfilled',
      fulfilment: { type: 'external', code: 'EXT-ord-1' },
    });
    const call = server.received.at(-1)!;
    expect(call.headers['x-api-key']).toBe('k-123');
    expect(call.headers['x-participant']).toBe('ext-ok');
    expect(JSON.parse(call.body)).toEqual({
      ref: 'ord-1',
      who: { email: 'ok@example.com', name: 'Ann' },
      reward: 'Partner voucher',
      literal: '{{not.a.token}}',
    });
    expect(await balanceOf(app, ws, 'ext-ok')).toEqual({ balance: 150, ledger: 150 });
    expect((await ws.api(`/v1/rewards/${r.id}`)).body.stock_remaining).toBe(4);
    const redeemed = (await outboxOf(app, ws, 'reward.redeemed')).filter(
      (d) => d.redemption.id === res.body.id,
    );
    expect(redeemed).toHaveLength(1);
    expect(redeemed[0]!.redemption.fulfilment.code).toBe('EXT-ord-1');
    // A replay returns the fulfilled redemption and calls nobody.
    const calls = server.received.length;
    const again = await ws.api('/v1/redemptions', {
      body: { participant: 'ext-ok', reward_id: r.id, idempotency_key: 'ord-1' },
    });
    expect([again.status, again.body.fulfilment.code]).toEqual([200, 'EXT-ord-1']);
    expect(server.received.length).toBe(calls);
  });

  it('never re-expands a token that arrives inside a participant’s own data', async () => {
    const r = await externalReward('Injection', '/ok');
    await buildParticipant(app, ws, {
      externalId: 'ext-inj',
      points: 100,
      email: 'secret@example.com',
      name: '{{participant.email}} {{reference}}',
    });
    const res = await ws.api('/v1/redemptions', { body: { participant: 'ext-inj', reward_id: r.id } });
    expect(res.status).toBe(201);
    const sent = JSON.parse(server.received.at(-1)!.body);
    expect(sent.who).toEqual({ email: 'secret@example.com', name: '{{participant.email}} {{reference}}' });
    // Without a caller key, {{reference}} is a generated one, stable for the redemption.
    expect(sent.ref).toMatch(/^red_/);
  });

  const failures: [string, string, RegExp][] = [
    ['a 500', '/fail', /answered 500/],
    ['a timeout', '/slow', /timeout/],
    ['a redirect (not followed)', '/redirect', /redirect/],
    ['a non-JSON answer', '/html', /not JSON/],
    ['no string at code_path', '/nocode', /code_path/],
  ];
  for (const [what, route, message] of failures) {
    it(`cancels, refunds by reversal and restores stock on ${what}: 422 external_fulfilment_failed`, async () => {
      const r = await externalReward(`Failing ${route}`, route);
      const id = `ext-fail${route.replace('/', '-')}`;
      await buildParticipant(app, ws, { externalId: id, points: 300 });
      const before = server.received.length;
      const res = await ws.api('/v1/redemptions', {
        body: { participant: id, reward_id: r.id, idempotency_key: `k${route}` },
      });
      expect(res.status, res.text).toBe(422);
      expect(res.body.error).toMatchObject({
        type: 'external_fulfilment_failed',
        redemption_id: expect.any(Number),
      });
      expect(res.body.error.message).toMatch(message);
      if (route === '/redirect')
        expect(server.received.slice(before).map((x) => x.path)).toEqual(['/redirect']);
      const shown = await ws.api(`/v1/redemptions/${res.body.error.redemption_id}`);
      expect(shown.body).toMatchObject({ status: 'cancelled', fulfilment: { type: 'external' } });
      expect(await balanceOf(app, ws, id)).toEqual({ balance: 300, ledger: 300 });
      const { rows } = await app.ctx.pool.query(
        `select source, points, reverses_entry_id is not null as reverses from ledger_entries
          where reference = $1 order by id`,
        [String(res.body.error.redemption_id)],
      );
      expect(rows).toEqual([
        { source: 'redemption', points: '-100', reverses: false },
        { source: 'reversal', points: '100', reverses: true },
      ]);
      expect((await ws.api(`/v1/rewards/${r.id}`)).body.stock_remaining).toBe(5);
      // The replay answers the same failure, without calling again.
      const calls = server.received.length;
      const again = await ws.api('/v1/redemptions', {
        body: { participant: id, reward_id: r.id, idempotency_key: `k${route}` },
      });
      expect([again.status, again.body.error.type]).toEqual([422, 'external_fulfilment_failed']);
      expect(server.received.length).toBe(calls);
      expect((await outboxOf(app, ws, 'reward.redeemed')).some((d) => d.reward.id === r.id)).toBe(false);
    });
  }

  it('test-fulfilment fires the live request with a sample participant and reports the outcome', async () => {
    const r = await externalReward('Tested', '/ok');
    const ok = await ws.api(`/v1/rewards/${r.id}/test-fulfilment`, { method: 'POST' });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({
      ok: true,
      status_code: 200,
      code: expect.stringMatching(/^EXT-test_/),
      response_snippet: expect.stringContaining('EXT-test_'),
      error: null,
    });
    expect(JSON.parse(server.received.at(-1)!.body).who.email).toBe('test-participant@example.com');
    const bad = await ws.api(`/v1/rewards/${r.id}/test-fulfilment`, {
      body: { config: { endpoint_url: `${server.url}/fail`, code_path: 'data.voucher' } },
    });
    expect(bad.body).toMatchObject({
      ok: false,
      status_code: 500,
      code: null,
      error: expect.stringMatching(/500/),
    });
    const blocked = await ws.api(`/v1/rewards/${r.id}/test-fulfilment`, {
      body: { config: { endpoint_url: 'http://192.168.1.10/x', code_path: 'c' } },
    });
    expect(blocked.body).toMatchObject({
      ok: false,
      status_code: null,
      error: expect.stringMatching(/blocked/),
    });
    const phys = await buildReward(ws, { name: 'Not external', type: 'physical', cost_points: 1 });
    expect((await ws.api(`/v1/rewards/${phys.id}/test-fulfilment`, { method: 'POST' })).status).toBe(422);
  });
});

describe('recovery after a crash between the debit and the outcome', () => {
  let child: ChildProcess | undefined;
  afterAll(() => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });

  it('a SIGKILLed API process leaves pending redemptions; the recovery job finishes one and reverses the other', async () => {
    // The first call of each reference hangs (the process is killed meanwhile); later calls answer.
    const seen = new Set<string>();
    let arrived = 0;
    const flaky = await endpoint((req, res) => {
      const ref = JSON.parse(req.body).ref as string;
      if (!seen.has(ref)) {
        seen.add(ref);
        arrived++;
        return; // hang
      }
      if (req.path === '/ok') return json(res, 200, { code: `REC-${ref}` });
      json(res, 503, { error: 'down' });
    });
    try {
      const own = await app.workspace();
      const good = await buildReward(own, {
        name: 'Recovers',
        type: 'external',
        cost_points: 40,
        stock: 3,
        config: { endpoint_url: `${flaky.url}/ok`, body: { ref: '{{reference}}' }, code_path: 'code' },
      });
      const bad = await buildReward(own, {
        name: 'Reverses',
        type: 'external',
        cost_points: 60,
        stock: 3,
        config: { endpoint_url: `${flaky.url}/bad`, body: { ref: '{{reference}}' }, code_path: 'code' },
      });
      await buildParticipant(app, own, { externalId: 'crash', points: 100 });

      child = spawn(process.execPath, ['src/cli.ts', 'serve', '--role', 'api'], {
        cwd: ROOT,
        env: testEnv(app.databaseUrl, { LOG_LEVEL: 'info', WEBHOOK_TIMEOUT_MS: '2000' }),
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      const url = await new Promise<string>((resolve, reject) => {
        let buf = '';
        child!.stderr!.setEncoding('utf8');
        child!.stderr!.on('data', (c: string) => {
          buf += c;
          const m = /"msg":"listening"[^\n]*/.exec(buf) ?? null;
          const u = m ? /"url":"([^"]+)"/.exec(buf) : null;
          if (u) resolve(u[1]!);
        });
        child!.once('exit', () => reject(new Error(`child exited:\n${buf}`)));
      });
      const key = own.keys.test;
      const inFlight = [
        request(url, '/v1/redemptions', {
          key,
          body: { participant: 'crash', reward_id: good.id, idempotency_key: 'c-1' },
        }),
        request(url, '/v1/redemptions', {
          key,
          body: { participant: 'crash', reward_id: bad.id, idempotency_key: 'c-2' },
        }),
      ].map((p) => p.catch((e: Error) => e));
      await eventually(async () => arrived === 2, 15_000);
      child.kill('SIGKILL');
      await Promise.all(inFlight);

      // Debited and pending: the crash happened between the debit commit and the outcome.
      const pending = await app.ctx.pool.query(
        `select idempotency_key, status from redemptions where workspace_id = $1 order by idempotency_key`,
        [own.id],
      );
      expect(pending.rows).toEqual([
        { idempotency_key: 'c-1', status: 'pending' },
        { idempotency_key: 'c-2', status: 'pending' },
      ]);
      expect((await balanceOf(app, own, 'crash'))!.balance).toBe(0);

      // The surviving app's worker runs the delayed recovery jobs (2 × timeout + 5 s after the debit).
      const settled = await eventually(async () => {
        const { rows } = await app.ctx.pool.query(
          `select idempotency_key, status, fulfilment from redemptions where workspace_id = $1 and status <> 'pending' order by idempotency_key`,
          [own.id],
        );
        return rows.length === 2 ? rows : null;
      }, 30_000);
      expect(settled).toEqual([
        { idempotency_key: 'c-1', status: 'fulfilled', fulfilment: { type: 'external', code: 'REC-c-1' } },
        { idempotency_key: 'c-2', status: 'cancelled', fulfilment: { type: 'external' } },
      ]);
      expect(await balanceOf(app, own, 'crash')).toEqual({ balance: 60, ledger: 60 });
      expect((await own.api(`/v1/rewards/${bad.id}`)).body.stock_remaining).toBe(3);
      expect((await own.api(`/v1/rewards/${good.id}`)).body.stock_remaining).toBe(2);
    } finally {
      await flaky.close();
    }
  }, 60_000);
});
