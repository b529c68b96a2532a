import { z } from 'zod';
import { backfillBadge } from '../services/achievements/backfill.ts';
import { participantAchievements } from '../services/achievements/progress.ts';
import { backfillInput } from '../services/achievements/shapes.ts';
import {
  BADGE_KEY_LENGTH,
  defineBadge,
  defineBadgeInput,
  listBadges,
} from '../services/badges/manage-badges.ts';
import { router, sessionProcedure, withMode } from './trpc.ts';

/** The dashboard's achievements page (badges, their criteria and rarity, backfills) and a participant's progress. */
export const achievementsRouter = router({
  /** Every badge of the catalogue, by key, with its criteria (null: flows only) and holders. */
  badges: sessionProcedure
    .input(withMode(z.strictObject({})))
    .query(async ({ ctx, input }) => ({ data: await listBadges(ctx.app, ctx.as(input.mode)) })),
  /** Defines a badge or replaces one (same key): name, description, image, tiers and criteria. */
  define: sessionProcedure
    .input(withMode(defineBadgeInput))
    .mutation(({ ctx, input: { mode, ...body } }) => defineBadge(ctx.app, ctx.as(mode), body)),
  /** `dry_run`: how many would be awarded; otherwise the backfill is queued. */
  backfill: sessionProcedure
    .input(withMode(backfillInput.extend({ key: z.string().min(1).max(BADGE_KEY_LENGTH) })))
    .mutation(({ ctx, input: { mode, key, ...body } }) => backfillBadge(ctx.app, ctx.as(mode), key, body)),
  participant: sessionProcedure
    .input(withMode(z.strictObject({ externalId: z.string().min(1).max(255) })))
    .query(({ ctx, input }) => participantAchievements(ctx.app, ctx.as(input.mode), input.externalId)),
});
