import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GraphQLObjectType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../src/rest/openapi.ts';
import { schema } from '../src/schema/schema.ts';
import { graphqlClient } from './factories.ts';
import { type ApiResponse, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

/**
 * Every REST operation (by its operationId) and the GraphQL root field over the same service
 * (CONTRACT 12: everything REST can do, GraphQL can do).
 */
const GRAPHQL_FIELD: Record<string, `${'Query' | 'Mutation'}.${string}`> = {
  // events
  createEvent: 'Mutation.ingestEvent',
  listEvents: 'Query.events',
  getEvent: 'Query.event',
  createEventBatch: 'Mutation.ingestEventBatch',
  replayEvent: 'Mutation.replayEvent',
  replayEvents: 'Mutation.replayEvents',
  simulateEvent: 'Mutation.simulateEvent',
  // event types and ingest endpoints
  listEventTypes: 'Query.eventTypes',
  putEventTypeSchema: 'Mutation.putEventTypeSchema',
  dropEventTypeSchema: 'Mutation.dropEventTypeSchema',
  createIngestEndpoint: 'Mutation.createIngestEndpoint',
  listIngestEndpoints: 'Query.ingestEndpoints',
  getIngestEndpoint: 'Query.ingestEndpoint',
  deleteIngestEndpoint: 'Mutation.deleteIngestEndpoint',
  // message templates and messages
  createMessageTemplate: 'Mutation.createMessageTemplate',
  listMessageTemplates: 'Query.messageTemplates',
  getMessageTemplate: 'Query.messageTemplate',
  updateMessageTemplate: 'Mutation.updateMessageTemplate',
  deleteMessageTemplate: 'Mutation.deleteMessageTemplate',
  listMessages: 'Query.messages',
  getMessage: 'Query.message',
  // flows, flow runs, badges
  createFlow: 'Mutation.createFlow',
  listFlows: 'Query.flows',
  getFlow: 'Query.flow',
  updateFlow: 'Mutation.updateFlow',
  deleteFlow: 'Mutation.deleteFlow',
  listFlowRuns: 'Query.flowRuns',
  getFlowRun: 'Query.flowRun',
  listBadges: 'Query.badges',
  defineBadge: 'Mutation.defineBadge',
  // webhooks
  createWebhookSubscription: 'Mutation.createWebhookSubscription',
  listWebhookSubscriptions: 'Query.webhookSubscriptions',
  getWebhookSubscription: 'Query.webhookSubscription',
  updateWebhookSubscription: 'Mutation.updateWebhookSubscription',
  deleteWebhookSubscription: 'Mutation.deleteWebhookSubscription',
  testWebhookSubscription: 'Mutation.testWebhookSubscription',
  listWebhookDeliveries: 'Query.webhookDeliveries',
  getWebhookDelivery: 'Query.webhookDelivery',
  replayWebhookDelivery: 'Mutation.replayWebhookDelivery',
  rotateWebhookSecret: 'Mutation.rotateWebhookSecret',
  recoverWebhookDeliveries: 'Mutation.recoverWebhookDeliveries',
  listWebhookEventTypes: 'Query.webhookEventTypes',
  // participants
  listParticipants: 'Query.participants',
  getParticipant: 'Query.participant',
  updateParticipant: 'Mutation.updateParticipant',
  eraseParticipant: 'Mutation.eraseParticipant',
  exportParticipant: 'Query.participantExport',
  getParticipantPoints: 'Query.participant', // Participant.points
  listParticipantPendingPoints: 'Query.participant', // Participant.pendingGrants
  activatePendingPoints: 'Mutation.activatePendingPoints',
  cancelPendingPoints: 'Mutation.cancelPendingPoints',
  getProgram: 'Query.program',
  updateProgram: 'Mutation.updateProgram',
  // tiers
  getTiers: 'Query.tiers',
  putTiers: 'Mutation.putTiers',
  deleteTiers: 'Mutation.deleteTiers',
  previewTiers: 'Mutation.previewTiers',
  listParticipantTierHistory: 'Query.participant', // Participant.tierHistory
  setParticipantTier: 'Mutation.setParticipantTier',
  // streaks
  listStreaks: 'Query.streaks',
  createStreak: 'Mutation.createStreak',
  getStreak: 'Query.streak',
  updateStreak: 'Mutation.updateStreak',
  archiveStreak: 'Mutation.archiveStreak',
  listParticipantStreaks: 'Query.participant', // Participant.streaks
  // referrals
  getReferralProgram: 'Query.referralProgram',
  putReferralProgram: 'Mutation.putReferralProgram',
  listReferrals: 'Query.referrals',
  getReferral: 'Query.referral',
  cancelReferral: 'Mutation.cancelReferral',
  getParticipantReferralCode: 'Query.participant', // Participant.referralCode
  // achievements
  listParticipantAchievements: 'Query.participant', // Participant.achievements
  backfillBadge: 'Mutation.backfillBadge',
  getParticipantSummary: 'Query.participant', // Participant.summary
  listParticipantLedger: 'Query.participant', // Participant.ledger
  listParticipantBadges: 'Query.participant', // Participant.badges
  adjustPoints: 'Mutation.adjustPoints',
  reverseLedgerEntry: 'Mutation.reverseLedgerEntry',
  mintParticipantToken: 'Mutation.mintParticipantToken',
  // leaderboards
  listLeaderboards: 'Query.leaderboards',
  createLeaderboard: 'Mutation.createLeaderboard',
  getLeaderboard: 'Query.leaderboard', // Leaderboard.top
  getLeaderboardStanding: 'Query.leaderboard', // Leaderboard.standing
  // rewards and redemptions
  createRedemption: 'Mutation.redeem',
  listRewards: 'Query.rewards',
  createReward: 'Mutation.createReward',
  getReward: 'Query.reward',
  updateReward: 'Mutation.updateReward',
  archiveReward: 'Mutation.archiveReward',
  importRewardCodes: 'Mutation.importRewardCodes',
  generateRewardCodes: 'Mutation.generateRewardCodes',
  testRewardFulfilment: 'Mutation.testRewardFulfilment',
  listParticipantRewards: 'Query.rewards', // rewards(participant:), with canAfford
  listRedemptions: 'Query.redemptions',
  getRedemption: 'Query.redemption',
  fulfilRedemption: 'Mutation.fulfilRedemption',
  cancelRedemption: 'Mutation.cancelRedemption',
  // exports
  createExport: 'Mutation.createExport',
  listExports: 'Query.exports',
  getExport: 'Query.export',
};

/** Operations that are no GraphQL operation, and why. */
const EXEMPT: Record<string, string> = {
  healthz: 'process liveness probe for orchestrators, not workspace data',
  readyz: 'process readiness probe for orchestrators, not workspace data',
  metrics: 'Prometheus scrape endpoint, not workspace data',
  getOpenApiDocument: 'the REST door’s own description; GraphQL has introspection and schema.graphql',
  ingestEvent:
    'POST /v1/ingest/{key} authenticates by an ingest endpoint key and an HMAC of the raw body, which a ' +
    'GraphQL request cannot carry; GraphQL callers record events with Mutation.ingestEvent and an API key',
  downloadExport:
    'GET /v1/exports/{id}/download streams a file (CSV or JSON Lines), which is no GraphQL value; ' +
    'Export.downloadUrl is the signed URL of the same file',
};

/** A root field's nested field that serves the operation (for reads REST splits into several calls). */
const NESTED: Record<string, [type: string, field: string]> = {
  getParticipantSummary: ['Participant', 'summary'],
  getParticipantPoints: ['Participant', 'points'],
  listParticipantPendingPoints: ['Participant', 'pendingGrants'],
  listParticipantTierHistory: ['Participant', 'tierHistory'],
  listParticipantStreaks: ['Participant', 'streaks'],
  listParticipantAchievements: ['Participant', 'achievements'],
  getParticipantReferralCode: ['Participant', 'referralCode'],
  listParticipantLedger: ['Participant', 'ledger'],
  listParticipantBadges: ['Participant', 'badges'],
  getLeaderboard: ['Leaderboard', 'top'],
  getLeaderboardStanding: ['Leaderboard', 'standing'],
};

describe('GraphQL covers every REST operation', () => {
  it('has a GraphQL field for each operation in OPERATIONS, or an exemption with its reason', () => {
    const missing: string[] = [];
    for (const op of OPERATIONS) {
      if (op.operationId in EXEMPT) continue;
      const target = GRAPHQL_FIELD[op.operationId];
      if (!target) {
        missing.push(
          `${op.operationId} (${op.method.toUpperCase()} ${op.path}) has no GraphQL field: add one in ` +
            'src/schema/ over the same service and ability, then map it in GRAPHQL_FIELD of ' +
            'test/graphql-coverage.test.ts (or, if it truly is no GraphQL operation, list it in EXEMPT with the reason)',
        );
        continue;
      }
      const [typeName, fieldName] = target.split('.') as [string, string];
      const root = schema.getType(typeName) as GraphQLObjectType | undefined;
      if (!root?.getFields()[fieldName]) missing.push(`${op.operationId}: ${target} is not in the schema`);
      const nested = NESTED[op.operationId];
      if (nested) {
        const type = schema.getType(nested[0]) as GraphQLObjectType | undefined;
        if (!type?.getFields()[nested[1]])
          missing.push(`${op.operationId}: ${nested.join('.')} is not in the schema`);
      }
    }
    expect(missing, missing.join('\n')).toEqual([]);
  });

  it('guards each field with the ability of its operation (else it opens to more keys than REST)', () => {
    const mismatched: string[] = [];
    for (const op of OPERATIONS) {
      const target = GRAPHQL_FIELD[op.operationId];
      if (!target || NESTED[op.operationId]) continue;
      const [typeName, fieldName] = target.split('.') as [string, string];
      const field = (schema.getType(typeName) as GraphQLObjectType).getFields()[fieldName]!;
      const scopes = (field.extensions as { pothosOptions?: { authScopes?: unknown } }).pothosOptions
        ?.authScopes;
      // A function decides per caller (participant tokens, SPEC 5.2); test/graphql.test.ts covers those.
      if (typeof scopes === 'function') continue;
      const expected = op.auth === 'key' ? { anyKey: true } : { ability: op.auth };
      // `apiKey` is `anyKey` without participant tokens: no more callers than REST's.
      const narrower = op.auth === 'key' && JSON.stringify(scopes) === JSON.stringify({ apiKey: true });
      if (!narrower && JSON.stringify(scopes) !== JSON.stringify(expected))
        mismatched.push(
          `${target} (${op.operationId}): ${JSON.stringify(scopes)}, REST asks ${JSON.stringify(expected)}`,
        );
    }
    expect(mismatched, mismatched.join('\n')).toEqual([]);
  });

  it('maps and exempts only operations that exist', () => {
    const ids = new Set(OPERATIONS.map((op) => op.operationId));
    const stale = [...Object.keys(GRAPHQL_FIELD), ...Object.keys(EXEMPT)].filter((id) => !ids.has(id));
    expect(stale).toEqual([]);
    expect(Object.keys(GRAPHQL_FIELD).filter((id) => id in EXEMPT)).toEqual([]);
  });
});

describe('the new mutations over HTTP', () => {
  let app: TestApp;
  let w: TestWorkspace;
  let gql: ReturnType<typeof graphqlClient>;

  beforeAll(async () => {
    app = await startTestApp();
    w = await app.workspace();
    gql = graphqlClient(app, w);
  });
  afterAll(() => app?.close());

  const firstError = (res: ApiResponse) => {
    expect(res.body.errors?.length, res.text).toBeGreaterThan(0);
    return res.body.errors[0] as { message: string; extensions: Record<string, any> };
  };

  it('creates, reads, changes and deletes a flow', async () => {
    const { createFlow } = await gql.data<any>(
      `mutation ($input: CreateFlowInput!) {
        createFlow(input: $input) { id name eventType conditions actions active maxRunsPerParticipant }
      }`,
      {
        input: {
          name: 'Order points',
          eventType: 'order.completed',
          conditions: { '>': [{ var: 'payload.total' }, 10] },
          actions: [{ type: 'award_points', points: 5 }],
          maxRunsPerParticipant: 3,
        },
      },
    );
    expect(createFlow).toMatchObject({
      name: 'Order points',
      eventType: 'order.completed',
      actions: [{ type: 'award_points', points: 5 }],
      active: true,
      maxRunsPerParticipant: 3,
    });
    // The same object REST answers.
    const rest = await w.api(`/v1/flows/${createFlow.id}`);
    expect(rest.body).toMatchObject({ id: createFlow.id, max_runs_per_participant: 3 });

    const { updateFlow } = await gql.data<any>(
      `mutation ($id: ID!, $input: UpdateFlowInput!) {
        updateFlow(id: $id, input: $input) { id name active conditions maxRunsPerParticipant }
      }`,
      { id: createFlow.id, input: { name: 'Renamed', active: false, conditions: null } },
    );
    expect(updateFlow).toMatchObject({
      name: 'Renamed',
      active: false,
      conditions: null,
      maxRunsPerParticipant: 3,
    });

    const { flows } = await gql.data<any>(`{ flows(first: 10) { nodes { id name } } }`);
    expect(flows.nodes).toEqual([{ id: createFlow.id, name: 'Renamed' }]);

    const { deleteFlow } = await gql.data<any>(`mutation ($id: ID!) { deleteFlow(id: $id) { id deleted } }`, {
      id: createFlow.id,
    });
    expect(deleteFlow).toEqual({ id: createFlow.id, deleted: true });
    expect(
      (await gql.data<any>(`query ($id: ID!) { flow(id: $id) { id } }`, { id: createFlow.id })).flow,
    ).toBe(null);

    // A bad action is the service's validation_error, named in the caller's terms.
    const bad = await gql(`mutation ($input: CreateFlowInput!) { createFlow(input: $input) { id } }`, {
      input: { name: 'x', eventType: 'a', actions: [] },
    });
    expect(firstError(bad).extensions.code).toBe('validation_error');
  });

  it('creates, changes and deletes a message template', async () => {
    const { createMessageTemplate } = await gql.data<any>(
      `mutation ($input: CreateMessageTemplateInput!) {
        createMessageTemplate(input: $input) { id key channel subject body }
      }`,
      { input: { key: 'welcome', channel: 'email', subject: 'Hi', body: 'Hello {{participant.name}}' } },
    );
    expect(createMessageTemplate).toMatchObject({ key: 'welcome', channel: 'email', subject: 'Hi' });

    const { updateMessageTemplate } = await gql.data<any>(
      `mutation { updateMessageTemplate(key: "welcome", input: { subject: null, body: "Hey" }) { key subject body } }`,
    );
    expect(updateMessageTemplate).toEqual({ key: 'welcome', subject: null, body: 'Hey' });
    expect((await w.api('/v1/message-templates/welcome')).body).toMatchObject({ subject: null, body: 'Hey' });

    const taken = await gql(
      `mutation { createMessageTemplate(input: { key: "welcome", channel: sms, body: "x" }) { id } }`,
    );
    expect(firstError(taken).extensions.code).toBe('validation_error');

    const { deleteMessageTemplate } = await gql.data<any>(
      `mutation { deleteMessageTemplate(key: "welcome") { key deleted } }`,
    );
    expect(deleteMessageTemplate).toEqual({ key: 'welcome', deleted: true });
    const { messageTemplates } = await gql.data<any>(`{ messageTemplates(first: 200) { nodes { key } } }`);
    expect(messageTemplates.nodes).not.toContainEqual({ key: 'welcome' });
    const gone = await gql(`mutation { deleteMessageTemplate(key: "welcome") { key } }`);
    expect(firstError(gone).extensions.code).toBe('not_found');
  });

  it('creates, tests, pauses and deletes a webhook subscription (the secret shown once)', async () => {
    const received: string[] = [];
    const receiver: Server = createServer((req, res) => {
      req.on('data', (chunk) => received.push(String(chunk)));
      req.on('end', () => res.writeHead(204).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const port = (receiver.address() as AddressInfo).port;
    try {
      const { createWebhookSubscription } = await gql.data<any>(
        `mutation ($input: CreateWebhookSubscriptionInput!) {
          createWebhookSubscription(input: $input) {
            secret
            webhookSubscription { id url eventTypes headers description status }
          }
        }`,
        {
          input: {
            url: `http://127.0.0.1:${port}/hook`,
            eventTypes: ['points.changed'],
            headers: { 'X-Team': 'loyalty' },
          },
        },
      );
      const sub = createWebhookSubscription.webhookSubscription;
      expect(createWebhookSubscription.secret).toMatch(/^whsec_/);
      expect(sub).toMatchObject({
        eventTypes: ['points.changed'],
        headers: { 'X-Team': 'loyalty' },
        status: 'ACTIVE',
      });

      const { testWebhookSubscription } = await gql.data<any>(
        `mutation ($id: ID!) { testWebhookSubscription(id: $id) { ok statusCode durationMs error } }`,
        { id: sub.id },
      );
      expect(testWebhookSubscription).toMatchObject({ ok: true, statusCode: 204, error: null });
      expect(received.join('')).toContain('webhook.test');

      const { updateWebhookSubscription } = await gql.data<any>(
        `mutation ($id: ID!) {
          updateWebhookSubscription(id: $id, input: { status: PAUSED, description: "paused" }) { id status description }
        }`,
        { id: sub.id },
      );
      expect(updateWebhookSubscription).toEqual({ id: sub.id, status: 'PAUSED', description: 'paused' });

      const refused = await gql(
        `mutation ($id: ID!) { updateWebhookSubscription(id: $id, input: { url: "http://10.0.0.1/x" }) { id } }`,
        { id: sub.id },
      );
      expect(firstError(refused).extensions.code).toBe('validation_error');

      const { deleteWebhookSubscription } = await gql.data<any>(
        `mutation ($id: ID!) { deleteWebhookSubscription(id: $id) { id deleted } }`,
        { id: sub.id },
      );
      expect(deleteWebhookSubscription).toEqual({ id: sub.id, deleted: true });
      expect((await w.api(`/v1/webhook-subscriptions/${sub.id}`)).status).toBe(404);
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it('creates a reward, imports and generates codes, and archives it', async () => {
    const { createReward } = await gql.data<any>(
      `mutation ($input: CreateRewardInput!) {
        createReward(input: $input) { id name type costPoints stockRemaining isClaimable }
      }`,
      { input: { name: 'Coffee', type: 'voucher_code', costPoints: 100 } },
    );
    expect(createReward).toMatchObject({
      name: 'Coffee',
      type: 'voucher_code',
      costPoints: 100,
      stockRemaining: 0,
    });

    const { importRewardCodes } = await gql.data<any>(
      `mutation ($id: ID!) {
        importRewardCodes(rewardId: $id, codes: ["A-1", " A-2 ", "A-1"]) { imported skippedDuplicates stockRemaining }
      }`,
      { id: createReward.id },
    );
    expect(importRewardCodes).toEqual({ imported: 2, skippedDuplicates: 1, stockRemaining: 2 });

    const { generateRewardCodes } = await gql.data<any>(
      `mutation ($id: ID!) {
        generateRewardCodes(rewardId: $id, input: { count: 5, prefix: "GQL-", length: 8 }) { generated stockRemaining }
      }`,
      { id: createReward.id },
    );
    expect(generateRewardCodes).toEqual({ generated: 5, stockRemaining: 7 });

    const tooShort = await gql(
      `mutation ($id: ID!) { generateRewardCodes(rewardId: $id, input: { count: 1, length: 2 }) { generated } }`,
      { id: createReward.id },
    );
    expect(firstError(tooShort).extensions.code).toBe('validation_error');

    const { updateReward } = await gql.data<any>(
      `mutation ($id: ID!) { updateReward(id: $id, input: { costPoints: 150, subtitle: "Any size" }) { costPoints subtitle } }`,
      { id: createReward.id },
    );
    expect(updateReward).toEqual({ costPoints: 150, subtitle: 'Any size' });

    const { archiveReward } = await gql.data<any>(
      `mutation ($id: ID!) { archiveReward(id: $id) { id active isClaimable } }`,
      { id: createReward.id },
    );
    expect(archiveReward).toEqual({ id: createReward.id, active: false, isClaimable: false });
  });

  it('gives a reward a minTier, marks the participant’s catalogue tierEligible, and refuses redeem below it', async () => {
    const tiered = await app.workspace();
    const tgql = graphqlClient(app, tiered);
    await tgql.data(`mutation ($input: TierProgrammeInput!) { putTiers(input: $input) { levels { key } } }`, {
      input: {
        qualification: { window: 'lifetime' },
        downgrade: { policy: 'none' },
        levels: [
          { key: 'bronze', name: 'Bronze', threshold: 0 },
          { key: 'gold', name: 'Gold', threshold: 1000 },
        ],
      },
    });
    const { createReward } = await tgql.data<any>(
      `mutation { createReward(input: { name: "Lounge", type: physical, costPoints: 10, stock: 5, minTier: "gold" }) { id minTier } }`,
    );
    expect(createReward.minTier).toBe('gold');
    await tgql.data(
      `mutation { createReward(input: { name: "Mug", type: physical, costPoints: 10 }) { id } }`,
    );
    await tgql.data(`mutation { adjustPoints(externalId: "tina", points: 50, reason: "seed") { replayed } }`);

    const catalogue = async () =>
      (
        await tgql.data<any>(`{ rewards(participant: "tina") { id name minTier canAfford tierEligible } }`)
      ).rewards.map((r: any) => [r.name, r.minTier, r.canAfford, r.tierEligible]);
    expect(await catalogue()).toEqual(
      expect.arrayContaining([
        ['Lounge', 'gold', true, false],
        ['Mug', null, true, true],
      ]),
    );
    // The same as REST's per-participant catalogue.
    const rest = (await tiered.api('/v1/participants/tina/rewards')).body.data;
    expect(rest.map((r: any) => [r.name, r.min_tier, r.tier_eligible]).sort()).toEqual(
      (await catalogue()).map(([name, minTier, , eligible]: unknown[]) => [name, minTier, eligible]).sort(),
    );
    // Without a participant there is no eligibility to tell.
    const plain = await tgql.data<any>(`{ rewards { name minTier tierEligible } }`);
    expect(plain.rewards.find((r: any) => r.name === 'Lounge')).toEqual({
      name: 'Lounge',
      minTier: 'gold',
      tierEligible: null,
    });

    const refused = await tgql(
      `mutation ($rewardId: ID!) { redeem(input: { participant: "tina", rewardId: $rewardId }) { redemption { id } } }`,
      { rewardId: createReward.id },
    );
    expect(firstError(refused).extensions).toMatchObject({ code: 'tier_required', min_tier: 'gold' });

    const unknown = await tgql(
      `mutation ($id: ID!) { updateReward(id: $id, input: { minTier: "platinum" }) { id } }`,
      {
        id: createReward.id,
      },
    );
    expect(firstError(unknown).extensions.code).toBe('validation_error');
    const { updateReward } = await tgql.data<any>(
      `mutation ($id: ID!) { updateReward(id: $id, input: { minTier: null }) { minTier } }`,
      { id: createReward.id },
    );
    expect(updateReward).toEqual({ minTier: null });
    expect(await catalogue()).toContainEqual(['Lounge', null, true, true]);
  });

  it('fulfils a physical redemption, and refuses a second move as invalid_state', async () => {
    const { createReward } = await gql.data<any>(
      `mutation { createReward(input: { name: "Mug", type: physical, costPoints: 10, stock: 3 }) { id } }`,
    );
    await gql.data(`mutation { adjustPoints(externalId: "pat", points: 50, reason: "seed") { replayed } }`);
    const { redeem } = await gql.data<any>(
      `mutation ($rewardId: ID!) { redeem(input: { participant: "pat", rewardId: $rewardId }) { redemption { id status } } }`,
      { rewardId: createReward.id },
    );
    expect(redeem.redemption.status).toBe('pending');

    const { fulfilRedemption } = await gql.data<any>(
      `mutation ($id: ID!) { fulfilRedemption(id: $id) { id status } }`,
      { id: redeem.redemption.id },
    );
    expect(fulfilRedemption).toEqual({ id: redeem.redemption.id, status: 'fulfilled' });

    const again = await gql(`mutation ($id: ID!) { cancelRedemption(id: $id) { id } }`, {
      id: redeem.redemption.id,
    });
    expect(firstError(again).extensions.code).toBe('invalid_state');
  });

  it('manages ingest endpoints (secret once), event-type schemas, badges, leaderboards and participants', async () => {
    const { createIngestEndpoint } = await gql.data<any>(
      `mutation { createIngestEndpoint(input: { name: "Shop", defaultEventType: "order.completed" }) {
        secret ingestEndpoint { id key defaultEventType }
      } }`,
    );
    expect(createIngestEndpoint.secret).toMatch(/^whsec_/);
    const endpointId = createIngestEndpoint.ingestEndpoint.id;
    expect((await gql.data<any>(`{ ingestEndpoints { nodes { id } } }`)).ingestEndpoints.nodes).toEqual([
      { id: endpointId },
    ]);
    expect(
      (
        await gql.data<any>(`mutation ($id: ID!) { deleteIngestEndpoint(id: $id) { deleted } }`, {
          id: endpointId,
        })
      ).deleteIngestEndpoint,
    ).toEqual({ deleted: true });

    const schemaDoc = { type: 'object', required: ['total'] };
    const { putEventTypeSchema } = await gql.data<any>(
      `mutation ($schema: JSON) { putEventTypeSchema(key: "order.completed", schema: $schema) { key schema } }`,
      { schema: schemaDoc },
    );
    expect(putEventTypeSchema).toEqual({ key: 'order.completed', schema: schemaDoc });
    const { dropEventTypeSchema } = await gql.data<any>(
      `mutation { dropEventTypeSchema(key: "order.completed") { key schema } }`,
    );
    expect(dropEventTypeSchema).toEqual({ key: 'order.completed', schema: null });

    const define = `mutation { defineBadge(input: { key: "vip", name: "VIP", tiers: ["gold"] }) { created badge { key name tiers } } }`;
    expect((await gql.data<any>(define)).defineBadge).toEqual({
      created: true,
      badge: { key: 'vip', name: 'VIP', tiers: ['gold'] },
    });
    expect((await gql.data<any>(define)).defineBadge.created).toBe(false);

    const { createLeaderboard } = await gql.data<any>(
      `mutation { createLeaderboard(input: { key: "weekly", name: "This week", period: WEEKLY }) { key period } }`,
    );
    expect(createLeaderboard).toEqual({ key: 'weekly', period: 'WEEKLY' });

    await gql.data(`mutation { adjustPoints(externalId: "ann", points: 5, reason: "seed") { replayed } }`);
    const { updateParticipant } = await gql.data<any>(
      `mutation { updateParticipant(externalId: "ann", input: { email: "ann@example.com", name: "Ann" }) { email name } }`,
    );
    expect(updateParticipant).toEqual({ email: 'ann@example.com', name: 'Ann' });
    const cleared = await gql.data<any>(
      `mutation { updateParticipant(externalId: "ann", input: { name: null }) { email name } }`,
    );
    expect(cleared.updateParticipant).toEqual({ email: 'ann@example.com', name: null });

    const { mintParticipantToken } = await gql.data<any>(
      `mutation { mintParticipantToken(externalId: "ann", ttlSeconds: 120) { token expiresAt } }`,
    );
    expect(mintParticipantToken.token).toMatch(/^svc_pt_/);
    const tooLong = await gql(
      `mutation { mintParticipantToken(externalId: "ann", ttlSeconds: 5) { token } }`,
    );
    expect(firstError(tooLong).extensions).toMatchObject({ code: 'validation_error' });

    const { eraseParticipant } = await gql.data<any>(
      `mutation { eraseParticipant(externalId: "ann") { externalId erased } }`,
    );
    expect(eraseParticipant).toEqual({ externalId: 'ann', erased: true });
    expect((await gql.data<any>(`{ participant(externalId: "ann") { externalId } }`)).participant).toBe(null);
  });

  it('refuses a key without the ability with permission_error, before anything is written', async () => {
    const reader = await app.workspace({ abilities: ['flows:read'] });
    const res = await graphqlClient(
      app,
      reader,
    )(
      `mutation { createFlow(input: { name: "x", eventType: "a", actions: [{ type: "award_points", points: 1 }] }) { id } }`,
    );
    expect(firstError(res).extensions.code).toBe('permission_error');
    expect(res.body.data).toBe(null);
    const { flows } = await graphqlClient(app, reader).data<any>(`{ flows { nodes { id } } }`);
    expect(flows.nodes).toEqual([]);
  });
});
