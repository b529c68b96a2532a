import { defineEntity, p } from '@mikro-orm/core';
import { Participant } from '../participants/entities.ts';
import { Workspace } from '../workspaces/entities.ts';
import type { RewardType } from './reward-input.ts';
import type { RedemptionStatus } from './shapes.ts';

/**
 * A catalogue item (docs/api.md#rewards-and-redemptions). `stockRemaining` is the live counter of non-code
 * rewards (null = unlimited); a code-backed reward's stock is its unredeemed `reward_codes` rows,
 * counted, never cached, so it cannot drift from the pool.
 */
const RewardSchema = defineEntity({
  name: 'Reward',
  tableName: 'rewards',
  uniques: [
    // Archived rewards free their name for a new one.
    { name: 'rewards_name_unique', properties: ['workspace', 'mode', 'name'], where: 'archived_at is null' },
  ],
  indexes: [{ name: 'rewards_list_idx', properties: ['workspace', 'mode', 'id'] }],
  checks: [{ name: 'rewards_stock_remaining_non_negative', expression: 'stock_remaining >= 0' }],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    workspace: () => p.manyToOne(Workspace).deleteRule('cascade'),
    mode: p.string().length(4),
    name: p.string().length(200),
    type: p.string().length(32).$type<RewardType>(),
    costPoints: p.bigint('number'),
    subtitle: p.string().length(300).nullable(),
    description: p.text().nullable(),
    imageUrl: p.text().nullable(),
    active: p.boolean().default(true),
    startsAt: p.datetime().nullable(),
    endsAt: p.datetime().nullable(),
    /** Initial units of a non-code reward; null = unlimited. */
    stock: p.integer().nullable(),
    stockRemaining: p.integer().nullable(),
    config: p.json<Record<string, unknown>>().default('{}'),
    /** The lowest tier level (its key) that may redeem it (docs/tiers.md#benefits); null: anyone. */
    minTier: p.string().length(64).nullable(),
    archivedAt: p.datetime().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    updatedAt: p.datetime().defaultRaw('now()'),
  },
});
export class Reward extends RewardSchema.class {}
RewardSchema.setClass(Reward);

/**
 * One code of a reward's pool. Claimed by setting `redeemedAt` with `FOR UPDATE SKIP LOCKED`, so
 * concurrent redeemers each take a different free row instead of queueing on one.
 */
const RewardCodeSchema = defineEntity({
  name: 'RewardCode',
  tableName: 'reward_codes',
  uniques: [{ name: 'reward_codes_reward_code_unique', properties: ['reward', 'code'] }],
  indexes: [
    // The free list: claims and stock counts read only unredeemed rows.
    { name: 'reward_codes_available_idx', properties: ['reward', 'id'], where: 'redeemed_at is null' },
  ],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    reward: () => p.manyToOne(Reward).deleteRule('cascade'),
    code: p.string().length(200),
    redemptionId: p.bigint('number').nullable(),
    redeemedAt: p.datetime().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});
export class RewardCode extends RewardCodeSchema.class {}
RewardCodeSchema.setClass(RewardCode);

/** A redemption: `pending` → `fulfilled` | `cancelled` (docs/guarantees.md#redemptions-atomic-never-charged-twice). */
const RedemptionSchema = defineEntity({
  name: 'Redemption',
  tableName: 'redemptions',
  uniques: [
    // Concurrent duplicates of one key collide here: the loser rolls back and replays the winner.
    { name: 'redemptions_idempotency_key_unique', properties: ['workspace', 'mode', 'idempotencyKey'] },
  ],
  indexes: [
    { name: 'redemptions_list_idx', properties: ['workspace', 'mode', 'id'] },
    { name: 'redemptions_participant_idx', properties: ['participant', 'id'] },
    { name: 'redemptions_reward_idx', properties: ['reward', 'id'] },
  ],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    workspace: () => p.manyToOne(Workspace).deleteRule('cascade'),
    mode: p.string().length(4),
    participant: () => p.manyToOne(Participant).deleteRule('cascade'),
    reward: () => p.manyToOne(Reward).deleteRule('cascade'),
    status: p.string().length(16).$type<RedemptionStatus>(),
    /** `{ type, code?, url?, multiplier? }` (`FulfilmentDto`). */
    fulfilment: p.json<Record<string, unknown>>(),
    costPoints: p.bigint('number'),
    /** The caller's key; null when none was sent. */
    idempotencyKey: p.string().length(300).nullable(),
    /** sha256 of the request that created it, to tell a replay from a conflicting reuse of the key. */
    requestHash: p.string().length(64).nullable(),
    /** `{{reference}}` for external fulfilment: the caller's key or a generated one. */
    reference: p.string().length(300),
    /** Why it was cancelled, so an idempotent replay can answer the same error. */
    failure: p.json<Record<string, unknown>>().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    updatedAt: p.datetime().defaultRaw('now()'),
  },
});
export class Redemption extends RedemptionSchema.class {}
RedemptionSchema.setClass(Redemption);

/** A points-multiplier perk bought by a redemption; the engine applies the highest active one. */
const ParticipantMultiplierSchema = defineEntity({
  name: 'ParticipantMultiplier',
  tableName: 'participant_multipliers',
  indexes: [{ name: 'participant_multipliers_active_idx', properties: ['participant', 'expiresAt'] }],
  checks: [{ name: 'participant_multipliers_factor_range', expression: 'factor > 1 and factor <= 10' }],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    workspace: () => p.manyToOne(Workspace).deleteRule('cascade'),
    mode: p.string().length(4),
    participant: () => p.manyToOne(Participant).deleteRule('cascade'),
    redemptionId: p.bigint('number').nullable(),
    factor: p.decimal('number').precision(6).scale(3),
    startsAt: p.datetime().defaultRaw('now()'),
    expiresAt: p.datetime(),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});
export class ParticipantMultiplier extends ParticipantMultiplierSchema.class {}
ParticipantMultiplierSchema.setClass(ParticipantMultiplier);
