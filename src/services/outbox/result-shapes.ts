import { z } from 'zod';
import { uuidV7 } from '../../lib/shapes.ts';
import { flowRunStatus } from '../flows/shapes.ts';
import { pointsChangedShape } from '../ledger/shapes.ts';
import { messageChannel } from '../messages/shapes.ts';
import { pointsExpiringShape } from '../points/shapes.ts';
import { referralShape } from '../referrals/shapes.ts';
import { rewardRedeemedShape } from '../rewards/shapes.ts';
import { tierChangedShape } from '../tiers/shapes.ts';
import type { ResultType } from './emit.ts';

// The `data` of every result type (docs/webhooks.md#catalogue), one zod shape each: the emitters'
// data types are their outputs (JS builders are typed with them, SQL builders pass them to
// jsonObjectSql), and the catalogue (GET /v1/webhook-event-types) and the OpenAPI document's
// `webhooks` are generated from them, so a payload that changes without its shape fails the typecheck.

const participant = z
  .object({ external_id: z.string().meta({ description: 'The participant’s id in your system.' }) })
  .meta({ description: 'Whom it happened to.' });

const uuid = (description: string) => z.string().meta({ format: 'uuid', description });

// --- badge.awarded: by a flow, an achievement's criteria or a referral ---

const awardedBadge = z.object({
  key: z.string(),
  tier: z.string().meta({ description: 'The tier awarded; an empty string for a badge without tiers.' }),
  name: z.string(),
});

export const flowBadgeAwardedShape = z
  .object({
    participant,
    badge: awardedBadge,
    flow_run_id: uuidV7('The flow run whose `award_badge` step awarded it.'),
  })
  .meta({ title: 'By a flow', description: 'A flow’s `award_badge` step.' });
export type FlowBadgeAwardedData = z.output<typeof flowBadgeAwardedShape>;

export const achievementBadgeAwardedShape = z
  .object({
    participant,
    badge: awardedBadge,
    flow_run_id: z.null().meta({ description: 'No flow run: the badge’s criteria awarded it.' }),
    achievement: z.literal(true),
  })
  .meta({ title: 'By an achievement', description: 'The badge’s own criteria were met (or backfilled).' });
export type AchievementBadgeAwardedData = z.output<typeof achievementBadgeAwardedShape>;

export const referralBadgeAwardedShape = z
  .object({
    participant,
    badge: awardedBadge,
    flow_run_id: z.null().meta({ description: 'No flow run: a referral awarded it.' }),
    referral_id: uuid('The referral whose friend or advocate actions awarded it.'),
  })
  .meta({ title: 'By a referral', description: 'A referral programme’s friend or advocate action.' });
export type ReferralBadgeAwardedData = z.output<typeof referralBadgeAwardedShape>;

/** One shape for the three: `flow_run_id` is set for a flow; else `achievement` or `referral_id` says why. */
export const badgeAwardedShape = z.union([
  flowBadgeAwardedShape,
  achievementBadgeAwardedShape,
  referralBadgeAwardedShape,
]);

// --- the rest, in the order of the catalogue ---

export const flowCompletedShape = z.object({
  participant,
  flow: z.object({ id: uuidV7('The flow.'), name: z.string() }),
  flow_run_id: uuidV7('The run.'),
  event_id: z
    .string()
    .meta({ format: 'uuid' })
    .nullable()
    .meta({ description: 'The event that ran it; null for an inactivity run.' }),
  status: flowRunStatus,
});
export type FlowCompletedData = z.output<typeof flowCompletedShape>;

export const messageSentShape = z.object({
  participant,
  message: z.object({
    id: uuidV7('The message (GET /v1/messages/{id}).'),
    template: z.string().meta({ description: 'The template’s key.' }),
    channel: messageChannel,
    status: z.enum(['sent', 'simulated']).meta({
      description: '`sent` (live: handed to the transport) or `simulated` (test mode: rendered, never sent).',
    }),
  }),
});
export type MessageSentData = z.output<typeof messageSentShape>;

export const streakResultShape = z.object({
  participant,
  streak: z.object({
    key: z.string(),
    length: z.int().min(0).meta({ description: 'Periods in a row now; 0 once broken.' }),
    longest: z.int().min(0),
    freezes: z.int().min(0).meta({ description: 'Freezes left.' }),
  }),
});
export type StreakResultData = z.output<typeof streakResultShape>;

