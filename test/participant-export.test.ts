import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mode } from '../src/services/keys/principal.ts';
import { exportParticipant } from '../src/services/participants/export-participant.ts';
import { EXPORT_SECTIONS, participantExportShape } from '../src/services/participants/shapes.ts';
import { runReferralTick } from '../src/services/referrals/tick.ts';
import { runTierTick } from '../src/services/tiers/tick.ts';
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

/** Sends one event and waits for it to be processed; its id. */
async function send(ws: TestWorkspace, participant: string | Record<string, unknown>, type: string) {
  const r = await ws.api('/v1/events', { body: { event_type: type, participant, payload: {} } });
  expect(r.status, r.text).toBe(202);
  const id = r.body.event_id as string;
  await eventually(async () => (await ws.api(`/v1/events/${id}`)).body.status === 'processed', 15_000);
  return id;
}

/** `advocate`'s code (made by its REST read), and a friend the code's event creates; the referral. */
async function refer(ws: TestWorkspace, advocate: string, friend: string) {
  const code = await ws.api(`/v1/participants/${advocate}/referral-code`);
  expect(code.status, code.text).toBe(200);
  await send(ws, { external_id: friend, referral_code: code.body.code }, 'signed_up');
  const list = await ws.api(`/v1/referrals?advocate=${advocate}`);
  const referral = list.body.data.find(
    (r: { friend: { external_id: string } }) => r.friend.external_id === friend,
  );
  expect(referral, list.text).toBeTruthy();
  return referral as { id: string; code: string };
}

/**
 * The newer mechanics of `ws`'s test mode, set before any event feeds them: a daily streak and a
 * badge with criteria on the seeded `visit.test` events, a referral programme whose advocate
 * reward stays pending for 14 days, and a tier programme.
 */
