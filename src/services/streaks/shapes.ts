import { z } from 'zod';
import { text } from '../../lib/primitives.ts';
import { LIMITS } from '../events/event-input.ts';

/** A streak's key: letters, digits and `. _ : -`. */
export const streakKey = text(64, { min: 1 }).regex(
  /^[A-Za-z0-9][A-Za-z0-9_.:-]*$/,
  'letters, digits and . _ : - only, e.g. "daily-workout"',
);

export const frequencyShape = z.enum(['daily', 'weekly', 'monthly']).meta({
  description: 'A calendar day, an ISO week (Monday first) or a month, in the participant’s time zone.',
});

const freezesShape = z
  .strictObject({
    initial: z.int().min(0).max(10).meta({ description: 'Freezes a participant starts with.' }),
    max: z.int().min(0).max(10).meta({ description: 'The most they can hold.' }),
    earn_every: z
      .int()
      .min(1)
      .max(1000)
      .optional()
      .meta({ description: 'A freeze is earned every this many extended periods, up to `max`.' }),
  })
  .refine((f) => f.initial <= f.max, { message: 'initial must not exceed max', path: ['initial'] });

const eventTypesShape = z.array(text(LIMITS.eventTypeLength).trim().min(1)).min(1).max(50);

export const createStreakInput = z
  .strictObject({
    key: streakKey,
    name: text(200).trim().min(1),
    event_types: eventTypesShape,
    frequency: frequencyShape,
    freezes: freezesShape.optional(),
  })
  .meta({ id: 'StreakInput' });
export type CreateStreakInput = z.output<typeof createStreakInput>;

export const updateStreakInput = z
  .strictObject({
    name: text(200).trim().min(1).optional(),
    event_types: eventTypesShape.optional(),
    freezes: freezesShape.optional(),
  })
  .meta({
    id: 'StreakUpdate',
    description: 'The frequency cannot change (periods would change meaning): archive and create another.',
  });
export type UpdateStreakInput = z.output<typeof updateStreakInput>;

export const streakShape = z
  .object({
    key: z.string(),
    name: z.string(),
    event_types: z.array(z.string()),
    frequency: frequencyShape,
    freezes: z.object({ initial: z.int(), max: z.int(), earn_every: z.int().nullable() }),
    archived_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Streak' });
export type StreakDto = z.output<typeof streakShape>;

export const periodStatusShape = z.enum(['extended', 'frozen', 'missed']);

export const participantStreakShape = z
  .object({
    key: z.string(),
    name: z.string(),
    frequency: frequencyShape,
    length: z.int().meta({ description: 'Consecutive extended periods; 0 once it can no longer be saved.' }),
    longest: z.int(),
    period_start: z.string().meta({ description: 'The current period’s first instant.' }),
    period_end: z.string(),
    extended_this_period: z.boolean(),
    at_risk: z
      .boolean()
      .meta({ description: 'It has a length, was not extended this period and no freeze is left.' }),
    freezes: z.int(),
    expires_at: z
      .string()
      .nullable()
      .meta({ description: 'The end of the last period that could still save it.' }),
    history: z
      .array(
        z.object({ period_start: z.string().meta({ description: 'YYYY-MM-DD' }), status: periodStatusShape }),
      )
      .meta({ description: 'The last 30 periods’ outcomes, oldest first.' }),
  })
  .meta({ id: 'ParticipantStreak' });
export type ParticipantStreakDto = z.output<typeof participantStreakShape>;
