import { z } from 'zod';
import { isoTime } from '../../lib/iso-time.ts';

/**
 * A change of a participant's streak, as a live subscription delivers it (GraphQL `streakChanged`,
 * docs/live-updates.md#payloads), after it commits: a `streak_changes` row, the streak as it
 * stood right after it (the same four numbers as `streak.extended` and `streak.broken` carry),
 * named by the participant's external id like the other live payloads.
 */
export const streakChangeShape = z.object({
  id: z.string().meta({ description: 'The change’s id: `after` resumes after it.' }),
  external_id: z.string(),
  change: z.enum(['extended', 'frozen', 'broken']),
  streak: z.object({ key: z.string(), length: z.int(), longest: z.int(), freezes: z.int() }),
  period_start: z.string().meta({ description: 'The period it concerns (YYYY-MM-DD, its first day).' }),
  at: z.string(),
});
export type StreakChange = z.output<typeof streakChangeShape>;

/** A `streak_changes` row with its streak's key and its participant's external id. */
export interface StreakChangeRow {
  id: string;
  external_id: string;
  key: string;
  change: StreakChange['change'];
  length: number;
  longest: number;
  freezes: number;
  period_start: string;
  at: Date;
}

export function presentStreakChange(r: StreakChangeRow): StreakChange {
  return {
    id: String(r.id),
    external_id: r.external_id,
    change: r.change,
    streak: { key: r.key, length: r.length, longest: r.longest, freezes: r.freezes },
    period_start: r.period_start,
    at: isoTime(r.at),
  };
}
