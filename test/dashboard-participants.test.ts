import type { TRPCClient } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '../src/trpc/router.ts';
import { buildReward } from './factories.ts';
import { signedInDashboard, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

let app: TestApp;
let ws: TestWorkspace;
let trpc: TRPCClient<AppRouter>;

beforeAll(async () => {
  app = await startTestApp();
  ws = await app.workspace();
  trpc = await signedInDashboard(app, ws);
});
afterAll(() => app?.close());

describe('the participant detail page’s procedures (tRPC)', () => {
  it('lists one participant’s redemptions, newest first, paged, in its mode only', async () => {
    const reward = await buildReward(ws, { name: 'Sticker', cost_points: 5 });
    for (const id of ['red-a', 'red-b'])
      await trpc.participants.adjust.mutate({ mode: 'test', externalId: id, points: 100, reason: 'seed' });
    for (const id of ['red-a', 'red-a', 'red-b']) {
      const res = await ws.api('/v1/redemptions', { body: { participant: id, reward_id: reward.id } });
      expect(res.status, res.text).toBe(201);
    }
    const first = await trpc.participants.redemptions.query({ mode: 'test', externalId: 'red-a', limit: 1 });
    expect(first.data).toHaveLength(1);
    expect(first.data[0]).toMatchObject({ participant: { external_id: 'red-a' }, reward_id: reward.id });
    const second = await trpc.participants.redemptions.query({
      mode: 'test',
      externalId: 'red-a',
      limit: 1,
      cursor: first.nextCursor!,
    });
    expect(second.data).toHaveLength(1);
    expect(second.data[0]!.id).toBeLessThan(first.data[0]!.id);
    expect(second.nextCursor).toBeNull();
    expect(
      (await trpc.participants.redemptions.query({ mode: 'test', externalId: 'red-b' })).data,
    ).toHaveLength(1);
    // The live mode has none of the test mode's redemptions.
    expect((await trpc.participants.redemptions.query({ mode: 'live', externalId: 'red-a' })).data).toEqual(
      [],
    );
  });

  it('erases a participant: PII gone, the old id 404s, ledger amounts kept', async () => {
    await ws.api('/v1/participants/erase-me/points', { body: { points: 40, reason: 'x' } });
    await ws.api('/v1/participants/erase-me', {
      method: 'PATCH',
      body: { name: 'Erin', email: 'erin@example.com' },
    });
    expect(await trpc.participants.erase.mutate({ mode: 'test', externalId: 'erase-me' })).toEqual({
      erased: true,
    });
    await expect(trpc.participants.get.query({ mode: 'test', externalId: 'erase-me' })).rejects.toMatchObject(
      {
        data: { type: 'not_found' },
      },
    );
    const { rows } = await app.ctx.pool.query(
      `select external_id, name, email, balance from participants where workspace_id = $1 and external_id like 'erased_%'`,
      [ws.id],
    );
    expect(rows).toEqual([
      { external_id: expect.stringMatching(/^erased_/), name: null, email: null, balance: '40' },
    ]);
    await expect(
      trpc.participants.erase.mutate({ mode: 'test', externalId: 'erase-me' }),
    ).rejects.toMatchObject({
      data: { type: 'not_found' },
    });
    await expect(trpc.participants.erase.mutate({ mode: 'test', externalId: '' })).rejects.toMatchObject({
      data: { type: 'validation_error' },
    });
  });

  it('gives the adjust form field errors and the reverse button its refusals', async () => {
    await expect(
      trpc.participants.adjust.mutate({ mode: 'test', externalId: 'form', points: 0, reason: '' }),
    ).rejects.toMatchObject({
      data: {
        type: 'validation_error',
        errors: expect.arrayContaining([
          { field: 'points', message: 'must be a non-zero integer' },
          expect.objectContaining({ field: 'reason' }),
        ]),
      },
    });
    const { entry } = await trpc.participants.adjust.mutate({
      mode: 'test',
      externalId: 'form',
      points: 9,
      reason: 'r',
    });
    const reversal = await trpc.participants.reverse.mutate({
      mode: 'test',
      externalId: 'form',
      entryId: String(entry.id),
    });
    expect(reversal).toMatchObject({ points: -9, reverses_entry_id: entry.id, source: 'reversal' });
    await expect(
      trpc.participants.reverse.mutate({ mode: 'test', externalId: 'form', entryId: String(entry.id) }),
    ).rejects.toMatchObject({ data: { type: 'already_reversed' } });
  });
});
