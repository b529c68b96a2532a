import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { pageInput } from '../../lib/pagination.ts';
import { TEXT_LIMITS, text } from '../../lib/primitives.ts';
import type { Principal } from '../keys/principal.ts';
import { pagedList } from '../paged-list.ts';
import { type FlowRunRow, presentFlowRun } from './presenters.ts';
import { flowRunsOf, pageFlowRuns } from './repository.ts';
import { FLOW_RUN_STATUSES, type FlowRunDto } from './shapes.ts';

export const listFlowRunsInput = pageInput.extend({
  flow_id: z.uuid().optional(),
  participant: text(TEXT_LIMITS.externalId).optional(),
  event_id: z.uuid().optional(),
  status: z.enum(FLOW_RUN_STATUSES).optional(),
});
export type ListFlowRunsInput = z.output<typeof listFlowRunsInput>;

/** One flow run of the caller's workspace and mode, with its steps; 404 otherwise. */
export async function getFlowRun(ctx: AppContext, who: Principal, id: string): Promise<FlowRunDto> {
  if (!z.uuid().safeParse(id).success) throw notFound('flow run');
  const [run] = await flowRunsOf(ctx.orm, who, { id });
  if (!run) throw notFound('flow run');
  return presentFlowRun(run);
}

/** The runs of one event, oldest first (shown by `GET /v1/events/{id}`). */
export async function runsOfEvent(ctx: AppContext, who: Principal, eventId: string): Promise<FlowRunDto[]> {
  return (await flowRunsOf(ctx.orm, who, { event_id: eventId })).map(presentFlowRun);
}

/** Flow runs, newest first, filtered by flow, participant, event and status (docs/api.md#flows). */
export const listFlowRuns = pagedList({
  input: listFlowRunsInput,
  keyOf: (r: FlowRunRow) => r.id,
  fetch: (ctx: AppContext, who: Principal, q, range) => pageFlowRuns(ctx.orm, who, q, range),
  present: presentFlowRun,
});
