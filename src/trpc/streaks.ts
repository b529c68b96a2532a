import { z } from 'zod';
import {
  archiveStreak,
  createStreak,
  getStreak,
  listStreaks,
  updateStreak,
} from '../services/streaks/definitions.ts';
import { participantStreaks } from '../services/streaks/participant-streaks.ts';
import { createStreakInput, streakKey, updateStreakInput } from '../services/streaks/shapes.ts';
import { router, sessionProcedure, withMode } from './trpc.ts';

const byKey = { key: streakKey };

/** The dashboard's streaks page (definitions: list, create, change, archive) and a participant's streaks. */
export const streaksRouter = router({
  list: sessionProcedure
    .input(withMode(z.strictObject({ includeArchived: z.boolean().optional() })))
    .query(({ ctx, input }) => listStreaks(ctx.app, ctx.as(input.mode), input.includeArchived ?? false)),
  get: sessionProcedure
    .input(withMode(z.strictObject(byKey)))
    .query(({ ctx, input }) => getStreak(ctx.app, ctx.as(input.mode), input.key)),
  create: sessionProcedure
    .input(withMode(createStreakInput))
    .mutation(({ ctx, input: { mode, ...body } }) => createStreak(ctx.app, ctx.as(mode), body)),
  update: sessionProcedure
    .input(withMode(updateStreakInput.extend(byKey)))
    .mutation(({ ctx, input: { mode, key, ...body } }) => updateStreak(ctx.app, ctx.as(mode), key, body)),
  archive: sessionProcedure
    .input(withMode(z.strictObject(byKey)))
    .mutation(({ ctx, input }) => archiveStreak(ctx.app, ctx.as(input.mode), input.key)),
  participant: sessionProcedure
    .input(withMode(z.strictObject({ externalId: z.string().min(1).max(255) })))
    .query(({ ctx, input }) => participantStreaks(ctx.app, ctx.as(input.mode), input.externalId)),
});
