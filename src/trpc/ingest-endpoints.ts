import { pageInput } from '../lib/pagination.ts';
import {
  createIngestEndpoint,
  createIngestEndpointInput,
  deleteIngestEndpoint,
  listIngestEndpoints,
} from '../services/events/ingest-endpoints.ts';
import { idInput } from './events.ts';
import { router, sessionProcedure, withMode } from './trpc.ts';

/** Signed ingest endpoints (POST /v1/ingest/{key}); `create` is the only answer that carries the secret. */
export const ingestEndpointsRouter = router({
  list: sessionProcedure
    .input(withMode(pageInput))
    .query(({ ctx, input: { mode, ...input } }) => listIngestEndpoints(ctx.app, ctx.as(mode), input)),
  create: sessionProcedure
    .input(withMode(createIngestEndpointInput))
    .mutation(({ ctx, input: { mode, ...input } }) => createIngestEndpoint(ctx.app, ctx.as(mode), input)),
  delete: sessionProcedure
    .input(withMode(idInput))
    .mutation(({ ctx, input: { mode, id } }) => deleteIngestEndpoint(ctx.app, ctx.as(mode), id)),
});
