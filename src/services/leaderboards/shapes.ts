import { z } from 'zod';
import { timestamp } from '../../lib/shapes.ts';
import { leaderboardPeriod as period } from './periods.ts';

/** A leaderboard definition (docs/api.md#participants-points-and-leaderboards); `points` (all time) always exists. */
export const leaderboardShape = z
  .object({
    key: z.string(),
    name: z.string(),
    period,
    created_at: timestamp('Null for the built-in `points` board.').nullable(),
  })
  .meta({ id: 'Leaderboard' });
export type LeaderboardDto = z.output<typeof leaderboardShape>;

/** One participant's rank and score (`GET …/participants/{external_id}`). */
export const standingShape = z
  .object({ rank: z.int().min(1), score: z.int().min(0) })
  .meta({ id: 'LeaderboardStanding' });

const placeShape = z.object({ rank: z.int().min(1), external_id: z.string(), score: z.int().min(1) });
/** A place in a board's top list. */
export type Standing = z.output<typeof placeShape>;

export const leaderboardPageShape = z
  .object({
    data: z.array(placeShape),
    meta: z.object({
      key: z.string(),
      period,
      period_start: timestamp('Start of the current period (UTC); null for all time.').nullable(),
      period_end: timestamp('End of the current period (exclusive); null for all time.').nullable(),
    }),
  })
  .meta({ id: 'LeaderboardPage' });
export type LeaderboardPage = z.output<typeof leaderboardPageShape>;