async function setUpMechanics(ws: TestWorkspace) {
  const streak = await ws.api('/v1/streaks', {
    body: { key: 'daily-visit', name: 'Daily visit', event_types: ['visit.test'], frequency: 'daily' },
  });
  expect(streak.status, streak.text).toBe(201);
  const badge = await ws.api('/v1/badges', {
    body: {
      key: 'regular',
      name: 'Regular',
      criteria: { event_type: 'visit.test', aggregate: 'count', window: 'all_time', target: 3 },
    },
  });
  expect([200, 201], badge.text).toContain(badge.status);
  const referrals = await ws.api('/v1/referrals/program', {
    method: 'PUT',
    body: {
      qualifying_event_type: 'order.done',
      qualify_within: 'P30D',
      hold: 'P14D',
      friend_actions: [{ type: 'award_points', points: 50 }],
      advocate_actions: [{ type: 'award_points', points: 120 }],
    },
  });
  expect(referrals.status, referrals.text).toBe(200);
  const tiers = await ws.api('/v1/tiers', {
    method: 'PUT',
    body: {
      qualification: { window: 'lifetime' },
      downgrade: { policy: 'none' },
      levels: [
        { key: 'bronze', name: 'Bronze', threshold: 0 },
        { key: 'silver', name: 'Silver', threshold: 100 },
        { key: 'gold', name: 'Gold', threshold: 1000 },
      ],
    },
  });
  expect(tiers.status, tiers.text).toBe(200);
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
  // P refers F, F refers G: F is a friend and an advocate.
  const F = 'friend-1';
  const G = 'friend-2';
  let referralPF: { id: string; code: string };
  let referralFG: { id: string; code: string };

  beforeAll(async () => {
    app = await startTestApp();
    ws = await app.workspace();
    other = await app.workspace();
    // Test mode: deliveries are recorded `simulated`, never POSTed, and name their participant.
    await buildSubscription(ws, { mode: 'test' });
    await buildSubscription(ws, { mode: 'live' });
    await buildSubscription(other, { mode: 'test' });
    await setUpMechanics(ws);
    seeded = await seedEverything(app, ws, 'test', P, 'CODE-P');
    // F qualifies: its points at once, P's held 14 days as a pending grant (the referral job
    // writes it; run here rather than waiting for the app's tick).
    referralPF = await refer(ws, P, F);
    await send(ws, F, 'order.done');
    await eventually(async () => {
      await runReferralTick(app.ctx);
      return (await ws.api(`/v1/participants/${P}/pending-points`)).body.data.length > 0;
    });
    referralFG = await refer(ws, F, G);
    // The tier programme applied by its job (no later walk moves P), then P moved up by hand.
    await eventually(async () => {
      await runTierTick(app.ctx);
      const { rows } = await app.ctx.pool.query(
        `select applied_version >= version as done from tier_programs where workspace_id = $1 and mode = 'test'`,
        [ws.id],
      );
      return rows[0]?.done === true;
    });
    const manual = await ws.api(`/v1/participants/${P}/tier`, {
      method: 'PUT',
      body: { key: 'gold', reason: 'Moved up by hand' },
    });
    expect(manual.status, manual.text).toBe(200);
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

  it('holds the newer mechanics, each section as its own REST read answers it', async () => {
    const doc = participantExportShape.parse((await ws.api(`/v1/participants/${P}/export`)).body);
    const read = async (path: string) => {
      const r = await ws.api(`/v1/participants/${P}/${path}`);
      expect(r.status, r.text).toBe(200);
      return r.body;
    };

    // Points: the open lots as …/points lists them, the referral's grant as …/pending-points.
    const points = await read('points');
    expect(doc.points_lots).toEqual(points.lots);
    expect(doc.points_lots.reduce((sum, l) => sum + l.remaining, 0)).toBe(doc.participant.balance);
    expect(doc.pending_grants).toEqual((await read('pending-points')).data);
    expect(doc.pending_grants).toMatchObject([
      { points: 120, status: 'pending', participant: { external_id: P } },
    ]);
    expect(doc.participant.pending_points).toBe(120);

    // The streak its visit extended, and its progress toward the criteria badge.
    expect(doc.streaks).toEqual((await read('streaks')).data);
    expect(doc.streaks).toMatchObject([{ key: 'daily-visit', length: 1, extended_this_period: true }]);
    expect(doc.achievements).toEqual((await read('achievements')).data);
    expect(doc.achievements).toEqual([
      {
        badge: { key: 'regular', tier: null, name: 'Regular' },
        progress: 1,
        target: 3,
        percent: 33,
        completed_at: null,
      },
    ]);

    // Its tier moves, newest first (the current tier is on the participant).
    expect(doc.tier_history).toEqual((await read('tier-history?limit=200')).data);
    expect(doc.tier_history.map((m) => `${m.from?.key}>${m.to?.key}:${m.reason}`)).toEqual([
      'silver>gold:manual',
      'bronze>silver:qualified',
    ]);
    expect(doc.tier_history[0]).toMatchObject({
      to: { key: 'gold' },
      reason: 'manual',
      note: 'Moved up by hand',
    });
    expect(doc.participant.tier).toMatchObject({ key: 'gold' });

    // The referral it made, as GET /v1/referrals/{id} shows it, and its code.
    const referral = await ws.api(`/v1/referrals/${referralPF.id}`);
    expect(doc.referrals).toEqual([referral.body]);
    expect(doc.referrals[0]).toMatchObject({ advocate: { external_id: P }, friend: { external_id: F } });
    expect(doc.referral_code).toEqual(await read('referral-code'));
    expect(doc.referral_code!.code).toBe(referralPF.code);
  });

  it('a friend’s export holds its referrals on both sides, and no more of its advocate than the referral shows', async () => {
    const doc = participantExportShape.parse((await ws.api(`/v1/participants/${F}/export`)).body);
    // Newest first: the one F made, then the one that brought F.
    const shown = await Promise.all(
      [referralFG, referralPF].map(async (r) => (await ws.api(`/v1/referrals/${r.id}`)).body),
    );
    expect(doc.referrals).toEqual(shown);
    expect(doc.referrals.map((r) => [r.advocate.external_id, r.friend.external_id])).toEqual([
      [F, G],
      [P, F],
    ]);
    expect(doc.referrals[1]!.status).toBe('qualified');
    expect(doc.referral_code).toEqual({ code: referralFG.code });
    // P is named by its external id (in the referral) and nothing else of P's is there.
    const text = JSON.stringify(doc);
    for (const pii of [`${P}@example.com`, `Name of ${P}`, 'CODE-P', seeded.eventId])
      expect(text).not.toContain(pii);
    expect(doc.pending_grants).toEqual([]);
    expect(doc.ledger.map((e) => e.points)).toEqual([50]);
  });

  it('never makes a referral code: one never made is null, and stays unmade', async () => {
    const codes = () =>
      app.ctx.pool.query(
        `select c.code from referral_codes c join participants p on p.id = c.participant_id
          where p.workspace_id = $1 and p.mode = 'test' and p.external_id = 'neighbour'`,
        [ws.id],
      );
    const doc = (await ws.api('/v1/participants/neighbour/export')).body;
    expect(doc.referral_code).toBeNull();
    expect(doc.referrals).toEqual([]);
    expect((await codes()).rows).toEqual([]);
  });

  it('cuts each section at its limit and says which were cut', async () => {
    const who = { workspaceId: ws.id, mode: 'test' as const };
    const full = await exportParticipant(app.ctx, who, P);
    const doc = await exportParticipant(app.ctx, who, P, 1);
    expect(doc.limit).toBe(1);
    for (const s of EXPORT_SECTIONS) expect(doc[s], s).toEqual(full[s].slice(0, 1));
    expect(doc.truncated).toEqual(EXPORT_SECTIONS.filter((s) => full[s].length > 1));
    // Two credits left open lots (the funding and the award), two tier moves (its
    // funding qualified it for silver, then gold by hand).
    expect(doc.truncated).toEqual(['ledger', 'points_lots', 'tier_history', 'webhook_deliveries']);
    // The newest item is the one kept; lots: the first to be consumed.
    const ledger = await ws.api(`/v1/participants/${P}/ledger?limit=1`);
    expect(doc.ledger).toEqual(ledger.body.data);
    const points = await ws.api(`/v1/participants/${P}/points`);
    expect(doc.points_lots).toEqual(points.body.lots.slice(0, 1));
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
    const referral = await refer(ws, 'to-erase', 'friend-of-erased');
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
    // Its referral names the pseudonym, its code is gone, the streak and progress stay.
    expect(doc.referrals.map((r: { id: string }) => r.id)).toEqual([referral.id]);
    expect(doc.referrals[0].advocate.external_id).toBe(pseudonym);
    expect(doc.referral_code).toBeNull();
    expect(doc.streaks.map((s: { key: string }) => s.key)).toEqual(['daily-visit']);
    expect(doc.achievements.map((a: { badge: { key: string } }) => a.badge.key)).toEqual(['regular']);
    // The friend's export names the advocate by the pseudonym only.
    const friend = (await ws.api('/v1/participants/friend-of-erased/export')).body;
    expect(friend.referrals[0].advocate.external_id).toBe(pseudonym);
    expect(JSON.stringify(friend)).not.toContain('to-erase');
  });
});
