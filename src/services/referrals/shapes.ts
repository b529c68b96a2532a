import { Temporal } from 'temporal-polyfill';
import { z } from 'zod';
import { text } from '../../lib/primitives.ts';
import { BADGE_KEY_LENGTH, TIER_LENGTH } from '../badges/manage-badges.ts';
import { LIMITS } from '../events/event-input.ts';
import { capPeriod, isoDuration } from '../points/shapes.ts';

/** An ISO 8601 duration that may be zero (`PT0S`): a referral hold. */
export const holdDuration = z
  .string()
  .max(64)
  .refine((s) => {
    try {
      return Temporal.Duration.from(s).sign >= 0;
    } catch {
      return false;
    }
  }, 'must be an ISO 8601 duration, e.g. P30D, or PT0S for none')
  .meta({ examples: ['P14D'] });

/** What a referral gives: points (a whole positive number) or a badge. */
export const referralAction = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('award_points'),
    points: z.int().positive().max(1_000_000_000),
    reason: text(500).optional(),
  }),
  z.strictObject({
    type: z.literal('award_badge'),
    badge: text(BADGE_KEY_LENGTH, { min: 1 }),
    tier: text(TIER_LENGTH, { min: 1 }).optional(),
  }),
]);
export type ReferralAction = z.output<typeof referralAction>;

const programFields = {
  qualifying_event_type: text(LIMITS.eventTypeLength).trim().min(1).meta({
    description: 'The friend’s first event of this type within `qualify_within` qualifies the referral.',
  }),
  qualify_within: isoDuration.meta({
    description: 'How long after attribution a referral can qualify; then it expires.',
  }),
  hold: holdDuration.meta({
    description:
      'How long the advocate’s points stay pending after qualification (a cancel claws them back).',
  }),
  friend_actions: z
    .array(referralAction)
    .max(10)
    .meta({ description: 'Run for the friend at once when the referral qualifies.' }),
  advocate_actions: z
    .array(referralAction)
    .max(10)
    .meta({ description: 'The advocate’s reward: points pending during the hold, badges when it ends.' }),
  advocate_limit: z
    .strictObject({
      period: capPeriod.meta({
        description: 'A calendar period in the programme’s time zone; weeks start Monday.',
      }),
      max: z.int().min(1).max(1_000_000),
    })
    .nullable()
    .meta({
      description: 'The most referrals an advocate can make per calendar period; more are `blocked`.',
    }),
  active: z.boolean().meta({ description: 'False: codes attribute nothing; referrals already made go on.' }),
};

export const referralProgramInput = z
  .strictObject({
    ...programFields,
    advocate_limit: programFields.advocate_limit.optional(),
    active: programFields.active.optional(),
  })
  .meta({ id: 'ReferralProgramInput' });
export type ReferralProgramInput = z.output<typeof referralProgramInput>;

export const referralProgramShape = z
  .object({ ...programFields, updated_at: z.string() })
  .meta({ id: 'ReferralProgram' });
export type ReferralProgramDto = z.output<typeof referralProgramShape>;
/** The programme as stored and as the engine reads it (the DTO without `updated_at`). */
export type ReferralProgramSettings = Omit<ReferralProgramDto, 'updated_at'>;

export const REFERRAL_STATUSES = [
  'pending',
  'qualified',
  'rewarded',
  'blocked',
  'expired',
  'clawed_back',
] as const;
export const referralStatus = z.enum(REFERRAL_STATUSES);
export type ReferralStatus = z.output<typeof referralStatus>;

export const BLOCK_REASONS = [
  'self_referral',
  'same_email',
  'same_phone',
  'existing_participant',
  'limit_reached',
] as const;
export const blockReason = z.enum(BLOCK_REASONS);
export type BlockReason = z.output<typeof blockReason>;

export const referralShape = z
  .object({
    id: z.string(),
    code: z.string(),
    advocate: z.object({ external_id: z.string() }),
    friend: z.object({ external_id: z.string() }),
    status: referralStatus,
    reason: blockReason
      .nullable()
      .meta({ description: 'Why a `blocked` referral was refused; null otherwise.' }),
    created_at: z.string(),
    expires_at: z.string().nullable().meta({ description: 'When a pending referral expires unqualified.' }),
    qualified_at: z.string().nullable(),
    reward_available_at: z
      .string()
      .nullable()
      .meta({ description: 'When the hold ends and the advocate’s pending points become available.' }),
    rewarded_at: z.string().nullable(),
    clawed_back_at: z.string().nullable(),
  })
  .meta({ id: 'Referral' });
export type ReferralDto = z.output<typeof referralShape>;

export const referralCodeShape = z.object({ code: z.string() }).meta({ id: 'ReferralCode' });

/** `REF-` + 8 characters of an alphabet without look-alikes (no 0/O, 1/I/L, 2/Z, 5/S, 8/B). */
export const CODE_ALPHABET = '34679ACDEFGHJKMNPQRTUVWXY';
export const CODE_PATTERN = new RegExp(`^REF-[${CODE_ALPHABET}]{8}$`);
