import type { InputFieldBuilder } from '@pothos/core';
import { z } from 'zod';
import { externalIdParam } from '../lib/primitives.ts';
import { generateCodes, generateCodesInput } from '../services/rewards/generate-codes.ts';
import { importCodes, importCodesInput } from '../services/rewards/import-codes.ts';
import {
  catalogueInput,
  getReward,
  listParticipantRewards,
  listRewards,
} from '../services/rewards/list-rewards.ts';
import { createRewardInput, REWARD_TYPES, updateRewardInput } from '../services/rewards/reward-input.ts';
import { archiveReward, createReward, updateReward } from '../services/rewards/save-reward.ts';
import type {
  CatalogueRewardDto,
  FulfilmentCall,
  GenerateResult,
  ImportResult,
  RewardDto,
} from '../services/rewards/shapes.ts';
import { testFulfilment, testFulfilmentInput } from '../services/rewards/test-fulfilment.ts';
import { builder } from './builder.ts';
import { DateTimeScalar } from './date-time.ts';
import { orNull } from './errors.ts';
import { JSONScalar } from './json.ts';
import { patchArgs, serviceArgs, serviceInput } from './names.ts';
import { PointsScalar } from './points.ts';
import { mirror } from './shape.ts';

export const RewardType = builder.enumType('RewardType', {
  description: 'How a reward is fulfilled.',
  values: REWARD_TYPES,
});

/** A reward; `canAfford` and `tierEligible` only when the catalogue was asked for a participant. */
type RewardItem = RewardDto & Partial<Pick<CatalogueRewardDto, 'can_afford' | 'tier_eligible'>>;

export const Reward = builder.objectRef<RewardItem>('Reward').implement({
  description: 'A catalogue item participants spend points on.',
  fields: mirror((t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    subtitle: t.exposeString('subtitle', { nullable: true }),
    description: t.exposeString('description', { nullable: true }),
    imageUrl: t.exposeString('image_url', { nullable: true }),
    type: t.field({ type: RewardType, resolve: (r) => r.type as (typeof REWARD_TYPES)[number] }),
    costPoints: t.expose('cost_points', { type: PointsScalar }),
    active: t.exposeBoolean('active'),
    startsAt: t.expose('starts_at', { type: DateTimeScalar, nullable: true }),
    endsAt: t.expose('ends_at', { type: DateTimeScalar, nullable: true }),
    stock: t.exposeInt('stock', {
      nullable: true,
      description: 'Units of a non-code reward; null = unlimited.',
    }),
    stockRemaining: t.exposeInt('stock_remaining', {
      nullable: true,
      description: 'Unredeemed codes of a code-backed reward, else units left; null when unlimited.',
    }),
    isClaimable: t.exposeBoolean('is_claimable', {
      description: 'Active, inside its window, not archived and in stock.',
    }),
    canAfford: t.boolean({
      nullable: true,
      description: "Whether the participant's balance covers the cost; null unless `rewards(participant:)`.",
      resolve: (r) => r.can_afford ?? null,
    }),
    minTier: t.exposeString('min_tier', {
      nullable: true,
      description:
        'The lowest tier level (its key) that may redeem it; below it, redeem is tier_required. Null: anyone.',
    }),
    tierEligible: t.boolean({
      nullable: true,
      description:
        'Whether the participant’s tier level reaches `minTier` (true without one); null unless `rewards(participant:)`.',
      resolve: (r) => r.tier_eligible ?? null,
    }),
    config: t.expose('config', {
      type: JSONScalar,
      description:
        "Type-specific settings; an external reward's header values are redacted without rewards:write.",
    }),
    createdAt: t.expose('created_at', { type: DateTimeScalar }),
    updatedAt: t.expose('updated_at', { type: DateTimeScalar }),
  })),
});

