/**
 * Valid request bodies per operation and hostile values, shared by the sweeps over OPERATIONS
 * (test/hostile-input.test.ts, test/security-*.test.ts). A sweep that finds an operation with a
 * body and no sample here fails, so an operation added later cannot go unswept.
 */

/** Seeded resources a sample may refer to (e.g. `reward`: a reward id to redeem). */
export type SampleIds = Record<string, string>;

/** A URL for samples that need one; nothing listens on the discard port. */
export const SAMPLE_RECEIVER = 'http://127.0.0.1:9/hook';

/** A valid body per operation (by operationId), given the seeded ids. */
export function sampleBodies(ids: SampleIds, receiver = SAMPLE_RECEIVER): Record<string, () => unknown> {
  return {
    createEvent: () => ({
      event_type: 'order.completed',
      participant: { external_id: 'alice' },
      payload: {},
    }),
    createEventBatch: () => ({
      events: [{ event_type: 'order.completed', participant: { external_id: 'alice' }, payload: {} }],
    }),
    replayEvent: () => ({ payload: {} }),
    replayEvents: () => ({}),
    simulateEvent: () => ({
      event: { event_type: 'order.completed', participant: { external_id: 'alice' }, payload: {} },
    }),
    ingestEvent: () => ({
      event_type: 'order.completed',
      participant: { external_id: 'alice' },
      payload: {},
    }),
    putEventTypeSchema: () => ({ schema: { type: 'object' } }),
    createIngestEndpoint: () => ({ name: 'shop', default_event_type: 'order.completed' }),
    createMessageTemplate: () => ({
      key: 'hello',
      channel: 'email',
      subject: 'Hi',
      body: 'Hello {{participant.name}}',
    }),
    updateMessageTemplate: () => ({ subject: 'Hi again', body: 'Hello' }),
    createFlow: () => ({
      name: 'f',
      event_type: 'order.completed',
      actions: [{ type: 'award_points', points: 1, reason: 'r' }],
    }),
    updateFlow: () => ({ name: 'g', actions: [{ type: 'award_badge', badge: 'b', tier: 'gold' }] }),
    defineBadge: () => ({
      key: 'vip',
      name: 'VIP',
      description: 'd',
      image_url: 'https://example.com/i.png',
    }),
    createWebhookSubscription: () => ({
      url: receiver,
      event_types: ['points.changed'],
      headers: { 'X-Team': 'loyalty' },
      description: 'd',
    }),
    updateWebhookSubscription: () => ({ description: 'e', headers: { 'X-Team': 'growth' } }),
    testWebhookSubscription: () => ({}),
    rotateWebhookSecret: () => ({ grace_seconds: 60 }),
    // Within the 14 days a recover reaches back, whenever the sweep runs.
    recoverWebhookDeliveries: () => ({ since: new Date(Date.now() - 3_600_000).toISOString() }),
    updateParticipant: () => ({
      email: 'a@example.com',
      phone: '+15550100',
      name: 'Alice',
      timezone: 'Europe/Paris',
    }),
    updateProgram: () => ({
      timezone: 'Europe/Paris',
      points_expiry: { mode: 'fixed', after: 'P12M', round_to: 'month' },
      earning_caps: [{ period: 'day', max_points: 1000 }],
    }),
    putTiers: () => tierProgrammeSample(),
    previewTiers: () => tierProgrammeSample(),
    setParticipantTier: () => ({ key: 'gold', reason: 'sweep' }),
    createStreak: () => ({
      key: `s-${Math.random().toString(36).slice(2, 10)}`,
      name: 'Daily',
      event_types: ['order.completed'],
      frequency: 'daily',
      freezes: { initial: 1, max: 2, earn_every: 7 },
    }),
    updateStreak: () => ({
      name: 'Every day',
      event_types: ['order.completed', 'app.opened'],
      freezes: { initial: 0, max: 3, earn_every: 5 },
    }),
    backfillBadge: () => ({ dry_run: true }),
    putReferralProgram: () => ({
      qualifying_event_type: 'order.completed',
      qualify_within: 'P30D',
      hold: 'P7D',
      friend_actions: [{ type: 'award_points', points: 10, reason: 'r' }],
      advocate_actions: [{ type: 'award_badge', badge: 'b', tier: 'gold' }],
      advocate_limit: { period: 'month', max: 5 },
      active: true,
    }),
    adjustPoints: () => ({ points: 1, reason: 'sweep' }),
    reverseLedgerEntry: () => ({ reason: 'sweep' }),
    mintParticipantToken: () => ({ ttl_seconds: 600 }),
    createLeaderboard: () => ({ key: 'weekly', name: 'Weekly', period: 'weekly' }),
    createReward: () => ({
      name: `r-${Math.random()}`,
      type: 'physical',
      cost_points: 1,
      description: 'd',
      stock: 5,
    }),
    updateReward: () => ({ subtitle: 's', description: 'd' }),
    importRewardCodes: () => ({ codes: ['A1', 'A2'] }),
    generateRewardCodes: () => ({ count: 2, prefix: 'P' }),
    testRewardFulfilment: () => ({
      config: { endpoint_url: receiver, method: 'POST', headers: { 'X-Api': 'k' }, body: '{}' },
    }),
    createRedemption: () => ({ participant: 'alice', reward_id: Number(ids.reward) }),
    createExport: () => ({ resource: 'ledger', format: 'csv', since: '2026-01-01T00:00:00Z' }),
  };
}

/** A tier programme with every field (its levels `bronze` and `gold`). */
export const tierProgrammeSample = (levelName = 'Gold') => ({
  qualification: { window: 'rolling', duration: 'P12M' },
  downgrade: { policy: 'one_down', grace: 'P30D' },
  levels: [
    { key: 'bronze', name: 'Bronze', threshold: 0, earn_multiplier: 1, description: 'd' },
    { key: 'gold', name: levelName, threshold: 100, earn_multiplier: 1.5 },
  ],
});

/**
 * Hostile path and query values, percent-encoded (a lone surrogate cannot be encoded as UTF-8,
 * so its closest path form is the invalid sequence %ED%A0%80).
 */
export const HOSTILE_IN_URL = [
  '%00',
  'a%00b',
  '%ED%A0%80',
  '%FF',
  'x'.repeat(3000),
  '%E2%80%AE',
  '..%2F..%2F',
];

/** Hostile values for one body field at a time (wrong types, NUL, lone surrogates, huge strings). */
export const HOSTILE_VALUES: unknown[] = [
  'a\u0000b',
  '\uD800',
  'x\uDC00y',
  'y'.repeat(20_000),
  '',
  ' ',
  12345,
  -1,
  true,
  null,
  [],
  {},
  { nested: 'a\u0000' },
];
