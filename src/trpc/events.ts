import { z } from 'zod';
import { getEvent, listEvents, listEventsInput } from '../services/events/list-events.ts';
import { replayEvent, replayEventBody } from '../services/events/replay.ts';
import { router, sessionProcedure, withMode } from './trpc.ts';

export const idInput = z.strictObject({ id: z.string().min(1).max(64) });

/** The event log in the workspace's live or test data, and the replay of a quarantined event with its fixes. */
export const eventsRouter = router({
  list: sessionProcedure
    .input(withMode(listEventsInput))
    .query(({ ctx, input: { mode, ...input } }) => listEvents(ctx.app, ctx.as(mode), input)),
  get: sessionProcedure
    .input(withMode(idInput))
    .query(({ ctx, input: { mode, id } }) => getEvent(ctx.app, ctx.as(mode), id)),
  replay: sessionProcedure
    .input(withMode(replayEventBody.extend({ id: z.uuid() })))
    .mutation(({ ctx, input: { mode, id, ...fixes } }) => replayEvent(ctx.app, ctx.as(mode), id, fixes)),
});
