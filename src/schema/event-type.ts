import { pageInput } from '../lib/pagination.ts';
import { dropEventTypeSchema, listEventTypes, putEventTypeSchema } from '../services/events/event-types.ts';
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

builder.mutationFields((t) => ({
  putEventTypeSchema: t.field({
    type: EventType,
    description:
      'Sets (or with `schema: null` drops) the JSON Schema (draft 2020-12) payloads of this type must meet, ' +
      'creating the type if unseen (needs flows:write). Events received afterwards that fail it are quarantined. ' +
      'A schema that is not valid JSON Schema is a validation_error on `schema`.',
    authScopes: { ability: 'flows:write' },
    args: {
      key: t.arg.string({ required: true, description: 'The event type key, e.g. order.completed.' }),
      schema: t.arg({ type: JSONScalar, description: 'A JSON Schema object, or null to drop it.' }),
    },
    resolve: (_root, { key, schema }, { app, who }) =>
      putEventTypeSchema(app, who, { key, schema: schema ?? null }),
  }),
  dropEventTypeSchema: t.field({
    type: EventType,
    description: 'Drops an event type’s JSON Schema (needs flows:write); an unknown type is not_found.',
    authScopes: { ability: 'flows:write' },
    args: { key: t.arg.string({ required: true }) },
    resolve: (_root, { key }, { app, who }) => dropEventTypeSchema(app, who, key),
  }),
}));
