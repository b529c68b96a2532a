import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeKey, rotateKey } from '../src/services/keys/manage-keys.ts';
import { signParticipantToken, verifyParticipantToken } from '../src/services/keys/participant-token.ts';
import { startTestApp, TEST_SECRET, type TestApp, type TestWorkspace } from './helpers.ts';

let app: TestApp;
let ws: TestWorkspace;

beforeAll(async () => {
  app = await startTestApp();
  ws = await app.workspace();
  await ws.api('/v1/participants/alice/points', { body: { points: 10, reason: 'seed' } });
});
afterAll(() => app?.close());

const claims = {
  workspaceId: '0190a000-0000-7000-8000-000000000000',
  workspaceSlug: 'acme',
  mode: 'test' as const,
  externalId: 'alice',
  keyId: '0190a000-0000-7000-8000-000000000001',
  expiresAt: Math.floor(Date.now() / 1000) + 60,
};

describe('participant token format', () => {
  it('round-trips its claims under the secret', () => {
    const token = signParticipantToken(TEST_SECRET, claims);
    expect(token).toMatch(/^svc_pt_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(verifyParticipantToken(TEST_SECRET, token)).toEqual(claims);
  });

  it('refuses another secret, a changed payload, an expired token and garbage', () => {
    const token = signParticipantToken(TEST_SECRET, claims);
    expect(() => verifyParticipantToken('another-secret-0123456789', token)).toThrow(/bad signature/);
    const [payload, sig] = token.slice(7).split('.');
    const forged = Buffer.from(
      Buffer.from(payload!, 'base64url').toString().replace('"alice"', '"mallory"'),
    ).toString('base64url');
    expect(() => verifyParticipantToken(TEST_SECRET, `svc_pt_${forged}.${sig}`)).toThrow(/bad signature/);
    expect(() => verifyParticipantToken(TEST_SECRET, token, (claims.expiresAt + 1) * 1000)).toThrow(
      /expired/,
    );
    for (const bad of ['svc_pt_', 'svc_pt_a.b.c', 'svc_live_x', 'svc_pt_%%%.%%%'])
      expect(() => verifyParticipantToken(TEST_SECRET, bad)).toThrow();
  });
});

describe('POST /v1/participants/{external_id}/tokens', () => {
  it('mints a token bound to the participant, workspace, mode and key, 1 h by default', async () => {
    const before = Date.now();
    const res = await ws.api('/v1/participants/alice/tokens', { body: {} });
    expect(res.status).toBe(201);
    const expires = Date.parse(res.body.expires_at);
    expect(expires - before).toBeGreaterThan(3590_000);
    expect(expires - before).toBeLessThan(3610_000);
    const who = await app.ctx.keys.authenticateParticipant(`Bearer ${res.body.token}`);
    expect(who).toMatchObject({
      workspaceId: ws.id,
      mode: 'test',
      externalId: 'alice',
      keyId: ws.keyIds.test,
    });
  });

  it('honours ttl_seconds within 60..86400 and refuses others with 422', async () => {
    const res = await ws.api('/v1/participants/alice/tokens', { body: { ttl_seconds: 60 } });
    expect(res.status).toBe(201);
    expect(Date.parse(res.body.expires_at) - Date.now()).toBeLessThanOrEqual(60_000);
    for (const ttl of [59, 86_401, 1.5, '600'])
      expect((await ws.api('/v1/participants/alice/tokens', { body: { ttl_seconds: ttl } })).status).toBe(
        422,
      );
  });

  it('answers 404 for an unknown participant and 403 without participants:write', async () => {
    expect((await ws.api('/v1/participants/nobody/tokens', { body: {} })).status).toBe(404);
    const reader = await app.workspace({ abilities: ['participants:read'] });
    const res = await reader.api('/v1/participants/alice/tokens', { body: {} });
    expect(res.status).toBe(403);
    expect(res.body.error.type).toBe('permission_error');
  });

  it('ends with its key: a revoked or rotated minting key makes the token fail at once', async () => {
    const w = await app.workspace();
    await w.api('/v1/participants/bob/points', { body: { points: 1, reason: 'seed' } });
    await w.api('/v1/participants/bob/points', { body: { points: 1, reason: 'seed' }, mode: 'live' });
    const a = (await w.api('/v1/participants/bob/tokens', { body: {} })).body.token;
    await app.ctx.keys.authenticateParticipant(`Bearer ${a}`);
    await rotateKey(app.ctx, w.keyIds.test);
    await expect(app.ctx.keys.authenticateParticipant(`Bearer ${a}`)).rejects.toThrow(/revoked or rotated/);
    const b = (await w.api('/v1/participants/bob/tokens', { body: {}, mode: 'live' })).body.token;
    await app.ctx.keys.authenticateParticipant(`Bearer ${b}`);
    await revokeKey(app.ctx, w.keyIds.live);
    await expect(app.ctx.keys.authenticateParticipant(`Bearer ${b}`)).rejects.toThrow(/revoked or rotated/);
  });

  it('is not an API key: REST refuses it with 401', async () => {
    const token = (await ws.api('/v1/participants/alice/tokens', { body: {} })).body.token;
    const res = await ws.api('/v1/participants/alice', { key: token });
    expect(res.status).toBe(401);
  });
});