builder.queryFields((t) => ({
  rewards: t.field({
    type: [Reward],
    description:
      'The catalogue of active rewards (any valid key). With `participant`, each reward carries `canAfford` ' +
      'against that participant’s balance (an unknown participant is not_found). A participant token may ' +
      'name only its own participant.',
    authScopes: (_root, args) =>
      args.participant == null ? { anyKey: true } : { $any: { apiKey: true, participant: args.participant } },
    args: t.validate(
      {
        participant: t.arg.string({ description: "A participant's external id." }),
        includeInactive: t.arg.boolean({ description: 'Also list inactive (never archived) rewards.' }),
      },
      serviceArgs(catalogueInput, { participant: externalIdParam().nullish() }),
    ),
    resolve: async (_root, { participant, input }, { app, who }) => {
      if (participant != null) {
        const { data } = await listParticipantRewards(app, who, participant);
        return data satisfies CatalogueRewardDto[];
      }
      return listRewards(app, who, input);
    },
  }),
  reward: t.field({
    type: Reward,
    nullable: true,
    description: 'One reward by id (archived ones too), or null. Any valid key.',
    authScopes: { anyKey: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, { app, who }) => orNull(getReward(app, who, String(args.id))),
  }),
}));

const canWrite = { ability: 'rewards:write' } as const;

const CONFIG_DESCRIPTION =
  'By type: `external` → `{ endpoint_url, method?, headers?, body?, code_path }`; `digital_asset` without a ' +
  'pool → `{ asset_code?, asset_url? }`; `points_multiplier` → `{ factor, duration_hours }`; others `{}`.';

/** The optional fields a reward is created or changed with. */
const rewardFields = (t: InputFieldBuilder<typeof builder.$inferSchemaTypes, 'InputObject'>) => ({
  subtitle: t.string(),
  description: t.string(),
  imageUrl: t.string(),
  active: t.boolean(),
  startsAt: t.field({ type: DateTimeScalar }),
  endsAt: t.field({ type: DateTimeScalar }),
  config: t.field({ type: JSONScalar, description: CONFIG_DESCRIPTION }),
  minTier: t.string({
    description: 'A level key of the running tier programme: below it, redeem is tier_required.',
  }),
});

const CreateRewardInput = builder
  .inputType('CreateRewardInput', {
    fields: (t) => ({
      name: t.string({ required: true, description: 'Unique per workspace and mode.' }),
      type: t.field({ type: RewardType, required: true }),
      costPoints: t.field({ type: PointsScalar, required: true }),
      stock: t.int({ description: 'Units of a non-code reward; null or absent = unlimited.' }),
      ...rewardFields(t),
    }),
  })
  .validate(serviceInput(createRewardInput));

const UpdateRewardInput = builder
  .inputType('UpdateRewardInput', {
    description: 'The fields to replace (`null` clears a nullable one); `type` cannot change.',
    fields: (t) => ({
      name: t.string(),
      costPoints: t.field({ type: PointsScalar }),
      stock: t.int({ description: 'A new stock moves `stockRemaining` by the same difference.' }),
      ...rewardFields(t),
    }),
  })
  .validate(serviceInput(updateRewardInput, patchArgs));

const ImportRewardCodesPayload = builder.objectRef<ImportResult>('ImportRewardCodesPayload').implement({
  fields: mirror((t) => ({
    imported: t.exposeInt('imported'),
    skippedDuplicates: t.exposeInt('skipped_duplicates', {
      description: 'Codes already in the pool or repeated in the input.',
    }),
    stockRemaining: t.exposeInt('stock_remaining'),
  })),
});

const GenerateRewardCodesPayload = builder.objectRef<GenerateResult>('GenerateRewardCodesPayload').implement({
  fields: mirror((t) => ({
    generated: t.exposeInt('generated'),
    stockRemaining: t.exposeInt('stock_remaining'),
  })),
});

