import { z } from 'zod';
import { timestamp } from '../../lib/shapes.ts';
import { achievementShape } from '../achievements/shapes.ts';
import { eventShape } from '../events/shapes.ts';
import { ledgerEntryShape } from '../ledger/shapes.ts';
import { messageShape } from '../messages/shapes.ts';
import { lotShape, nextExpiryShape, pendingGrantShape } from '../points/shapes.ts';
import { referralCodeShape, referralShape } from '../referrals/shapes.ts';
import { activeMultiplierShape, redemptionShape } from '../rewards/shapes.ts';
import { participantStreakShape } from '../streaks/shapes.ts';
import { participantTierShape, tierMoveShape } from '../tiers/shapes.ts';
import { webhookDeliveryDetailShape } from '../webhooks/shapes.ts';

/** A participant as every door shows it (docs/api.md#participants-points-and-leaderboards). */
export const participantShape = z
  .object({
    external_id: z.string().meta({ description: 'The caller’s own identifier.' }),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    name: z.string().nullable(),
    timezone: z.string().nullable().meta({
      description:
        'IANA time zone of their streak periods; null: the programme’s (docs/engagement.md#streaks).',
    }),
    balance: z.int().min(0).meta({ description: 'Spendable points; never negative.' }),
    lifetime_points: z
      .int()
      .min(0)
      .meta({ description: 'Points ever earned (flows and credits), minus reversed ones.' }),
    pending_points: z.int().min(0).meta({
      description: 'Flow-awarded points waiting to become spendable (docs/points.md#pending-points).',
    }),
    next_expiry: nextExpiryShape
      .nullable()
      .meta({ description: 'The soonest expiry of open points; null: none.' }),
    tier: participantTierShape.nullable().meta({
      description: 'Their level in the tier programme (docs/tiers.md#reads); null: no programme runs.',
    }),
    created_at: timestamp('Created by its first event or adjustment.'),
    updated_at: timestamp('Last change.'),
  })
  .meta({ id: 'Participant' });
export type ParticipantDto = z.output<typeof participantShape>;

export const participantSummaryShape = z
  .object({
    external_id: z.string(),
    balance: z.int(),
    lifetime_points: z.int(),
    pending_points: z.int().min(0),
    next_expiry: nextExpiryShape.nullable(),
    tier: participantTierShape.nullable(),
    badges_count: z.int(),
    redemptions_count: z.int(),
    events_count: z.int(),
    rank: z.int().meta({ description: 'Competition rank on the all-time `points` leaderboard.' }),
    active_multiplier: activeMultiplierShape
      .nullable()
      .meta({ description: 'The highest active points multiplier.' }),
  })
  .meta({ id: 'ParticipantSummary' });
export type ParticipantSummary = z.output<typeof participantSummaryShape>;

export const participantBadgeShape = z
  .object({
    key: z.string(),
    tier: z.string().nullable().meta({ description: 'Null for a badge without tiers.' }),
    name: z.string(),
    awarded_at: timestamp('When it was awarded.'),
    flow_run_id: z.string().nullable().meta({ description: 'The flow run that awarded it.' }),
  })
  .meta({ id: 'ParticipantBadge' });
export type ParticipantBadgeDto = z.output<typeof participantBadgeShape>;

/** A participant token as minted: shown once. */
export const participantTokenShape = z
  .object({
    token: z.string().meta({
      description:
        'Send as `Authorization: Bearer <token>` to /graphql, or in graphql-ws `connectionParams`.',
      examples: ['svc_pt_eyJ2IjoxLCJ3Ijoi….9oG1t2nK…'],
    }),
    expires_at: z.string().meta({ format: 'date-time', description: 'When the token stops working.' }),
  })
  .meta({ id: 'ParticipantToken' });
export type ParticipantTokenDto = z.output<typeof participantTokenShape>;

export const erasedShape = z.object({ erased: z.literal(true) });

/**
 * The list sections of a subject-access export, each at most `limit` items (the newest, or the
 * first in the order its own endpoint answers).
 */
export const EXPORT_SECTIONS = [
  'ledger',
  'points_lots',
  'pending_grants',
  'badges',
  'achievements',
  'streaks',
  'tier_history',
  'referrals',
  'redemptions',
  'events',
  'messages',
  'webhook_deliveries',
] as const;

/**
 * `GET /v1/participants/{external_id}/export` (GDPR article 15): everything held about one
 * participant, each item in the shape its own REST endpoint returns.
 */
export const participantExportShape = z
  .object({
    participant: participantShape,
    generated_at: timestamp('When this document was assembled.'),
    ledger: z.array(ledgerEntryShape).meta({ description: 'Ledger entries, newest first.' }),
    points_lots: z.array(lotShape).meta({
      description:
        'Open lots, in the order debits consume them (soonest expiry first, never-expiring last), as ' +
        '`GET /v1/participants/{external_id}/points` lists them.',
    }),
    pending_grants: z.array(pendingGrantShape).meta({
      description: 'Pending grants (pending, activated or cancelled), newest first, as `…/pending-points`.',
    }),
    badges: z.array(participantBadgeShape).meta({ description: 'Badges held, newest award first.' }),
    achievements: z.array(achievementShape).meta({
      description: 'Progress toward every badge with criteria, by key, counted now, as `…/achievements`.',
    }),
    streaks: z.array(participantStreakShape).meta({
      description: 'Every running streak as it stands now, by key, as `…/streaks`.',
    }),
    tier_history: z.array(tierMoveShape).meta({
      description: 'Tier moves, newest first, as `…/tier-history` (the current tier is on `participant`).',
    }),
    referrals: z.array(referralShape).meta({
      description:
        'Referrals where it is the advocate or the friend, newest first, as `GET /v1/referrals/{id}` shows ' +
        'them (the other side by external id only).',
    }),
    referral_code: referralCodeShape.nullable().meta({
      description:
        'Its referral code as `…/referral-code` answers; null: none was ever made (the export makes none).',
    }),
    redemptions: z
      .array(redemptionShape)
      .meta({ description: 'Redemptions with their fulfilment (codes included), newest first.' }),
    events: z
      .array(eventShape)
      .meta({ description: 'Events of this participant (quarantined ones naming it too), newest first.' }),
    messages: z.array(messageShape).meta({ description: 'Messages sent or simulated to it, newest first.' }),
    webhook_deliveries: z.array(webhookDeliveryDetailShape).meta({
      description: 'Webhook deliveries of results that name this participant, with payload and attempts.',
    }),
    limit: z.int().meta({ description: 'The most items any one section holds.' }),
    truncated: z.array(z.enum(EXPORT_SECTIONS)).meta({
      description:
        'Sections that held more than `limit` items and show `limit` only (the newest; lots: the first to be ' +
        'consumed); the rest stays readable through that section’s paginated endpoint or a bulk export ' +
        '(`POST /v1/exports`).',
    }),
  })
  .meta({ id: 'ParticipantExport' });
export type ParticipantExportDto = z.output<typeof participantExportShape>;
