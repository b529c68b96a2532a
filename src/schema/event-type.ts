import { type PageInput, pageInput } from '../lib/pagination.ts';
import {
  dropEventTypeSchema,
  eventTypeKey,
  listEventTypes,
  putEventTypeSchema,
  putSchemaInput,
} from '../services/events/event-types.ts';
import type { EventTypeDto } from '../services/events/presenters.ts';
import { builder } from './builder.ts';
import { CONNECTION_DESCRIPTION, connectionFrom } from './connection.ts';
import { DateTimeScalar } from './date-time.ts';
import { JSONScalar } from './json.ts';
import { serviceInput } from './names.ts';
import { mirror } from './shape.ts';

/** An event type seen or defined in a workspace and mode (GET /v1/event-types). */
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
      // `validate` replaced the arguments with the service's parsed input (the plugin keeps their GraphQL type).
      resolve: async (_root, args, { app, who }) =>
        connectionFrom(await listEventTypes(app, who, args as unknown as PageInput)),
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
    args: t.validate(
      {
        key: t.arg.string({ required: true, description: 'The event type key, e.g. order.completed.' }),
        schema: t.arg({ type: JSONScalar, description: 'A JSON Schema object, or null to drop it.' }),
      },
      serviceInput(putSchemaInput, ({ key, schema }) => ({ key, schema: schema ?? null })).transform(
        (input) => ({
          input,
        }),
      ),
    ),
    resolve: (_root, { input }, { app, who }) => putEventTypeSchema(app, who, input),
  }),
  dropEventTypeSchema: t.field({
    type: EventType,
    description: 'Drops an event type’s JSON Schema (needs flows:write); an unknown type is not_found.',
    authScopes: { ability: 'flows:write' },
    args: { key: t.arg.string({ required: true, validate: eventTypeKey }) },
    resolve: (_root, { key }, { app, who }) => dropEventTypeSchema(app, who, key),
  }),
}));
