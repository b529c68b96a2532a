import { z } from 'zod';
import { notFound } from '../errors.ts';
import {
  replayEvent,
  replayEventBody,
  replayEventsBody,
  replayQuarantined,
} from '../services/events/replay.ts';
import type { EventAccepted, EventsReplayed } from '../services/events/shapes.ts';
import { builder } from './builder.ts';
import { asEventStatus, EventStatus } from './event-status.ts';
import { JSONScalar } from './json.ts';
import { serviceInput } from './names.ts';
import { mirror } from './shape.ts';

const canWrite = { ability: 'events:write' } as const;

/** What POST /v1/events/{id}/replay answers with 202, and whether it was a retry of that replay. */
const ReplayEventPayload = builder
  .objectRef<EventAccepted & { replayed: boolean }>('ReplayEventPayload')
  .implement({
    description: 'The new event that replays the quarantined one. Processing is asynchronous.',
    fields: mirror((t) => ({
      eventId: t.exposeID('event_id', {
        description: 'The new event (its replayOf is the quarantined one).',
      }),
      status: t.field({
        type: EventStatus,
        description: 'QUARANTINED again when the fixed event still fails its type’s schema.',
        resolve: (r) => asEventStatus(r.status),
      }),
      replayed: t.exposeBoolean('replayed', {
        description:
          'True when the event had already been replayed with the same fixes: this is that replay.',
      }),
    })),
  });

const ReplayEventsPayload = builder.objectRef<EventsReplayed>('ReplayEventsPayload').implement({
  description: 'What POST /v1/events/replay answers with 202.',
  fields: mirror((t) => ({
    replayed: t.exposeInt('replayed', {
      description:
        'How many quarantined events this call replayed (each as a new event); one replayed by a concurrent ' +
        'call is not counted again.',
    }),
  })),
});

const ReplayEventInput = builder
  .inputType('ReplayEventInput', {
    description: 'The fixes, each optional: absent (or null) keeps the event’s own.',
    fields: (t) => ({
      eventType: t.string({ description: 'The event type to replay the event as.' }),
      payload: t.field({ type: JSONScalar, description: 'The payload to replay the event with, whole.' }),
    }),
  })
  .validate(serviceInput(replayEventBody));

const ReplayEventsInput = builder
  .inputType('ReplayEventsInput', {
    description: 'Which quarantined events to replay unchanged; absent: all of them.',
    fields: (t) => ({
      eventType: t.string({ description: 'Only events of this type.' }),
      since: t.string({ description: 'Only events received at or after this ISO 8601 date or date-time.' }),
      until: t.string({ description: 'Only events received before this ISO 8601 date or date-time.' }),
    }),
  })
  .validate(serviceInput(replayEventsBody));

/** REST's path parameter is a UUID (else a 404); the same here, before the service reads it. */
const eventId = (id: string | number) => {
  if (!z.uuid().safeParse(String(id)).success) throw notFound('event');
  return String(id);
};

builder.mutationFields((t) => ({
  replayEvent: t.field({
    type: ReplayEventPayload,
    description:
      'Replays a quarantined event with the fixes given, like POST /v1/events/{id}/replay (needs events:write): ' +
      'a new event (replayOf = this one) through the ingest pipeline; this one stays quarantined and gets ' +
      'replayedAs. An event is replayed once: the same fixes again answer that replay with replayed: true; ' +
      'other fixes, or an event that is not quarantined, are invalid_state.',
    authScopes: canWrite,
    args: {
      id: t.arg.id({ required: true }),
      input: t.arg({ type: ReplayEventInput }),
    },
    resolve: (_root, { id, input }, { app, who }) => replayEvent(app, who, eventId(id), input ?? {}),
  }),
  replayEvents: t.field({
    type: ReplayEventsPayload,
    description:
      'Replays, unchanged, every quarantined event not yet replayed of the range, like POST /v1/events/replay ' +
      '(needs events:write): for after an event type’s schema was fixed. Events quarantined for a missing type ' +
      'or participant are left alone; replay those one by one with a fix.',
    authScopes: canWrite,
    args: { input: t.arg({ type: ReplayEventsInput }) },
    resolve: (_root, { input }, { app, who }) => replayQuarantined(app, who, input ?? {}),
  }),
}));
