import { authRouter } from './auth.ts';
import { eventTypesRouter } from './event-types.ts';
import { eventsRouter } from './events.ts';
import { ingestEndpointsRouter } from './ingest-endpoints.ts';
import { router } from './trpc.ts';

/** The dashboard's API. */
export const appRouter = router({
  auth: authRouter,
  events: eventsRouter,
  eventTypes: eventTypesRouter,
  ingestEndpoints: ingestEndpointsRouter,
});

/** For the dashboard's typed client (`createTRPCClient<AppRouter>`). */
export type AppRouter = typeof appRouter;
