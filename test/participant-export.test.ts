import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mode } from '../src/services/keys/principal.ts';
import { exportParticipant } from '../src/services/participants/export-participant.ts';
import { participantExportShape } from '../src/services/participants/shapes.ts';
import {
  buildFlow,
  buildParticipant,
  buildReward,
  buildSubscription,
  buildTemplate,
  closeReceivers,
  graphqlClient,
  trpcClient,
} from './factories.ts';
import { eventually, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

/**
 * Seeds, through the app's own doors and engine, every kind the subject-access export covers for
 * `externalId` in `ws`/`mode`: a funding entry, an event whose flow awards points and a badge and
 * sends a message, a redemption of a code, and (via a subscription) webhook deliveries naming it.
 */
async function seedEverything(app: TestApp, ws: TestWorkspace, mode: Mode, externalId: string, code: string) {
  await buildParticipant(app, ws, { externalId, points: 100, mode, name: `Name of ${externalId}` });
  const flowType = `visit.${mode}`;
  const tpl = await buildTemplate(ws, {}, mode);
  await buildFlow(
    ws,
    {
      event_type: flowType,
      actions: [
        { type: 'award_points', points: 7 },
        { type: 'award_badge', badge: `vip-${mode}` },
        { type: 'send_message', template: tpl.key },
      ],
    },
    mode,
  );
  const reward = await buildReward(ws, { type: 'voucher_code', cost_points: 5, codes: [code] }, mode);
  const event = await ws.api('/v1/events', {
    mode,
    body: {
      event_type: flowType,
      participant: { external_id: externalId, email: `${externalId}@example.com` },
      payload: { page: `home-${externalId}` },
    },
  });
  expect(event.status, event.text).toBe(202);
  await eventually(async () => {
    const e = await ws.api(`/v1/events/${event.body.event_id}`, { mode });
    return e.body.status === 'processed';
  });
  const redemption = await ws.api('/v1/redemptions', {
    mode,
    body: { participant: externalId, reward_id: reward.id },
  });
  expect(redemption.status, redemption.text).toBe(201);
  return { eventId: event.body.event_id as string, redemptionId: redemption.body.id as number };
}

describe('GET /v1/participants/{external_id}/export', () => {
  let app: TestApp;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  const P = 'subject-1';
  let seeded: { eventId: string; redemptionId: number };
  let neighbour: { eventId: string; redemptionId: number };
  let liveTwin: { eventId: string; redemptionId: number };
  let otherWorkspace: { eventId: string; redemptionId: number };

  beforeAll(async () => {
    app = await startTestApp();
    ws = await app.workspace();
    other = await app.workspace();
    // Test mode: deliveries are recorded `simulated`, never POSTed, and name their participant.
    await buildSubscription(ws, { mode: 'test' });
    await buildSubscription(ws, { mode: 'live' });
    await buildSubscription(other, { mode: 'test' });
    seeded = await seedEverything(app, ws, 'test', P, 'CODE-P');
    // Someone else in the same workspace and mode, the same external id in live mode and in
    // another workspace: none of theirs may appear.
    neighbour = await seedEverything(app, ws, 'test', 'neighbour', 'CODE-N');
    liveTwin = await seedEverything(app, ws, 'live', P, 'CODE-LIVE');
    otherWorkspace = await seedEverything(app, other, 'test', P, 'CODE-OTHER');
    // Wait until the results reached their deliveries.
    await eventually(async () => {
      const doc = await ws.api(`/v1/participants/${P}/export`);
      return doc.body.webhook_deliveries?.length >= 3;
    });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await closeReceivers();
  });

  it('holds every kind of data about the participant, each in its REST shape', async () => {
    const res = await ws.api(`/v1/participants/${P}/export`);
    expect(res.status, res.text).toBe(200);
    const doc = participantExportShape.parse(res.body);

    expect(doc.participant).toMatchObject({
      external_id: P,
      name: `Name of ${P}`,
      email: `${P}@example.com`,
    });
    expect(doc.participant.balance).toBe(100 + 7 - 5);
    // Funding, the flow's award and the redemption's debit: the same entries as …/ledger.
    const ledger = await ws.api(`/v1/participants/${P}/ledger`);
    expect(doc.ledger).toEqual(ledger.body.data);
    expect(doc.ledger.map((e) => e.source).sort()).toEqual(['adjustment', 'flow', 'redemption']);
    expect(doc.badges.map((b) => b.key)).toEqual(['vip-test']);
    expect(doc.redemptions).toHaveLength(1);
    expect(doc.redemptions[0]).toMatchObject({
      id: seeded.redemptionId,
      participant: { external_id: P },
      fulfilment: { code: 'CODE-P' },
    });
    expect(doc.events.map((e) => e.id)).toEqual([seeded.eventId]);
    expect(doc.events[0]!.payload).toEqual({ page: `home-${P}` });
    expect(doc.messages).toHaveLength(1);
    expect(doc.messages[0]).toMatchObject({ participant: { external_id: P }, to: `${P}@example.com` });
    expect(doc.messages[0]!.body).toContain(`Name of ${P}`);
    // points.changed (×2), badge.awarded, message.sent, flow.completed, reward.redeemed … each
    // delivered to the test-mode subscription, all naming P.
    expect(doc.webhook_deliveries.length).toBeGreaterThanOrEqual(3);
    for (const d of doc.webhook_deliveries) {
      expect(d.status).toBe('simulated');
      expect((d.payload.data as { participant: { external_id: string } }).participant.external_id).toBe(P);
    }
    expect(new Set(doc.webhook_deliveries.map((d) => d.type))).toContain('reward.redeemed');
    expect(doc.truncated).toEqual([]);
  });

  it('holds nothing of other participants, the other mode or other workspaces', async () => {
    const doc = (await ws.api(`/v1/participants/${P}/export`)).body;
    const text = JSON.stringify(doc);
    for (const foreign of [neighbour, liveTwin, otherWorkspace]) {
      expect(text).not.toContain(foreign.eventId);
      expect(doc.redemptions.map((r: { id: number }) => r.id)).not.toContain(foreign.redemptionId);
    }
    for (const code of ['CODE-N', 'CODE-LIVE', 'CODE-OTHER']) expect(text).not.toContain(code);
    expect(text).not.toContain('neighbour');
    expect(doc.badges.map((b: { key: string }) => b.key)).not.toContain('vip-live');
    // The live twin answers with its own data under the live key.
    const live = (await ws.api(`/v1/participants/${P}/export`, { mode: 'live' })).body;
    expect(live.events.map((e: { id: string }) => e.id)).toEqual([liveTwin.eventId]);
    expect(live.redemptions[0].fulfilment.code).toBe('CODE-LIVE');
  });

  it('cuts each section at its limit and says which were cut', async () => {
    const doc = await exportParticipant(app.ctx, { workspaceId: ws.id, mode: 'test' }, P, 1);
    expect(doc.limit).toBe(1);
    expect(doc.ledger).toHaveLength(1);
    expect(doc.webhook_deliveries).toHaveLength(1);
    expect(doc.truncated).toEqual(['ledger', 'webhook_deliveries']);
    // The newest item is the one kept.
    const ledger = await ws.api(`/v1/participants/${P}/ledger?limit=1`);
    expect(doc.ledger).toEqual(ledger.body.data);
  });

  it('answers the same document over GraphQL and tRPC', async () => {
    const rest = (await ws.api(`/v1/participants/${P}/export`)).body;
    const gql = await graphqlClient(app, ws).data<{ participantExport: typeof rest }>(
      `query ($id: String!) { participantExport(externalId: $id) }`,
      { id: P },
    );
    const dashboard = await trpcClient(app, ws);
    const trpc = await dashboard.participants.export.query({ mode: 'test', externalId: P });
    const strip = ({ generated_at: _, ...d }: Record<string, unknown>) => d;
    expect(strip(gql.participantExport)).toEqual(strip(rest));
    expect(strip(trpc as Record<string, unknown>)).toEqual(strip(rest));
  });

  it('needs participants:read, and an unknown id is a 404', async () => {
    const narrow = await app.workspace({ abilities: ['events:read'] });
    const refused = await narrow.api(`/v1/participants/${P}/export`);
    expect(refused.status).toBe(403);
    expect(refused.body.error.type).toBe('permission_error');
    const gql = await graphqlClient(app, narrow)(`{ participantExport(externalId: "${P}") }`);
    expect(gql.body.errors[0].extensions.code).toBe('permission_error');
    const unknown = await ws.api('/v1/participants/nobody-here/export');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.type).toBe('not_found');
  });

  it('after erasure, the old id is a 404 and the pseudonym holds no PII', async () => {
    const erased = await seedEverything(app, ws, 'test', 'to-erase', 'CODE-E');
    const del = await ws.api('/v1/participants/to-erase', { method: 'DELETE' });
    expect(del.status, del.text).toBe(200);
    const res = await ws.api('/v1/participants/to-erase/export');
    expect(res.status).toBe(404);
    expect(res.body.error.type).toBe('not_found');
    // The pseudonymous row keeps the accounting, without the person.
    const { rows } = await app.ctx.pool.query(
      `select p.external_id from redemptions r join participants p on p.id = r.participant_id where r.id = $1`,
      [erased.redemptionId],
    );
    const pseudonym = rows[0].external_id as string;
    expect(pseudonym).toMatch(/^erased_/);
    const doc = (await ws.api(`/v1/participants/${pseudonym}/export`)).body;
    expect(doc.participant).toMatchObject({ external_id: pseudonym, email: null, name: null, phone: null });
    // Every flow on `visit.test` so far awarded it (each seeding added one), then it redeemed.
    expect(doc.ledger.map((e: { source: string }) => e.source)).toContain('redemption');
    expect(doc.redemptions.map((r: { id: number }) => r.id)).toEqual([erased.redemptionId]);
    expect(doc.events[0].payload).toEqual({});
    // Nor any copy of the old id: the reward.redeemed results carry it twice (participant and
    // redemption.participant), and both are scrubbed.
    expect(doc.webhook_deliveries.some((d: { type: string }) => d.type === 'reward.redeemed')).toBe(true);
    expect(JSON.stringify(doc)).not.toContain('to-erase');
  });
});
