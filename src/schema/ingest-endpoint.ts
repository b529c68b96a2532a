import { type PageInput, pageInput } from '../lib/pagination.ts';
import {
  createIngestEndpoint,
  createIngestEndpointInput,
  deleteIngestEndpoint,
  getIngestEndpoint,
  listIngestEndpoints,
} from '../services/events/ingest-endpoints.ts';
import type { IngestEndpointCreatedDto, IngestEndpointDto } from '../services/events/shapes.ts';
import { builder } from './builder.ts';
import { CONNECTION_DESCRIPTION, connectionFrom } from './connection.ts';
import { DateTimeScalar } from './date-time.ts';
import { orNull } from './errors.ts';
import { serviceInput } from './names.ts';
import { DeletePayload } from './payloads.ts';
import { mirror } from './shape.ts';

const canRead = { ability: 'flows:read' } as const;
const canWrite = { ability: 'flows:write' } as const;

/** An ingest endpoint (GET /v1/ingest-endpoints), never with its secret. */
export const IngestEndpoint = builder.objectRef<IngestEndpointDto>('IngestEndpoint').implement({
  description: 'A signed URL (`POST /v1/ingest/{key}`) for senders that cannot hold an API key.',
  // `mode` is always the key's own mode here.
  fields: mirror(['mode'], (t) => ({
    id: t.exposeID('id', { description: 'UUIDv7.' }),
    name: t.exposeString('name'),
    key: t.exposeString('key', { description: 'Goes in the path: `POST /v1/ingest/{key}`.' }),
    defaultEventType: t.exposeString('default_event_type', {
      nullable: true,
      description: 'Used for events that arrive without `event_type`.',
    }),
    createdAt: t.expose('created_at', { type: DateTimeScalar }),
  })),
});

const CreateIngestEndpointPayload = builder
  .objectRef<IngestEndpointCreatedDto>('CreateIngestEndpointPayload')
  .implement({
    fields: (t) => ({
      ingestEndpoint: t.field({ type: IngestEndpoint, resolve: (e) => e }),
      secret: t.exposeString('secret', {
        description: 'Signing secret for `X-Signature`. Shown only here; it cannot be read again.',
      }),
    }),
  });

const CreateIngestEndpointInput = builder
  .inputType('CreateIngestEndpointInput', {
    fields: (t) => ({
      name: t.string({ required: true }),
      defaultEventType: t.string({ description: 'Used for events that arrive without `event_type`.' }),
    }),
  })
  .validate(serviceInput(createIngestEndpointInput));

builder.queryFields((t) => ({
  ingestEndpoint: t.field({
    type: IngestEndpoint,
    nullable: true,
    description: 'One ingest endpoint (without its secret), or null. Needs flows:read.',
    authScopes: canRead,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, { app, who }) => orNull(getIngestEndpoint(app, who, String(args.id))),
  }),
  ingestEndpoints: t.connection(
    {
      type: IngestEndpoint,
      description: `Ingest endpoints of the key's workspace and mode (needs flows:read). ${CONNECTION_DESCRIPTION}`,
      authScopes: canRead,
      validate: serviceInput(pageInput),
      // `validate` replaced the arguments with the service's parsed input (the plugin keeps their GraphQL type).
      resolve: async (_root, args, { app, who }) =>
        connectionFrom(await listIngestEndpoints(app, who, args as unknown as PageInput)),
    },
    { name: 'IngestEndpointConnection' },
    { name: 'IngestEndpointEdge' },
  ),
}));

builder.mutationFields((t) => ({
  createIngestEndpoint: t.field({
    type: CreateIngestEndpointPayload,
    description:
      'Creates an ingest endpoint in the key’s mode (needs flows:write); its signing secret is returned only here.',
    authScopes: canWrite,
    args: { input: t.arg({ type: CreateIngestEndpointInput, required: true }) },
    resolve: (_root, { input }, { app, who }) => createIngestEndpoint(app, who, input),
  }),
  deleteIngestEndpoint: t.field({
    type: DeletePayload,
    description: 'Deletes an ingest endpoint (needs flows:write): its key stops working at once.',
    authScopes: canWrite,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, { app, who }) => deleteIngestEndpoint(app, who, String(id)),
  }),
}));
