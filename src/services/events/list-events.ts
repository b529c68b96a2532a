import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { pageInput } from '../../lib/pagination.ts';
import { text } from '../../lib/primitives.ts';
import { runsOfEvent } from '../flows/list-flow-runs.ts';
import type { Principal } from '../keys/principal.ts';
import { pagedList } from '../paged-list.ts';
import type { Event } from './entities.ts';
import { LIMITS } from './event-input.ts';
import { presentEvent } from './presenters.ts';
import { eventById, pageEvents } from './repository.ts';
import { EVENT_STATUSES, type EventDetailDto } from './shapes.ts';

export const listEventsInput = pageInput.extend({
  status: z.enum(EVENT_STATUSES).optional(),
  event_type: text(LIMITS.eventTypeLength).optional(),
  participant: text(LIMITS.externalIdLength).optional(),
  since: z.iso.datetime({ offset: true }).or(z.iso.date()).optional(),
});
export type ListEventsInput = z.output<typeof listEventsInput>;

/** The event log, newest first, filtered by status, type, participant and `since` (docs/api.md#routes-at-a-glance). */
export const listEvents = pagedList({
  input: listEventsInput,
  keyOf: (e: Event) => e.id,
  fetch: (ctx: AppContext, who: Principal, q, range) => pageEvents(ctx.orm, who, q, range),
  present: presentEvent,
});

/** One event of the caller's workspace and mode, with its flow runs and its processing error. */
export async function getEvent(ctx: AppContext, who: Principal, id: string): Promise<EventDetailDto> {
  const valid = z.uuid().safeParse(id);
  const event = valid.success ? await eventById(ctx.orm, who, id) : null;
  if (!event) throw notFound('event');
  return {
    ...presentEvent(event),
    error: event.error ?? null,
    processed_at: event.processedAt?.toISOString() ?? null,
    flow_runs: await runsOfEvent(ctx, who, event.id),
  };
}