export const referralResultShape = z.object({ referral: referralShape });
export type ReferralResultData = z.output<typeof referralResultShape>;

export const webhookDisabledShape = z.object({
  subscription: z.object({ id: uuidV7('The subscription.'), url: z.string().meta({ format: 'uri' }) }),
  reason: z.enum(['failing', 'gone']).meta({
    description:
      '`failing`: no attempt has succeeded since a failure older than the disable threshold (5 days by default); ' +
      '`gone`: it answered 410 Gone.',
  }),
});
export type WebhookDisabledData = z.output<typeof webhookDisabledShape>;

/**
 * `webhook.test`: sent only by `POST /v1/webhook-subscriptions/{id}/test`, straight to that
 * receiver; never stored and never subscribable, so it is not in the catalogue.
 */
export const webhookTestShape = z.object({
  subscription_id: uuidV7('The subscription tested.'),
  message: z.string(),
});
export type WebhookTestData = z.output<typeof webhookTestShape>;

/** The types the catalogue lists: the result types, and `webhook.disabled`. */
export type CatalogueType = ResultType | 'webhook.disabled';

interface ResultDoc<S extends z.ZodType = z.ZodType> {
  shape: S;
  /** A few words, for the OpenAPI document's list of webhooks. */
  summary: string;
  description: string;
  example: z.output<S>;
}

/** Ties an example to its shape at compile time (and the catalogue test checks it against the JSON Schema). */
const doc = <S extends z.ZodType>(d: ResultDoc<S>): ResultDoc<S> => ({
  ...d,
  shape: d.shape.meta({ description: d.description }),
});

const P = { external_id: 'user-1842' };
const AT = '2026-11-22T10:00:00.000Z';
const RUN = '019a7c52-70a4-7f12-8d3e-5b6c7d8e9f01';
const REFERRAL = {
  id: '019a7c52-7a10-7c55-a1b2-c3d4e5f60718',
  code: 'K7M2QX9P',
  advocate: { external_id: 'user-1842' },
  friend: { external_id: 'user-2051' },
  status: 'qualified',
  reason: null,
  created_at: '2026-11-20T09:12:00.000Z',
  expires_at: '2026-12-20T09:12:00.000Z',
  qualified_at: AT,
  reward_available_at: '2026-12-06T10:00:00.000Z',
  rewarded_at: null,
  clawed_back_at: null,
} as const;

/**
 * Every catalogued type's `data` shape, description and example. Keyed by {@link CatalogueType}:
 * a result type added to emit.ts without an entry here fails the typecheck.
 */
