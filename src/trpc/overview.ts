import { overview, overviewInput } from '../services/overview/overview.ts';
import { router, sessionProcedure, withMode } from './trpc.ts';

/** The dashboard's overview: daily charts over the rollup plus its tail (services/overview). */
export const overviewRouter = router({
  get: sessionProcedure
    .input(withMode(overviewInput))
    .query(({ ctx, input: { mode, ...input } }) => overview(ctx.app, ctx.as(mode), input)),
});