const FulfilmentTestResult = builder.objectRef<FulfilmentCall>('FulfilmentTestResult').implement({
  description: 'What an external reward’s endpoint answered.',
  fields: mirror((t) => ({
    ok: t.exposeBoolean('ok'),
    statusCode: t.exposeInt('status_code', {
      nullable: true,
      description: 'Null when no response came back.',
    }),
    code: t.exposeString('code', { nullable: true, description: 'The string found at `code_path`.' }),
    responseSnippet: t.exposeString('response_snippet', {
      nullable: true,
      description: 'At most the first 1 KiB of the answer.',
    }),
    error: t.exposeString('error', { nullable: true }),
  })),
});

const GenerateRewardCodesInput = builder
  .inputType('GenerateRewardCodesInput', {
    fields: (t) => ({
      count: t.int({ required: true, description: '1 to 100,000 new codes.' }),
      prefix: t.string({ description: 'Letters, digits, - and _.' }),
      length: t.int({ description: 'Random characters after the prefix (6 to 32, default 10).' }),
    }),
  })
  .validate(serviceInput(generateCodesInput));

builder.mutationFields((t) => ({
  createReward: t.field({
    type: Reward,
    description:
      'Creates a reward (needs rewards:write). An external reward’s `config.endpoint_url` must pass the egress guard.',
    authScopes: canWrite,
    args: { input: t.arg({ type: CreateRewardInput, required: true }) },
    resolve: (_root, { input }, { app, who }) => createReward(app, who, input),
  }),
  updateReward: t.field({
    type: Reward,
    description: 'Replaces the given fields of a reward (needs rewards:write).',
    authScopes: canWrite,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateRewardInput, required: true }) },
    resolve: (_root, { id, input }, { app, who }) => updateReward(app, who, String(id), input),
  }),
  archiveReward: t.field({
    type: Reward,
    description:
      'Archives a reward (needs rewards:write): it leaves the catalogue and cannot be redeemed; its redemptions stay.',
    authScopes: canWrite,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, { app, who }) => archiveReward(app, who, String(id)),
  }),
  importRewardCodes: t.field({
    type: ImportRewardCodesPayload,
    description:
      'Adds codes to a voucher or digital-asset reward’s pool, all or nothing (needs rewards:write). Whitespace is ' +
      'trimmed, blanks ignored, codes already in the pool or repeated are skipped and counted.',
    authScopes: canWrite,
    args: t.validate(
      {
        rewardId: t.arg.id({ required: true }),
        codes: t.arg.stringList({ required: true }),
      },
      serviceArgs(importCodesInput, { rewardId: z.coerce.string() }),
    ),
    resolve: (_root, { rewardId, input }, { app, who }) => importCodes(app, who, rewardId, input),
  }),
  generateRewardCodes: t.field({
    type: GenerateRewardCodesPayload,
    description:
      'Adds exactly `count` new random codes (`prefix` + `length` characters of 23456789ABCDEFGHJKMNPQRSTUVWXYZ) to ' +
      'a reward’s pool (needs rewards:write).',
    authScopes: canWrite,
    args: {
      rewardId: t.arg.id({ required: true }),
      input: t.arg({ type: GenerateRewardCodesInput, required: true }),
    },
    resolve: (_root, { rewardId, input }, { app, who }) => generateCodes(app, who, String(rewardId), input),
  }),
  testRewardFulfilment: t.field({
    type: FulfilmentTestResult,
    description:
      'Fires an external reward’s live request with a sample participant; nothing is debited or stored ' +
      '(needs rewards:write). Send `config` to try unsaved settings. The outcome is in the answer.',
    authScopes: canWrite,
    args: t.validate(
      {
        rewardId: t.arg.id({ required: true }),
        config: t.arg({ type: JSONScalar, description: 'An unsaved external config to try instead.' }),
      },
      serviceArgs(testFulfilmentInput, { rewardId: z.coerce.string() }),
    ),
    resolve: (_root, { rewardId, input }, { app, who }) => testFulfilment(app, who, rewardId, input),
  }),
}));
