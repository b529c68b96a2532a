import { z } from 'zod';
import { timestamp } from '../../lib/shapes.ts';
import { rewardType } from './reward-input.ts';

/** A redemption's life: `pending` → `fulfilled` | `cancelled`. Every door uses this list. */
export const redemptionStatus = z.enum(['pending', 'fulfilled', 'cancelled']);
export type RedemptionStatus = z.output<typeof redemptionStatus>;
export const REDEMPTION_STATUSES = redemptionStatus.options;

/** A reward as every door shows it (docs/api.md#rewards-and-redemptions). */
export const rewardShape = z
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
    min_tier: z.string().nullable().meta({
      description:
        'The lowest tier level (its key) that may redeem it; null: anyone (docs/tiers.md#benefits).',
    }),
    created_at: timestamp('Creation time.'),
    updated_at: timestamp('Last change.'),
  })
  .meta({ id: 'Reward' });
export type RewardDto = z.output<typeof rewardShape>;

/** A reward in one participant's catalogue. */
export const catalogueRewardShape = rewardShape
  .extend({
    can_afford: z.boolean().meta({ description: "The participant's balance covers `cost_points`." }),
    tier_eligible: z.boolean().meta({
      description: 'The participant’s tier level reaches the reward’s `min_tier` (always true without one).',
    }),
  })
  .meta({ id: 'CatalogueReward' });
export type CatalogueRewardDto = z.output<typeof catalogueRewardShape>;

/** `GET /v1/participants/{external_id}/rewards`. */
export const participantCatalogueShape = z
  .object({ data: z.array(catalogueRewardShape), meta: z.object({ balance: z.int().min(0) }) })
  .meta({ id: 'ParticipantCatalogue' });
export type ParticipantCatalogue = z.output<typeof participantCatalogueShape>;

/** What a redemption handed out. */
export const fulfilmentShape = z
  .object({
    type: rewardType,
    code: z.string().optional().meta({ description: 'The voucher, pool or external code.' }),
    url: z.string().optional().meta({ description: 'A digital asset’s URL from its config.' }),
    multiplier: z
      .object({ factor: z.number(), expires_at: timestamp('When the perk stops applying.') })
      .optional(),
  })
  .meta({ description: 'What was handed out.' });
export type FulfilmentDto = z.output<typeof fulfilmentShape>;

/**
 * A redemption: `presentRedemption` and `redemptionJsonSql` (the same JSON built in SQL) both
 * print it; test/sql-json-shapes.test.ts parses the SQL-built one with it.
 */
export const redemptionShape = z
  .object({
    id: z.int(),
    reward_id: z.int(),
    participant: z.object({ external_id: z.string() }),
    status: redemptionStatus,
    fulfilment: fulfilmentShape,
    cost_points: z.int().meta({ description: 'Points debited.' }),
    idempotency_key: z.string().nullable(),
    is_sandbox: z.boolean().meta({ description: 'Made with a `svc_test_` key.' }),
    created_at: timestamp('When it was made.'),
    updated_at: timestamp('Last status change.'),
  })
  .meta({ id: 'Redemption' });
export type RedemptionDto = z.output<typeof redemptionShape>;

/** A points-multiplier perk in force: the highest active one (multiplier.ts). */
export const activeMultiplierShape = z
  .object({ factor: z.number(), expires_at: timestamp('When it ends.') })
  .meta({ id: 'ActiveMultiplier' });
export type ActiveMultiplier = z.output<typeof activeMultiplierShape>;

/** The `data` of a `reward.redeemed` result (docs/guarantees.md#how-redemption-stays-atomic). */
export const rewardRedeemedShape = z.object({
  participant: z.object({ external_id: z.string() }),
  redemption: redemptionShape,
  reward: z.object({ id: z.int(), name: z.string(), type: rewardType }),
});
export type RewardRedeemedData = z.output<typeof rewardRedeemedShape>;

export const codeImportResultShape = z
  .object({
    imported: z.int().min(0),
    skipped_duplicates: z
      .int()
      .min(0)
      .meta({ description: 'Codes already in the pool or repeated in the input.' }),
    stock_remaining: z.int().min(0),
  })
  .meta({ id: 'CodeImportResult' });
export type ImportResult = z.output<typeof codeImportResultShape>;

export const codeGenerateResultShape = z
  .object({ generated: z.int(), stock_remaining: z.int() })
  .meta({ id: 'CodeGenerateResult' });
export type GenerateResult = z.output<typeof codeGenerateResultShape>;

/** What a call to an external fulfilment endpoint came to (also the test-fulfilment answer). */
export const fulfilmentCallShape = z
  .object({
    ok: z.boolean(),
    status_code: z.int().nullable().meta({ description: 'Null when no response came back.' }),
    code: z.string().nullable().meta({ description: 'The string found at `code_path`.' }),
    response_snippet: z.string().nullable().meta({ description: 'At most the first 1 KiB of the answer.' }),
    error: z.string().nullable(),
  })
  .meta({ id: 'FulfilmentTestResult' });
export type FulfilmentCall = z.output<typeof fulfilmentCallShape>;
