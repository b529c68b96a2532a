import { z } from 'zod';
import { generateCodesInput } from '../services/rewards/generate-codes.ts';
import { importCodesInput } from '../services/rewards/import-codes.ts';
import { listRedemptionsInput } from '../services/rewards/list-redemptions.ts';
import { catalogueInput } from '../services/rewards/list-rewards.ts';
import type { CatalogueRewardDto, RedemptionDto, RewardDto } from '../services/rewards/presenters.ts';
import { redeemInput } from '../services/rewards/redeem-reward.ts';
import { createRewardInput, rewardType, updateRewardInput } from '../services/rewards/reward-input.ts';
import { testFulfilmentInput } from '../services/rewards/test-fulfilment.ts';
import type { OperationDoc } from './openapi.ts';
import { idempotentReplayedHeader, paginated } from './openapi-schemas.ts';

const timestamp = (description: string) =>
  z.string().meta({ format: 'date-time', description, examples: ['2026-11-22T10:00:00.000Z'] });

const TAG = 'Rewards';

export const reward = z
  .object({
    id: z.int(),
    name: z.string(),
    subtitle: z.string().nullable(),
    description: z.string().nullable(),
    image_url: z.string().nullable(),
    type: rewardType,
    cost_points: z.int().min(1),
    active: z.boolean(),
    starts_at: timestamp('Claimable from (null: always).').nullable(),
    ends_at: timestamp('Claimable until, exclusive (null: no end).').nullable(),
    stock: z.int().nullable().meta({ description: 'Units of a non-code reward; null = unlimited.' }),
    stock_remaining: z
      .int()
      .nullable()
      .meta({
        description:
          'Live stock: for a code-backed reward (voucher_code, or digital_asset with a pool) its unredeemed ' +
          'codes; else the units left, null when unlimited.',
      }),
    is_claimable: z.boolean().meta({ description: 'Active, inside its window, not archived and in stock.' }),
    config: z.record(z.string(), z.unknown()).meta({
      description:
        'By type (see `RewardType`). An external reward’s header values are shown as `[redacted]` to keys without `rewards:write`.',
    }),
    created_at: timestamp('Creation time.'),
    updated_at: timestamp('Last change.'),
  })
  .meta({ id: 'Reward' });

export const catalogueReward = reward
  .extend({
    can_afford: z.boolean().meta({ description: "The participant's balance covers `cost_points`." }),
  })
  .meta({ id: 'CatalogueReward' });

export const redemption = z
  .object({
    id: z.int(),
    reward_id: z.int(),
    participant: z.object({ external_id: z.string() }),
    status: z.enum(['pending', 'fulfilled', 'cancelled']),
    fulfilment: z
      .object({
        type: rewardType,
        code: z.string().optional().meta({ description: 'The voucher, pool or external code.' }),
        url: z.string().optional().meta({ description: 'A digital asset’s URL from its config.' }),
        multiplier: z
          .object({ factor: z.number(), expires_at: timestamp('When the perk stops applying.') })
          .optional(),
      })
      .meta({ description: 'What was handed out (CONTRACT 8).' }),
    cost_points: z.int().meta({ description: 'Points debited.' }),
    idempotency_key: z.string().nullable(),
    is_sandbox: z.boolean().meta({ description: 'Made with a `svc_test_` key.' }),
    created_at: timestamp('When it was made.'),
    updated_at: timestamp('Last status change.'),
  })
  .meta({ id: 'Redemption' });

const importResult = z
  .object({
    imported: z.int().min(0),
    skipped_duplicates: z
      .int()
      .min(0)
      .meta({ description: 'Codes already in the pool or repeated in the input.' }),
    stock_remaining: z.int().min(0),
  })
  .meta({ id: 'CodeImportResult' });

const fulfilmentCall = z
  .object({
    ok: z.boolean(),
    status_code: z.int().nullable().meta({ description: 'Null when no response came back.' }),
    code: z.string().nullable().meta({ description: 'The string found at `code_path`.' }),
    response_snippet: z.string().nullable().meta({ description: 'At most the first 1 KiB of the answer.' }),
    error: z.string().nullable(),
  })
  .meta({ id: 'FulfilmentTestResult' });

const idParam = (what: string) =>
  z.object({
    id: z
      .int()
      .positive()
      .meta({ param: { description: `The ${what} id. An unknown id is a 404.` } }),
  });

const idempotencyHeader = z.object({
  'Idempotency-Key': z
    .string()
    .min(1)
    .max(255)
    .optional()
    .meta({ param: { description: 'Same as the body `idempotency_key`, and wins over it.' } }),
});

