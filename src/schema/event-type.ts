import { pageInput } from '../lib/pagination.ts';
import { listEventTypes } from '../services/events/event-types.ts';
import type { EventTypeDto } from '../services/events/presenters.ts';
import { builder } from './builder.ts';
import { CONNECTION_DESCRIPTION, connectionFrom } from './connection.ts';
import { DateTimeScalar } from './date-time.ts';
import { JSONScalar } from './json.ts';
import { serviceInput } from './names.ts';
import { mirror } from './shape.ts';

/** An event type seen or defined in a workspace and mode (CONTRACT 9). */
export const EventType = builder.objectRef<EventTypeDto>('EventType').implement({
  description: 'An event type: created on first use, optionally with a JSON Schema its payloads must meet.',
  fields: mirror((t) => ({
    key: t.exposeString('key', { description: 'Dot-notation name, e.g. order.completed.' }),
    schema: t.expose('schema', {
      type: JSONScalar,
      nullable: true,
      description:
        'JSON Schema (draft 2020-12) payloads are checked against; failing events are quarantined.',
    }),
    eventsCount: t.exposeInt('events_count'),
    firstSeenAt: t.expose('first_seen_at', { type: DateTimeScalar }),
  })),
});

builder.queryFields((t) => ({
  eventTypes: t.connection(
    {
      type: EventType,
      description: `Event types of the key's workspace and mode (needs flows:read). ${CONNECTION_DESCRIPTION}`,
      authScopes: { ability: 'flows:read' },
      validate: serviceInput(pageInput),
      resolve: async (_root, args, { app, who }) => connectionFrom(await listEventTypes(app, who, args)),
    },
    { name: 'EventTypeConnection' },
    { name: 'EventTypeEdge' },
  ),
}));
