import type { z } from 'zod';
import type { listEventsInput } from '../services/events/list-events.ts';
import { builder } from './builder.ts';

/** The stored statuses: the values of the service's own `status` filter. */
export type EventStatusValue = NonNullable<z.output<typeof listEventsInput>['status']>;

export const EventStatus = builder.enumType('EventStatus', {
  description: 'Where an event is in its life (the REST API prints the same values in lower case).',
  values: {
    RECEIVED: { value: 'received', description: 'Accepted and waiting to be processed.' },
    PROCESSED: { value: 'processed', description: 'Processed.' },
    FAILED: { value: 'failed', description: 'Processing ran out of retries.' },
    QUARANTINED: { value: 'quarantined', description: 'Kept but never processed; see quarantineReason.' },
  } as const satisfies Record<Uppercase<EventStatusValue>, { value: EventStatusValue; description: string }>,
});

/** The services print statuses as plain strings; they are always one of the enum's values. */
export const asEventStatus = (status: string) => status as EventStatusValue;
