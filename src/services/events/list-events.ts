import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { keysetFind, type Page, pageInput } from '../../lib/pagination.ts';
import { runsOfEvent } from '../flows/list-flow-runs.ts';
import type { FlowRunDto } from '../flows/presenters.ts';
import type { Principal } from '../keys/principal.ts';
import { parseInput } from '../validation.ts';
import { Event } from './entities.ts';
import { type EventDto, presentEvent } from './presenters.ts';

export const listEventsInput = pageInput.extend({
  status: z.enum(['received', 'processed', 'failed', 'quarantined']).optional(),
  event_type: z.string().max(128).optional(),
  participant: z.string().max(255).optional(),
  since: z.iso.datetime({ offset: true }).or(z.iso.date()).optional(),
});
export type ListEventsInput = z.input<typeof listEventsInput>;

/** The event log, newest first, filtered by status, type, participant and `since` (SPEC 4.4). */
export async function listEvents(ctx: AppContext, who: Principal, input: unknown): Promise<Page<EventDto>> {
  const q = parseInput(listEventsInput, input);
  const em = ctx.orm.em.fork();
  const where: Record<string, unknown> = { workspace: who.workspaceId, mode: who.mode };
  if (q.status) where.status = q.status;
  if (q.event_type) where.eventType = q.event_type;
  if (q.participant) where.externalId = q.participant;
  if (q.since) where.receivedAt = { $gte: new Date(q.since) };
  return ctx.paginator.page(
    q,
    (e: Event) => e.id,
    (range) => em.find(Event, ...keysetFind(range, where)),
    presentEvent,
  );
}

/** One event of the caller's workspace and mode, with its flow runs and its processing error. */
export async function getEvent(
  ctx: AppContext,
  who: Principal,
  id: string,
): Promise<EventDto & { error: string | null; processed_at: string | null; flow_runs: FlowRunDto[] }> {
  const valid = z.uuid().safeParse(id);
  const event = valid.success
    ? await ctx.orm.em.fork().findOne(Event, { id, workspace: who.workspaceId, mode: who.mode })
    : null;
  if (!event) throw notFound('event');
  return {
    ...presentEvent(event),
    error: event.error ?? null,
    processed_at: event.processedAt?.toISOString() ?? null,
    flow_runs: await runsOfEvent(ctx, who, event.id),
  };
}
