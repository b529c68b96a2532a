import type { EventDto } from '../services/events/presenters.ts';
import { builder } from './builder.ts';
import { mirror } from './shape.ts';

/** The participant an event names, as the event recorded it. */
export const EventParticipant = builder.objectRef<EventDto['participant']>('EventParticipant').implement({
  description: 'The participant an event names.',
  fields: mirror((t) => ({
    externalId: t.exposeString('external_id', {
      nullable: true,
      description: "The caller's identifier; null on an event quarantined for lacking one.",
    }),
  })),
});
