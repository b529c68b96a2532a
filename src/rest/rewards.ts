import { z } from 'zod';
import { intId, text } from '../lib/primitives.ts';
import { cancelRedemption, fulfilRedemption } from '../services/rewards/change-redemption.ts';
import { generateCodes, generateCodesInput } from '../services/rewards/generate-codes.ts';
import {
  CODE_IMPORT_MAX_BYTES,
  type ImportCodesInput,
  type ImportCodesTextInput,
  importCodes,
  importCodesInput,
} from '../services/rewards/import-codes.ts';
import {
  getRedemption,
  listRedemptions,
  listRedemptionsInput,
} from '../services/rewards/list-redemptions.ts';
import {
  catalogueInput,
  getReward,
  listParticipantRewards,
  listRewards,
} from '../services/rewards/list-rewards.ts';
import { redeemInput, redeemReward } from '../services/rewards/redeem-reward.ts';
import { createRewardInput, updateRewardInput } from '../services/rewards/reward-input.ts';
import { archiveReward, createReward, updateReward } from '../services/rewards/save-reward.ts';
import {
  codeGenerateResultShape,
  codeImportResultShape,
  fulfilmentCallShape,
  participantCatalogueShape,
  redemptionShape,
  rewardShape,
} from '../services/rewards/shapes.ts';
import { testFulfilment, testFulfilmentInput } from '../services/rewards/test-fulfilment.ts';
import { idempotentReplayedHeader, paginated } from './openapi-schemas.ts';
import { idempotentReply, type Operation, operation } from './operation.ts';
import { byExternalId } from './participants.ts';

const byReward = z.object({ id: intId('The reward id.') });
const byRedemption = z.object({ id: intId('The redemption id.') });

const idempotencyHeader = z.object({
  'Idempotency-Key': text(255, { min: 1 })
    .optional()
    .meta({ param: { description: 'Same as the body `idempotency_key`, and wins over it.' } }),
});

/**
 * Body → the import service's input: JSON `{ codes }` (parsed by the declaration), or the text of
 * a text/plain or text/csv body (its size bounded by `maxBytes`, its codes checked by the service).
 */
function codesInput(
  contentType: string | undefined,
  body: ImportCodesInput | string,
): ImportCodesTextInput | ImportCodesInput {
  if (typeof body === 'string')
    return { text: body, format: /^text\/csv/i.test(contentType ?? '') ? 'csv' : 'text' };
  return body;
}

const REDEEM_DESCRIPTION =
  'Validates and changes balance and stock in one transaction: concurrent redemptions never oversell ' +
  'stock, hand out a code twice or overdraw a balance. Checks in this order: unknown participant or reward ' +
  '(404, the participant is not created) → `reward_unavailable` → `tier_required` (below the reward’s ' +
  '`min_tier`, with `min_tier`) → `out_of_stock` → `insufficient_points` ' +
  '(with `balance` and `cost_points`). `physical` starts `pending`; code-backed, digital-asset and ' +
  'multiplier rewards are `fulfilled` at once. For an `external` reward the debit commits first, then ' +
  'the endpoint is called through the egress guard; on failure the redemption is cancelled, the debit ' +
  'reversed, the stock restored and the answer is 422 `external_fulfilment_failed` (with `redemption_id`). ' +
  'Idempotency: the first call answers 201; a retry with the same key answers 200 with the original ' +
  'redemption (or its original failure) and `Idempotent-Replayed: true`; concurrent duplicates charge once.';

const R = 'Rewards';

