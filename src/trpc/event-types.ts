import { z } from 'zod';
import { pageInput } from '../lib/pagination.ts';
import {
  dropEventTypeSchema,
  eventTypeKey,
  listEventTypes,
  putEventTypeSchema,
  putSchemaInput,
} from '../services/events/event-types.ts';
import { router, sessionProcedure, withMode } from './trpc.ts';

/** Event types and their JSON Schemas (the dashboard's settings page). */
export const eventTypesRouter = router({
  list: sessionProcedure
    .input(withMode(pageInput))
    .query(({ ctx, input: { mode, ...input } }) => listEventTypes(ctx.app, ctx.as(mode), input)),
  putSchema: sessionProcedure
    .input(withMode(putSchemaInput))
    .mutation(({ ctx, input: { mode, ...input } }) => putEventTypeSchema(ctx.app, ctx.as(mode), input)),
  dropSchema: sessionProcedure
    .input(withMode(z.strictObject({ key: eventTypeKey })))
    .mutation(({ ctx, input: { mode, key } }) => dropEventTypeSchema(ctx.app, ctx.as(mode), key)),
});
