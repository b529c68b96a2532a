import {
  getEvent,
  type ListEventsInput,
  listEvents,
  listEventsInput,
} from '../services/events/list-events.ts';
import type { EventDto } from '../services/events/presenters.ts';
import { builder } from './builder.ts';
import { CONNECTION_DESCRIPTION, connectionFrom } from './connection.ts';
import { DateTimeScalar } from './date-time.ts';
import { orNull } from './errors.ts';
import { EventParticipant } from './event-participant.ts';
import { asEventStatus, EventStatus } from './event-status.ts';
import { JSONScalar } from './json.ts';
import { serviceInput } from './names.ts';
import { mirror } from './shape.ts';

/** An ingested event, the same object GET /v1/events returns. */
export const Event = builder.objectRef<EventDto>('Event').implement({
  description: 'An event as stored: what happened to which participant, and where it is in processing.',
  fields: mirror((t) => ({
    id: t.exposeID('id', { description: 'UUIDv7: time-ordered.' }),
    eventType: t.exposeString('event_type', {
      nullable: true,
      description: 'Null on an event quarantined for lacking one.',
    }),
    participant: t.expose('participant', { type: EventParticipant }),
    payload: t.expose('payload', { type: JSONScalar, description: 'The JSON object sent with the event.' }),
    occurredAt: t.expose('occurred_at', { type: DateTimeScalar }),
    receivedAt: t.expose('received_at', { type: DateTimeScalar }),
    status: t.field({ type: EventStatus, resolve: (e) => asEventStatus(e.status) }),
    quarantineReason: t.exposeString('quarantine_reason', { nullable: true }),
    idempotencyKey: t.exposeString('idempotency_key', { nullable: true }),
    source: t.exposeString('source', { description: '`api` or `ingest:<ingest endpoint id>`.' }),
    isSandbox: t.exposeBoolean('is_sandbox', { description: 'True for events sent with a test key.' }),
    replayOf: t.exposeID('replay_of', {
      nullable: true,
      description: 'The quarantined event this one replays, or null.',
    }),
    replayedAs: t.exposeID('replayed_as', {
      nullable: true,
      description: 'The event that replays this quarantined one, once replayed, or null.',
    }),
  })),
});

builder.queryFields((t) => ({
  event: t.field({
    type: Event,
    nullable: true,
    description: "One event of the key's workspace and mode, or null. Needs the events:read ability.",
    authScopes: { ability: 'events:read' },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, { app, who }) => orNull(getEvent(app, who, String(args.id))),
  }),
  events: t.connection(
    {
      type: Event,
      description: `The event log of the key's workspace and mode (needs events:read). ${CONNECTION_DESCRIPTION}`,
      authScopes: { ability: 'events:read' },
      args: {
        status: t.arg({ type: EventStatus }),
        eventType: t.arg.string(),
        participant: t.arg.string({ description: "A participant's external id." }),
        since: t.arg.string({
          description: 'Only events received at or after this ISO 8601 timestamp (with offset) or date.',
        }),
      },
      validate: serviceInput(listEventsInput),
      // `validate` replaced the arguments with the service's parsed input (the plugin keeps their GraphQL type).
      resolve: async (_root, args, { app, who }) =>
        connectionFrom(await listEvents(app, who, args as unknown as ListEventsInput)),
    },
    { name: 'EventConnection' },
    { name: 'EventEdge' },
  ),
}));
