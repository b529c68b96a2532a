import { z } from 'zod';
import { listBadges } from '../services/badges/manage-badges.ts';
import { createFlowInput, updateFlowInput } from '../services/flows/flow-schemas.ts';
import { getFlowRun, listFlowRuns, listFlowRunsInput } from '../services/flows/list-flow-runs.ts';
import {
  createFlow,
  deleteFlow,
  getFlow,
  listFlows,
  listFlowsInput,
  updateFlow,
} from '../services/flows/manage-flows.ts';
import { router, sessionProcedure, withMode } from './trpc.ts';

const idInput = z.object({ id: z.string().min(1).max(64) });

/** The dashboard's flows page: flows (read, create, change, delete), their runs, the badge catalogue. */
export const flowsRouter = router({
  list: sessionProcedure
    .input(withMode(listFlowsInput))
    .query(({ ctx, input: { mode, ...input } }) => listFlows(ctx.app, ctx.as(mode), input)),
  get: sessionProcedure
    .input(withMode(idInput))
    .query(({ ctx, input: { mode, id } }) => getFlow(ctx.app, ctx.as(mode), id)),
  create: sessionProcedure
    .input(withMode(createFlowInput))
    .mutation(({ ctx, input: { mode, ...input } }) => createFlow(ctx.app, ctx.as(mode), input)),
  update: sessionProcedure
    .input(withMode(idInput.extend({ patch: updateFlowInput })))
    .mutation(({ ctx, input: { mode, id, patch } }) => updateFlow(ctx.app, ctx.as(mode), id, patch)),
  delete: sessionProcedure
    .input(withMode(idInput))
    .mutation(({ ctx, input: { mode, id } }) => deleteFlow(ctx.app, ctx.as(mode), id)),
  runs: router({
    list: sessionProcedure
      .input(withMode(listFlowRunsInput))
      .query(({ ctx, input: { mode, ...input } }) => listFlowRuns(ctx.app, ctx.as(mode), input)),
    get: sessionProcedure
      .input(withMode(idInput))
      .query(({ ctx, input: { mode, id } }) => getFlowRun(ctx.app, ctx.as(mode), id)),
  }),
  badges: sessionProcedure
    .input(withMode(z.object({})))
    .query(async ({ ctx, input: { mode } }) => ({ data: await listBadges(ctx.app, ctx.as(mode)) })),
});
