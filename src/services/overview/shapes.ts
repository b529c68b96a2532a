import { z } from 'zod';

/** One UTC day of the overview's charts. */
export const overviewDayShape = z.object({
  day: z.string(),
  events: z.int(),
  quarantined: z.int(),
  points_issued: z.int(),
  points_redeemed: z.int(),
  webhook_attempts: z.int(),
  webhook_succeeded: z.int(),
  /** Succeeded ÷ attempts (0–1), null on a day without attempts. */
  webhook_success_rate: z.number().nullable(),
});
export type OverviewDay = z.output<typeof overviewDayShape>;

/** The dashboard's overview (docs/dashboard.md#overview): days, redemptions by reward, totals. */
export const overviewShape = z.object({
  from: z.string(),
  to: z.string(),
  days: z.array(overviewDayShape),
  redemptions_by_reward: z.array(z.object({ reward_id: z.string(), name: z.string(), count: z.int() })),
  totals: overviewDayShape.omit({ day: true }).extend({ redemptions: z.int() }),
});
export type Overview = z.output<typeof overviewShape>;
