import { z } from 'zod';
import { timestamp } from '../../lib/shapes.ts';

/** The participant object of CONTRACT 7. */
export const participantShape = z
  .object({
    external_id: z.string().meta({ description: 'The caller’s own identifier.' }),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    name: z.string().nullable(),
    balance: z.int().min(0).meta({ description: 'Spendable points; never negative.' }),
    lifetime_points: z
      .int()
      .min(0)
      .meta({ description: 'Points ever earned (flows and credits), minus reversed ones.' }),
    created_at: timestamp('Created by its first event or adjustment.'),
    updated_at: timestamp('Last change.'),
  })
  .meta({ id: 'Participant' });
export type ParticipantDto = z.output<typeof participantShape>;

export const activeMultiplierShape = z
  .object({ factor: z.number(), expires_at: timestamp('When it ends.') })
  .meta({ id: 'ActiveMultiplier' });

export const participantSummaryShape = z
  .object({
    external_id: z.string(),
    balance: z.int(),
    lifetime_points: z.int(),
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

export const erasedShape = z.object({ erased: z.literal(true) });
