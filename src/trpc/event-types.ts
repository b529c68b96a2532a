import { pageInput } from '../lib/pagination.ts';
import { listEventTypes, putEventTypeSchema, putSchemaInput } from '../services/events/event-types.ts';
import { router, sessionProcedure, withMode } from './trpc.ts';

/** Event types and their JSON Schemas (the dashboard's settings page). */
export const eventTypesRouter = router({
  list: sessionProcedure
    .input(withMode(pageInput))
    .query(({ ctx, input: { mode, ...input } }) => listEventTypes(ctx.app, ctx.as(mode), input)),
  putSchema: sessionProcedure
    .input(withMode(putSchemaInput))
    .mutation(({ ctx, input: { mode, ...input } }) => putEventTypeSchema(ctx.app, ctx.as(mode), input)),
});