const REDEEM_DESCRIPTION =
  'Validates and changes balance and stock in one transaction: concurrent redemptions never oversell ' +
  'stock, hand out a code twice or overdraw a balance. Checks in this order: unknown participant or reward ' +
  '(404, the participant is not created) → `reward_unavailable` → `out_of_stock` → `insufficient_points` ' +
  '(with `balance` and `cost_points`). `physical` starts `pending`; code-backed, digital-asset and ' +
  'multiplier rewards are `fulfilled` at once. For an `external` reward the debit commits first, then ' +
  'the endpoint is called through the egress guard; on failure the redemption is cancelled, the debit ' +
  'reversed, the stock restored and the answer is 422 `external_fulfilment_failed` (with `redemption_id`). ' +
  'Idempotency: the first call answers 201; a retry with the same key answers 200 with the original ' +
  'redemption (or its original failure) and `Idempotent-Replayed: true`; concurrent duplicates charge once.';

export const rewardsOperations: OperationDoc[] = [
  {
    method: 'get',
    path: '/v1/rewards',
    operationId: 'listRewards',
    tag: TAG,
    summary: 'The rewards catalogue',
    description: 'Active, unarchived rewards of the key’s workspace and mode, oldest first (not paginated).',
    auth: 'key',
    params: { query: catalogueInput },
    success: { status: '200', description: 'The catalogue.', schema: z.object({ data: z.array(reward) }) },
  },
  {
    method: 'post',
    path: '/v1/rewards',
    operationId: 'createReward',
    tag: TAG,
    summary: 'Create a reward',
    description:
      'An external reward’s `endpoint_url` must pass the egress guard (else 422 on `config.endpoint_url`).',
    auth: 'rewards:write',
    body: { schema: createRewardInput },
    success: { status: '201', description: 'Created.', schema: reward },
  },
  {
    method: 'get',
    path: '/v1/rewards/{id}',
    operationId: 'getReward',
    tag: TAG,
    summary: 'Show a reward',
    description: 'Archived rewards too, so redemption history can name them.',
    auth: 'key',
    params: { path: idParam('reward') },
    success: { status: '200', description: 'The reward.', schema: reward },
    errors: ['not_found'],
  },
  {
    method: 'patch',
    path: '/v1/rewards/{id}',
    operationId: 'updateReward',
    tag: TAG,
    summary: 'Change a reward',
    description:
      'Replaces the given fields; `type` cannot change. A new `stock` moves `stock_remaining` by the same ' +
      'difference (from unlimited it starts at the new stock).',
    auth: 'rewards:write',
    params: { path: idParam('reward') },
    body: { schema: updateRewardInput },
    success: { status: '200', description: 'The reward.', schema: reward },
    errors: ['not_found'],
  },
  {
    method: 'delete',
    path: '/v1/rewards/{id}',
    operationId: 'archiveReward',
    tag: TAG,
    summary: 'Archive a reward',
    description:
      'It leaves the catalogue and cannot be redeemed; its redemptions stay; its name is free again.',
    auth: 'rewards:write',
    params: { path: idParam('reward') },
    success: { status: '200', description: 'The archived reward.', schema: reward },
    errors: ['not_found'],
  },
  {
    method: 'post',
    path: '/v1/rewards/{id}/codes',
    operationId: 'importRewardCodes',
    tag: TAG,
    summary: 'Import codes into a reward’s pool',
    description:
      'For `voucher_code` and `digital_asset` rewards. JSON `{ codes: [...] }`, or a `text/plain` body ' +
      '(one code per line) or a `text/csv` body (RFC 4180, quoted fields allowed, first column used; a ' +
      'first row reading `code` is a header). Whitespace is trimmed, blank lines ignored, and codes already ' +
      'in the pool or repeated are skipped and counted. At most 200,000 codes and 16 MiB per request; ' +
      'all or nothing.',
    auth: 'rewards:write',
    params: { path: idParam('reward') },
    body: {
      schema: importCodesInput,
      alternatives: {
        'text/plain': z.string().meta({ examples: ['SUMMER-001\nSUMMER-002\n'] }),
        'text/csv': z.string().meta({ examples: ['code,batch\n"SUMMER-001",A\nSUMMER-002,A\n'] }),
      },
    },
    success: { status: '200', description: 'What was imported.', schema: importResult },
    errors: ['not_found'],
  },
  {
    method: 'post',
    path: '/v1/rewards/{id}/codes/generate',
    operationId: 'generateRewardCodes',
    tag: TAG,
    summary: 'Generate codes into a reward’s pool',
    description:
      '`prefix` + `length` characters drawn uniformly by a CSPRNG from `23456789ABCDEFGHJKMNPQRSTUVWXYZ` ' +
      '(no 0/O, 1/I/L look-alikes). A draw that collides with a code already in the pool is drawn again, so ' +
      'exactly `count` new codes are added.',
    auth: 'rewards:write',
    params: { path: idParam('reward') },
    body: { schema: generateCodesInput },
    success: {
      status: '200',
      description: 'How many were added.',
      schema: z.object({ generated: z.int(), stock_remaining: z.int() }).meta({ id: 'CodeGenerateResult' }),
    },
    errors: ['not_found'],
  },
  {
    method: 'post',
    path: '/v1/rewards/{id}/test-fulfilment',
    operationId: 'testRewardFulfilment',
    tag: TAG,
    summary: 'Test an external reward’s endpoint',
    description:
      'Fires the live request through the egress guard with a sample participant (`test-participant`, ' +
      '`test-participant@example.com`, `Test Participant`) and a fresh `test_…` `{{reference}}`; nothing is ' +
      'debited or stored. Send `config` to try unsaved settings. The outcome is in the body, not the status.',
    auth: 'rewards:write',
    params: { path: idParam('reward') },
    body: { schema: testFulfilmentInput },
    success: { status: '200', description: 'What the endpoint answered.', schema: fulfilmentCall },
    errors: ['not_found'],
  },
  {
    method: 'get',
    path: '/v1/participants/{external_id}/rewards',
    operationId: 'listParticipantRewards',
    tag: TAG,
    summary: 'The catalogue for one participant',
    description: 'Each reward with `can_afford`, and the participant’s spendable `meta.balance`.',
    auth: 'key',
    params: {
      path: z.object({
        external_id: z.string().meta({ param: { description: 'The participant. Unknown → 404.' } }),
      }),
    },
    success: {
      status: '200',
      description: 'The catalogue.',
      schema: z
        .object({ data: z.array(catalogueReward), meta: z.object({ balance: z.int().min(0) }) })
        .meta({ id: 'ParticipantCatalogue' }),
    },
    errors: ['not_found'],
  },
  {
    method: 'post',
    path: '/v1/redemptions',
    operationId: 'createRedemption',
    tag: TAG,
    summary: 'Redeem a reward',
    description: REDEEM_DESCRIPTION,
    auth: 'redemptions:write',
    params: { header: idempotencyHeader },
    body: { schema: redeemInput },
    success: {
      status: '201',
      description: 'Redeemed (a replay answers 200 with the original redemption).',
      schema: redemption,
      headers: { 'Idempotent-Replayed': idempotentReplayedHeader },
    },
    errors: [
      'not_found',
      'idempotency_conflict',
      'reward_unavailable',
      'out_of_stock',
      'insufficient_points',
      'external_fulfilment_failed',
    ],
  },
  {
    method: 'get',
    path: '/v1/redemptions',
    operationId: 'listRedemptions',
    tag: TAG,
    summary: 'List redemptions',
    description: 'Newest first; filters are carried into the links.',
    auth: 'participants:read',
    params: { query: listRedemptionsInput },
    success: {
      status: '200',
      description: 'A page of redemptions.',
      schema: paginated(redemption, 'Redemption'),
    },
  },
  {
    method: 'get',
    path: '/v1/redemptions/{id}',
    operationId: 'getRedemption',
    tag: TAG,
    summary: 'Show a redemption',
    auth: 'participants:read',
    params: { path: idParam('redemption') },
    success: { status: '200', description: 'The redemption.', schema: redemption },
    errors: ['not_found'],
  },
  {
    method: 'post',
    path: '/v1/redemptions/{id}/fulfil',
    operationId: 'fulfilRedemption',
    tag: TAG,
    summary: 'Mark a physical redemption fulfilled',
    description: '`pending` → `fulfilled`. Any other move (or another type) is 409 `invalid_state`.',
    auth: 'rewards:write',
    params: { path: idParam('redemption') },
    success: { status: '200', description: 'The redemption.', schema: redemption },
    errors: ['not_found', 'invalid_state'],
  },
  {
    method: 'post',
    path: '/v1/redemptions/{id}/cancel',
    operationId: 'cancelRedemption',
    tag: TAG,
    summary: 'Cancel a physical redemption',
    description:
      '`pending` → `cancelled`: the points come back by a reversal ledger entry that references the debit, ' +
      'and the stock unit is restored. Any other move is 409 `invalid_state`.',
    auth: 'rewards:write',
    params: { path: idParam('redemption') },
    success: { status: '200', description: 'The redemption.', schema: redemption },
    errors: ['not_found', 'invalid_state'],
  },
];

// A presenter field added or removed fails typecheck here until the schemas above follow.
type SameKeys<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false;
type Expect<T extends true> = T;
export type RewardPresentersDocumented = [
  Expect<SameKeys<z.output<typeof reward>, RewardDto>>,
  Expect<SameKeys<z.output<typeof catalogueReward>, CatalogueRewardDto>>,
  Expect<SameKeys<z.output<typeof redemption>, RedemptionDto>>,
];
