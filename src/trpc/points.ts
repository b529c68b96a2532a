import { z } from 'zod';
import {
  listPendingGrants,
  listPendingInput,
  settlePendingGrant,
} from '../services/points/pending-points.ts';
import { participantPoints } from '../services/points/points-view.ts';
import { getProgram, updateProgram } from '../services/points/program.ts';
import { updateProgramInput } from '../services/points/shapes.ts';
import { router, sessionProcedure, withMode } from './trpc.ts';

const externalId = { externalId: z.string().min(1).max(255) };
const byGrant = z.strictObject({ id: z.string().min(1).max(64) });

/** The dashboard's programme page (settings) and a participant's lots and pending grants. */
export const pointsRouter = router({
  program: sessionProcedure
    .input(withMode(z.strictObject({})))
    .query(({ ctx, input }) => getProgram(ctx.app, ctx.as(input.mode))),
  updateProgram: sessionProcedure
    .input(withMode(updateProgramInput))
    .mutation(({ ctx, input: { mode, ...patch } }) => updateProgram(ctx.app, ctx.as(mode), patch)),
  lots: sessionProcedure
    .input(withMode(z.strictObject(externalId)))
    .query(({ ctx, input }) => participantPoints(ctx.app, ctx.as(input.mode), input.externalId)),
  pending: sessionProcedure
    .input(withMode(listPendingInput.extend(externalId)))
    .query(({ ctx, input: { mode, externalId: id, ...page } }) =>
      listPendingGrants(ctx.app, ctx.as(mode), id, page),
    ),
  activate: sessionProcedure
    .input(withMode(byGrant))
    .mutation(({ ctx, input }) => settlePendingGrant(ctx.app, ctx.as(input.mode), input.id, 'activated')),
  cancel: sessionProcedure
    .input(withMode(byGrant))
    .mutation(({ ctx, input }) => settlePendingGrant(ctx.app, ctx.as(input.mode), input.id, 'cancelled')),
});
