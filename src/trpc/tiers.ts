import { z } from 'zod';
import { setParticipantTier, tierHistory, tierHistoryInput } from '../services/tiers/participant-tier.ts';
import { deleteTiers, getTiers, previewTiers, putTiers } from '../services/tiers/programme.ts';
import { setTierInput, tierProgrammeShape } from '../services/tiers/shapes.ts';
import { router, sessionProcedure, withMode } from './trpc.ts';

const externalId = { externalId: z.string().min(1).max(255) };

/** The dashboard's tiers page (the programme and the preview of a change) and a participant's level and moves. */
export const tiersRouter = router({
  get: sessionProcedure
    .input(withMode(z.strictObject({})))
    .query(({ ctx, input }) => getTiers(ctx.app, ctx.as(input.mode))),
  put: sessionProcedure
    .input(withMode(tierProgrammeShape))
    .mutation(({ ctx, input: { mode, ...programme } }) => putTiers(ctx.app, ctx.as(mode), programme)),
  delete: sessionProcedure
    .input(withMode(z.strictObject({})))
    .mutation(({ ctx, input }) => deleteTiers(ctx.app, ctx.as(input.mode))),
  /** A mutation although nothing changes: a programme of 20 levels with descriptions is too long for a GET's URL. */
  preview: sessionProcedure
    .input(withMode(tierProgrammeShape))
    .mutation(({ ctx, input: { mode, ...programme } }) => previewTiers(ctx.app, ctx.as(mode), programme)),
  history: sessionProcedure
    .input(withMode(tierHistoryInput.extend(externalId)))
    .query(({ ctx, input: { mode, externalId: id, ...page } }) =>
      tierHistory(ctx.app, ctx.as(mode), id, page),
    ),
  setParticipant: sessionProcedure
    .input(withMode(setTierInput.extend(externalId)))
    .mutation(({ ctx, input: { mode, externalId: id, ...body } }) =>
      setParticipantTier(ctx.app, ctx.as(mode), id, body),
    ),
});
