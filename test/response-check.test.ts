import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';
import { checkResponse, declaredOperation } from './response-check.ts';

let app: TestApp;
let ws: TestWorkspace;

beforeAll(async () => {
  app = await startTestApp();
  ws = await app.workspace();
});
afterAll(() => app?.close());

const json = (status: number, body: unknown) => ({
  status,
  contentType: 'application/json; charset=utf-8',
  body,
  text: JSON.stringify(body),
});

describe('the test client checks every REST response against its declaration', () => {
  it('accepts what a presenter really returns', async () => {
    await ws.api('/v1/participants/alice/points', { body: { points: 5, reason: 'welcome' } });
    const res = await ws.api('/v1/participants/alice');
    expect(res.status).toBe(200);
    expect(() => checkResponse('GET', '/v1/participants/alice', json(200, res.body))).not.toThrow();
  });

  it('fails when a presenter adds a field the declaration does not have', async () => {
    const res = await ws.api('/v1/participants/alice');
    expect(() =>
      checkResponse('GET', '/v1/participants/alice', json(200, { ...res.body, nickname: 'al' })),
    ).toThrow(/does not match the declared schema/);
  });

  it('fails when a presenter drops a declared field', async () => {
    const res = await ws.api('/v1/participants/alice');
    const { lifetime_points: _dropped, ...rest } = res.body;
    expect(() => checkResponse('GET', '/v1/participants/alice', json(200, rest))).toThrow(/lifetime_points/);
  });

  it('fails on a nested shape too (a ledger entry inside a page)', async () => {
    const res = await ws.api('/v1/participants/alice/ledger');
    const [entry] = res.body.data;
    const drifted = { ...res.body, data: [{ ...entry, source: 'bonus' }] };
    expect(() => checkResponse('GET', '/v1/participants/alice/ledger', json(200, drifted))).toThrow();
  });

  it('fails on a status the operation does not declare', () => {
    expect(() => checkResponse('GET', '/v1/participants/alice', json(418, {}))).toThrow(/does not declare/);
  });

  it('matches operations by method and path template, literal segments first', () => {
    expect(declaredOperation('GET', '/v1/participants/bob/ledger?limit=2')?.template).toBe(
      '/v1/participants/{external_id}/ledger',
    );
    expect(declaredOperation('GET', '/graphql')).toBeNull();
  });
});