/** The catalogue, reward management, code pools and redemptions (docs/api.md#rewards-and-redemptions). */
export const rewardsOperations: Operation[] = [
  // First: the hot route (express tries routes in the order they are declared).
  operation({
    method: 'post',
    path: '/v1/redemptions',
    operationId: 'createRedemption',
    tag: R,
    summary: 'Redeem a reward',
    description: REDEEM_DESCRIPTION,
    auth: 'redemptions:write',
    params: { header: idempotencyHeader },
    body: { schema: redeemInput },
    success: {
      status: '201',
      description: 'Redeemed (a replay answers 200 with the original redemption).',
      schema: redemptionShape,
      headers: { 'Idempotent-Replayed': idempotentReplayedHeader },
    },
    otherSuccess: {
      '200': {
        description:
          'A retry with the same idempotency key: the original redemption, nothing charged again ' +
          '(`Idempotent-Replayed: true`).',
        schema: redemptionShape,
        headers: { 'Idempotent-Replayed': idempotentReplayedHeader },
      },
    },
    errors: [
      'not_found',
      'idempotency_conflict',
      'reward_unavailable',
      'tier_required',
      'out_of_stock',
      'insufficient_points',
      'external_fulfilment_failed',
    ],
    handle: async ({ ctx, who, body, req }) => {
      const result = await redeemReward(ctx, who, body, req.get('idempotency-key'));
      return idempotentReply(result.replayed, result.redemption);
    },
  }),
  operation({
    method: 'get',
    path: '/v1/rewards',
    operationId: 'listRewards',
    tag: R,
    summary: 'The rewards catalogue',
    description: 'Active, unarchived rewards of the key’s workspace and mode, oldest first (not paginated).',
    auth: 'key',
    params: { query: catalogueInput },
    success: {
      status: '200',
      description: 'The catalogue.',
      schema: z.object({ data: z.array(rewardShape) }),
    },
    handle: async ({ ctx, who, query }) => ({ data: await listRewards(ctx, who, query) }),
  }),
  operation({
    method: 'post',
    path: '/v1/rewards',
    operationId: 'createReward',
    tag: R,
    summary: 'Create a reward',
    description:
      'An external reward’s `endpoint_url` must pass the egress guard (else 422 on `config.endpoint_url`).',
    auth: 'rewards:write',
    body: { schema: createRewardInput },
    success: { status: '201', description: 'Created.', schema: rewardShape },
    handle: ({ ctx, who, body }) => createReward(ctx, who, body),
  }),
  operation({
    method: 'get',
    path: '/v1/rewards/{id}',
    operationId: 'getReward',
    tag: R,
    summary: 'Show a reward',
    description: 'Archived rewards too, so redemption history can name them.',
    auth: 'key',
    params: { path: byReward },
    success: { status: '200', description: 'The reward.', schema: rewardShape },
    errors: ['not_found'],
    handle: ({ ctx, who, params }) => getReward(ctx, who, params.id),
  }),
  operation({
    method: 'patch',
    path: '/v1/rewards/{id}',
    operationId: 'updateReward',
    tag: R,
    summary: 'Change a reward',
    description:
      'Replaces the given fields; `type` cannot change. A new `stock` moves `stock_remaining` by the same ' +
      'difference (from unlimited it starts at the new stock).',
    auth: 'rewards:write',
    params: { path: byReward },
    body: { schema: updateRewardInput },
    success: { status: '200', description: 'The reward.', schema: rewardShape },
    errors: ['not_found'],
    handle: ({ ctx, who, params, body }) => updateReward(ctx, who, params.id, body),
  }),
  operation({
    method: 'delete',
    path: '/v1/rewards/{id}',
    operationId: 'archiveReward',
    tag: R,
    summary: 'Archive a reward',
    description:
      'It leaves the catalogue and cannot be redeemed; its redemptions stay; its name is free again.',
    auth: 'rewards:write',
    params: { path: byReward },
    success: { status: '200', description: 'The archived reward.', schema: rewardShape },
    errors: ['not_found'],
    handle: ({ ctx, who, params }) => archiveReward(ctx, who, params.id),
  }),
  operation({
    method: 'post',
    path: '/v1/rewards/{id}/codes',
    operationId: 'importRewardCodes',
    tag: R,
    summary: 'Import codes into a reward’s pool',
    description:
      'For `voucher_code` and `digital_asset` rewards. JSON `{ codes: [...] }`, or a `text/plain` body ' +
      '(one code per line) or a `text/csv` body (RFC 4180, quoted fields allowed, first column used; a ' +
      'first row reading `code` is a header). Whitespace is trimmed, blank lines ignored, and codes already ' +
      'in the pool or repeated are skipped and counted. At most 200,000 codes and 16 MiB per request; ' +
      'all or nothing.',
    auth: 'rewards:write',
    params: { path: byReward },
    body: {
      schema: importCodesInput,
      alternatives: {
        'text/plain': z.string().meta({ examples: ['SUMMER-001\nSUMMER-002\n'] }),
        'text/csv': z.string().meta({ examples: ['code,batch\n"SUMMER-001",A\nSUMMER-002,A\n'] }),
      },
      maxBytes: CODE_IMPORT_MAX_BYTES,
    },
    success: { status: '200', description: 'What was imported.', schema: codeImportResultShape },
    errors: ['not_found'],
    handle: ({ ctx, who, params, body, req }) =>
      importCodes(ctx, who, params.id, codesInput(req.get('content-type'), body)),
  }),
  operation({
    method: 'post',
    path: '/v1/rewards/{id}/codes/generate',
    operationId: 'generateRewardCodes',
    tag: R,
    summary: 'Generate codes into a reward’s pool',
    description:
      '`prefix` + `length` characters drawn uniformly by a CSPRNG from `23456789ABCDEFGHJKMNPQRSTUVWXYZ` ' +
      '(no 0/O, 1/I/L look-alikes). A draw that collides with a code already in the pool is drawn again, so ' +
      'exactly `count` new codes are added.',
    auth: 'rewards:write',
    params: { path: byReward },
    body: { schema: generateCodesInput },
    success: { status: '200', description: 'How many were added.', schema: codeGenerateResultShape },
    errors: ['not_found'],
    handle: ({ ctx, who, params, body }) => generateCodes(ctx, who, params.id, body),
  }),
  operation({
    method: 'post',
    path: '/v1/rewards/{id}/test-fulfilment',
    operationId: 'testRewardFulfilment',
    tag: R,
    summary: 'Test an external reward’s endpoint',
    description:
      'Fires the live request through the egress guard with a sample participant (`test-participant`, ' +
      '`test-participant@example.com`, `Test Participant`) and a fresh `test_…` `{{reference}}`; nothing is ' +
      'debited or stored. Send `config` to try unsaved settings. The outcome is in the body, not the status.',
    auth: 'rewards:write',
    params: { path: byReward },
    body: { schema: testFulfilmentInput },
    success: { status: '200', description: 'What the endpoint answered.', schema: fulfilmentCallShape },
    errors: ['not_found'],
    handle: ({ ctx, who, params, body }) => testFulfilment(ctx, who, params.id, body),
  }),
  operation({
    method: 'get',
    path: '/v1/participants/{external_id}/rewards',
    operationId: 'listParticipantRewards',
    tag: R,
    summary: 'The catalogue for one participant',
    description: 'Each reward with `can_afford`, and the participant’s spendable `meta.balance`.',
    auth: 'key',
    params: { path: byExternalId },
    success: { status: '200', description: 'The catalogue.', schema: participantCatalogueShape },
    errors: ['not_found'],
    handle: ({ ctx, who, params }) => listParticipantRewards(ctx, who, params.external_id),
  }),
  operation({
    method: 'get',
    path: '/v1/redemptions',
    operationId: 'listRedemptions',
    tag: R,
    summary: 'List redemptions',
    description: 'Newest first; filters are carried into the links.',
    auth: 'participants:read',
    params: { query: listRedemptionsInput },
    success: {
      status: '200',
      description: 'A page of redemptions.',
      schema: paginated(redemptionShape, 'Redemption'),
    },
    paged: true,
    handle: ({ ctx, who, query }) => listRedemptions(ctx, who, query),
  }),
  operation({
    method: 'get',
    path: '/v1/redemptions/{id}',
    operationId: 'getRedemption',
    tag: R,
    summary: 'Show a redemption',
    auth: 'participants:read',
    params: { path: byRedemption },
    success: { status: '200', description: 'The redemption.', schema: redemptionShape },
    errors: ['not_found'],
    handle: ({ ctx, who, params }) => getRedemption(ctx, who, params.id),
  }),
  operation({
    method: 'post',
    path: '/v1/redemptions/{id}/fulfil',
    operationId: 'fulfilRedemption',
    tag: R,
    summary: 'Mark a physical redemption fulfilled',
    description: '`pending` → `fulfilled`. Any other move (or another type) is 409 `invalid_state`.',
    auth: 'rewards:write',
    params: { path: byRedemption },
    success: { status: '200', description: 'The redemption.', schema: redemptionShape },
    errors: ['not_found', 'invalid_state'],
    handle: ({ ctx, who, params }) => fulfilRedemption(ctx, who, params.id),
  }),
  operation({
    method: 'post',
    path: '/v1/redemptions/{id}/cancel',
    operationId: 'cancelRedemption',
    tag: R,
    summary: 'Cancel a physical redemption',
    description:
      '`pending` → `cancelled`: the points come back by a reversal ledger entry that references the debit, ' +
      'and the stock unit is restored. Any other move is 409 `invalid_state`.',
    auth: 'rewards:write',
    params: { path: byRedemption },
    success: { status: '200', description: 'The redemption.', schema: redemptionShape },
    errors: ['not_found', 'invalid_state'],
    handle: ({ ctx, who, params }) => cancelRedemption(ctx, who, params.id),
  }),
];
