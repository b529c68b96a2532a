import { z } from 'zod';
import { timestamp } from '../../lib/shapes.ts';

/** One achievement of a participant: a badge with criteria and how far they are toward it. */
export const achievementShape = z
  .object({
    badge: z.object({
      key: z.string(),
      tier: z.string().nullable().meta({ description: 'The tier the criteria award; null: none.' }),
      name: z.string(),
    }),
    progress: z.number().meta({
      description: 'The count or sum of their matching processed events in the window ending now.',
    }),
    target: z.number(),
    percent: z
      .int()
      .min(0)
      .max(100)
      .meta({ description: 'min(100, floor(progress × 100 / target)); 100 once completed.' }),
    completed_at: timestamp('When they were awarded the badge (key and tier); null: not held.').nullable(),
  })
  .meta({ id: 'Achievement' });
export type AchievementDto = z.output<typeof achievementShape>;

export const achievementListShape = z
  .object({ data: z.array(achievementShape) })
  .meta({ id: 'AchievementList' });
export type AchievementList = z.output<typeof achievementListShape>;

/** `POST /v1/badges/{key}/backfill`. */
export const backfillInput = z
  .strictObject({
    dry_run: z
      .boolean()
      .optional()
      .meta({ description: 'True: only count who would be awarded (200), change nothing.' }),
  })
  .meta({ id: 'BadgeBackfillInput' });
export type BackfillInput = z.output<typeof backfillInput>;

export const backfillDryRunShape = z
  .object({
    would_award: z.int().min(0).meta({
      description: 'Participants who meet the criteria now (window ending now) and do not hold the badge.',
    }),
  })
  .meta({ id: 'BadgeBackfillDryRun' });

export const backfillQueuedShape = z.object({ queued: z.literal(true) }).meta({ id: 'BadgeBackfillQueued' });

export type BackfillResult = { would_award: number } | { queued: true };
