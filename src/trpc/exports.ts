import { z } from 'zod';
import { getExport, listExports, listExportsInput } from '../services/exports/list-exports.ts';
import { createExportInput, requestExport } from '../services/exports/request-export.ts';
import { router, sessionProcedure, withMode } from './trpc.ts';

/** Exports for the dashboard's exports page (docs/dashboard.md#pages): request, list, and each one's download path. */
export const exportsRouter = router({
  list: sessionProcedure
    .input(withMode(listExportsInput))
    .query(({ ctx, input: { mode, ...input } }) => listExports(ctx.app, ctx.as(mode), input)),
  get: sessionProcedure
    .input(withMode(z.object({ id: z.string().max(64) })))
    .query(({ ctx, input: { mode, id } }) => getExport(ctx.app, ctx.as(mode), id)),
  create: sessionProcedure
    .input(withMode(createExportInput))
    .mutation(({ ctx, input: { mode, ...input } }) => requestExport(ctx.app, ctx.as(mode), input)),
});