export const RESULT_DOCS = {
  'badge.awarded': doc({
    summary: 'A badge was awarded',
    shape: badgeAwardedShape,
    description:
      'A participant was awarded a badge (a key and tier are held once): by a flow (`flow_run_id`), by the ' +
      'badge’s criteria (`achievement: true`) or by a referral (`referral_id`).',
    example: {
      participant: P,
      badge: { key: 'first-order', tier: '', name: 'First order' },
      flow_run_id: RUN,
    },
  }),
  'points.changed': doc({
    summary: 'A ledger entry was posted',
    shape: pointsChangedShape,
    description:
      'A ledger entry was posted (flow award, adjustment, redemption, reversal or expiry): the entry and the ' +
      'balance it left.',
    example: {
      participant: P,
      entry: {
        id: 48213,
        points: 120,
        balance_after: 470,
        reason: 'Order completed',
        source: 'flow',
        reference: RUN,
        reverses_entry_id: null,
        idempotency_key: '019a7c52-6f1e-7b3a-9c41-2d5e8f0a1b2c:019a7c52-6000-7a00-8b00-0c0d0e0f1011:0',
        expires_at: null,
        capped_points: 0,
        created_at: AT,
      },
      balance: 470,
    },
  }),
  'points.expiring': doc({
    summary: 'Points will expire soon',
    shape: pointsExpiringShape,
    description:
      'A lot of points will expire soon (`expiry_notice` before `expires_at`; once per lot): what is left ' +
      'of it and the current balance.',
    example: { participant: P, points: 80, expires_at: '2026-12-01T00:00:00.000Z', balance: 470 },
  }),
  'reward.redeemed': doc({
    summary: 'A reward was redeemed',
    shape: rewardRedeemedShape,
    description:
      'A participant redeemed a reward: the redemption (with what was handed out) and the reward. An ' +
      'external reward’s comes once its fulfilment succeeded.',
    example: {
      participant: P,
      redemption: {
        id: 9310,
        reward_id: 12,
        participant: P,
        status: 'fulfilled',
        fulfilment: { type: 'voucher_code', code: 'SAVE10-8F3K' },
        cost_points: 500,
        idempotency_key: 'order-77120-redeem',
        is_sandbox: false,
        created_at: AT,
        updated_at: AT,
      },
      reward: { id: 12, name: '10% off', type: 'voucher_code' },
    },
  }),
  'flow.completed': doc({
    summary: 'A flow run ended',
    shape: flowCompletedShape,
    description:
      'A flow run ended for good: `completed`, `skipped` (every step skipped) or `failed` (after the event’s ' +
      'last retry). Once per run.',
    example: {
      participant: P,
      flow: { id: '019a7c52-6000-7a00-8b00-0c0d0e0f1011', name: 'Points per order' },
      flow_run_id: RUN,
      event_id: '019a7c52-6f1e-7b3a-9c41-2d5e8f0a1b2c',
      status: 'completed',
    },
  }),
  'message.sent': doc({
    summary: 'A message was sent',
    shape: messageSentShape,
    description: 'A flow’s message was sent (live) or rendered (test mode, `simulated`).',
    example: {
      participant: P,
      message: {
        id: '019a7c52-71b0-7d20-9e30-4f5061728394',
        template: 'welcome',
        channel: 'email',
        status: 'sent',
      },
    },
  }),
  'tier.changed': doc({
    summary: 'A participant changed tier level',
    shape: tierChangedShape,
    description:
      'A participant moved between tier levels (qualified, downgraded, set by hand, or a programme change); ' +
      '`from` or `to` is null outside any level.',
    example: {
      participant: P,
      from: { key: 'silver', name: 'Silver' },
      to: { key: 'gold', name: 'Gold' },
      reason: 'qualified',
      qualifying_points: 520,
    },
  }),
  'streak.extended': doc({
    summary: 'A streak grew',
    shape: streakResultShape,
    description: 'A participant’s streak grew by one period.',
    example: { participant: P, streak: { key: 'daily-workout', length: 5, longest: 12, freezes: 1 } },
  }),
  'streak.broken': doc({
    summary: 'A streak ended',
    shape: streakResultShape,
    description:
      'A participant’s streak ended: a period passed with no event and no freeze left to cover it.',
    example: { participant: P, streak: { key: 'daily-workout', length: 0, longest: 12, freezes: 0 } },
  }),
  'referral.qualified': doc({
    summary: 'A referral qualified',
    shape: referralResultShape,
    description:
      'A referred friend’s qualifying event arrived in time: the friend’s actions ran, and the advocate’s ' +
      'reward waits until `reward_available_at`.',
    example: { referral: REFERRAL },
  }),
  'referral.rewarded': doc({
    summary: 'A referral’s advocate was rewarded',
    shape: referralResultShape,
    description: 'A qualified referral’s hold ended: the advocate’s points were credited and badges awarded.',
    example: {
      referral: { ...REFERRAL, status: 'rewarded', rewarded_at: '2026-12-06T10:00:01.000Z' },
    },
  }),
  'webhook.disabled': doc({
    summary: 'A webhook subscription was disabled',
    shape: webhookDisabledShape,
    description:
      'One of the workspace’s webhook subscriptions was disabled (sent to its other subscriptions); ' +
      '`PATCH { status: "active" }` enables it again.',
    example: {
      subscription: { id: '019a7c52-7c00-7a11-b222-c333d444e555', url: 'https://hooks.example.com/svc' },
      reason: 'failing',
    },
  }),
} satisfies Record<CatalogueType, ResultDoc>;

/** The `data` of a catalogued type, as its emitters must build it. */
export type ResultData<T extends CatalogueType> = z.output<(typeof RESULT_DOCS)[T]['shape']>;
