import { z } from 'zod';
import { validationError } from '../../errors.ts';
import { storableJson, storableUrl, text } from '../../lib/primitives.ts';
import { tierKey } from '../tiers/shapes.ts';

export const REWARD_TYPES = [
  'voucher_code',
  'digital_asset',
  'physical',
  'points_multiplier',
  'external',
] as const;
export type RewardType = (typeof REWARD_TYPES)[number];

export const rewardType = z.enum(REWARD_TYPES).meta({
  id: 'RewardType',
  description:
    '`voucher_code`: one code from the pool per redemption. `digital_asset`: a pool code when a pool is ' +
    'loaded, else `config.asset_code` / `config.asset_url`. `physical`: starts `pending`, fulfilled or ' +
    'cancelled later. `points_multiplier`: a perk multiplying future flow awards. `external`: the code is ' +
    'fetched from `config.endpoint_url` at redemption time.',
});

const timestamp = z.iso.datetime({ offset: true });

/** What node sends as a header value: no control characters but tab (no CR, LF, NUL), Latin-1 only. */
const HEADER_VALUE = /^[\t\x20-\x7E\x80-\xFF]*$/;
/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;

/** An external reward's fulfilment call (docs/guarantees.md#external-fulfilment). Header and body string values may hold tokens. */
export const externalConfig = z.strictObject({
  endpoint_url: storableUrl(
    2000,
    { protocol: /^https?$/, error: 'must be an http or https URL' },
    { description: 'Public http/https URL; checked by the egress guard when saved and when called.' },
  ),
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).default('POST'),
  headers: z
    .record(
      text(200, { min: 1 }).regex(HEADER_NAME, 'must be an HTTP header name (token characters)'),
      text(4000).regex(
        HEADER_VALUE,
        'must be a valid HTTP header value: no control characters (CR, LF, NUL), Latin-1 characters only',
      ),
    )
    .default({})
    .meta({ description: 'Sent with the call. Values may contain tokens.' }),
  body: z
    .record(z.string(), z.unknown())
    .optional()
    .meta({ description: 'JSON body sent (not for GET). String values may contain tokens.' }),
  code_path: text(200, { min: 1 }).meta({
    description: 'Dot path to the code in the JSON response, e.g. `data.code` or `codes.0`.',
  }),
});
export type ExternalConfig = z.output<typeof externalConfig>;

export const digitalAssetConfig = z.strictObject({
  asset_code: text(500, { min: 1 }).optional(),
  asset_url: storableUrl(2000).optional(),
});

export const multiplierConfig = z.strictObject({
  factor: z.number().gt(1).lte(10).meta({ description: 'Multiplies flow awards while active (> 1, ≤ 10).' }),
  duration_hours: z.int().min(1).max(8760).meta({ description: 'How long the perk lasts from redemption.' }),
});
export type MultiplierConfig = z.output<typeof multiplierConfig>;

const emptyConfig = z.strictObject({});

const CONFIG_BY_TYPE: Record<RewardType, z.ZodType<Record<string, unknown>>> = {
  voucher_code: emptyConfig,
  physical: emptyConfig,
  digital_asset: digitalAssetConfig,
  points_multiplier: multiplierConfig,
  external: externalConfig,
};

const CONFIG_DESCRIPTION =
  'By type: `external` → `{ endpoint_url, method?, headers?, body?, code_path }` (tokens ' +
  '`{{participant.external_id}}`, `{{participant.email}}`, `{{participant.name}}`, `{{reward.name}}`, ' +
  '`{{reference}}` substituted as plain text in header and body strings); `digital_asset` without a pool → ' +
  '`{ asset_code?, asset_url? }`; `points_multiplier` → `{ factor (> 1, ≤ 10), duration_hours }`; others `{}`.';

const fields = {
  name: text(200).trim().min(1).meta({ description: 'Unique per workspace and mode.' }),
  subtitle: text(300).nullable().optional(),
  description: text(10_000).nullable().optional(),
  image_url: storableUrl(2000).nullable().optional(),
  cost_points: z.int().min(1).max(1_000_000_000),
  active: z.boolean().optional(),
  starts_at: timestamp.nullable().optional(),
  ends_at: timestamp.nullable().optional(),
  stock: z.int().min(0).max(1_000_000_000).nullable().optional().meta({
    description:
      'Units of a non-code reward; null or absent = unlimited. Code-backed rewards count their unredeemed codes instead.',
  }),
  config: storableJson(z.record(z.string(), z.unknown()))
    .optional()
    .meta({ description: CONFIG_DESCRIPTION }),
  min_tier: tierKey.nullable().optional().meta({
    description: 'A level key of the running tier programme: below it, redemption is 422 `tier_required`.',
  }),
};

export const createRewardInput = z.strictObject({ ...fields, type: rewardType });
export type CreateRewardInput = z.output<typeof createRewardInput>;

/** PATCH: any field but `type`; `stock` moves `stock_remaining` by the same difference. */
export const updateRewardInput = z.strictObject({
  name: fields.name.optional(),
  subtitle: fields.subtitle,
  description: fields.description,
  image_url: fields.image_url,
  cost_points: fields.cost_points.optional(),
  active: fields.active,
  starts_at: fields.starts_at,
  ends_at: fields.ends_at,
  stock: fields.stock,
  config: fields.config,
  min_tier: fields.min_tier,
});
export type UpdateRewardInput = z.output<typeof updateRewardInput>;

/** Checks `config` against the schema of the reward's type; field errors are named `config.<field>`. */
export function parseConfig(type: RewardType, config: unknown): Record<string, unknown> {
  const result = CONFIG_BY_TYPE[type].safeParse(config ?? {});
  if (result.success) return result.data;
  throw validationError(
    result.error.issues.map((i) => ({
      field: ['config', ...i.path.map(String)].join('.'),
      message: i.message,
    })),
  );
}

/** The window must not end before it starts. */
export function checkWindow(
  startsAt: string | Date | null | undefined,
  endsAt: string | Date | null | undefined,
) {
  if (startsAt && endsAt && new Date(endsAt) <= new Date(startsAt))
    throw validationError([{ field: 'ends_at', message: 'must be after starts_at' }]);
}
