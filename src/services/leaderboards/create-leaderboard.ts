import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { uniqueViolation } from '../../db/tx.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import { validationError } from '../../errors.ts';
import { text } from '../../lib/primitives.ts';
import type { Scope } from '../keys/principal.ts';
import { BUILT_IN_KEY, type LeaderboardDto, presentLeaderboard } from './boards.ts';
import { leaderboardPeriod } from './periods.ts';
import { insertBoard } from './repository.ts';

export const createLeaderboardInput = z.strictObject({
  key: text(64, { min: 1 })
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]*$/, 'letters, digits and . _ : - only, e.g. "weekly-points"')
    .refine((k) => k !== BUILT_IN_KEY, `"${BUILT_IN_KEY}" is the built-in all-time board`),
  name: text(200).trim().min(1),
  period: leaderboardPeriod.meta({
    description: 'Points earned in the UTC week (Monday first), UTC month, or ever.',
  }),
});
export type CreateLeaderboardInput = z.output<typeof createLeaderboardInput>;

/**
 * `POST /v1/leaderboards`: a named board over one period. Boards of the same period share the
 * same maintained scores, so adding one costs nothing at write time.
 */
export async function createLeaderboard(
  ctx: AppContext,
  who: Scope,
  body: CreateLeaderboardInput,
): Promise<LeaderboardDto> {
  try {
    return presentLeaderboard(await unitOfWork(ctx, ({ em }) => insertBoard(em, who, body)));
  } catch (err) {
    if (uniqueViolation(err) === 'leaderboards_workspace_id_mode_key_unique')
      throw validationError([{ field: 'key', message: 'a leaderboard with this key already exists' }]);
    throw err;
  }
}
