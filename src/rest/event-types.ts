import { z } from 'zod';
import { pageInput } from '../lib/pagination.ts';
import { uuidId } from '../lib/primitives.ts';
import {
  dropEventTypeSchema,
  eventTypeKey,
  listEventTypes,
  putEventTypeSchema,
  putSchemaBody,
  schemaOfBody,
} from '../services/events/event-types.ts';
import {
  createIngestEndpoint,
  createIngestEndpointInput,
  deleteIngestEndpoint,
  getIngestEndpoint,
  listIngestEndpoints,
} from '../services/events/ingest-endpoints.ts';
import {
  eventTypeShape,
  ingestEndpointCreatedShape,
  ingestEndpointShape,
} from '../services/events/shapes.ts';
import { deleted, paginated } from './openapi-schemas.ts';
import { type Operation, operation } from './operation.ts';

/** A malformed key is a 422 naming `path` (PUT creates the type, so the key is input, not a lookup). */
const byTypeKey = z.object({
  key: eventTypeKey.meta({ param: { description: 'The event type key, e.g. `order.completed`.' } }),
});
const byEndpointId = z.object({ id: uuidId('The ingest endpoint id.') });

const T = 'Event types';
const I = 'Ingest endpoints';

/** Event types and their schemas, and ingest endpoints (docs/api.md#routes-at-a-glance); ability `flows:*`. */
export const eventTypesOperations: Operation[] = [
  operation({
    method: 'get',
    path: '/v1/event-types',
    operationId: 'listEventTypes',
    tag: T,
    summary: 'List event types',
    description: 'Event types seen or defined in this workspace and mode, newest first.',
    auth: 'flows:read',
    params: { query: pageInput },
    success: {
      status: '200',
      description: 'A page of event types.',
      schema: paginated(eventTypeShape, 'EventType'),
    },
    paged: true,
    handle: ({ ctx, who, query }) => listEventTypes(ctx, who, query),
  }),
  operation({
    method: 'put',
    path: '/v1/event-types/{key}/schema',
    operationId: 'putEventTypeSchema',
    tag: T,
    summary: 'Set or drop an event type’s payload schema',
    description:
      'The body is the JSON Schema (draft 2020-12) that payloads of this type must satisfy; creates the ' +
      'type if it has not been seen. A body whose only member is `schema` is the wrapper ' +
      '`{ "schema": <JSON Schema or null> }` instead (`null` drops the schema; `schema` is not a JSON ' +
      'Schema keyword, so the two cannot be confused); a top-level `key` is a 422 (the key comes from ' +
      'the path). Events received afterwards that fail the schema are quarantined with a reason naming ' +
      'the failing path. A schema that is not valid JSON Schema is a 422 on field `schema`.',
    auth: 'flows:write',
    params: { path: byTypeKey },
    body: { schema: putSchemaBody },
    success: { status: '200', description: 'The event type.', schema: eventTypeShape },
    handle: ({ ctx, who, params, body }) =>
      putEventTypeSchema(ctx, who, { key: params.key, schema: schemaOfBody(body) }),
  }),
  operation({
    method: 'delete',
    path: '/v1/event-types/{key}/schema',
    operationId: 'dropEventTypeSchema',
    tag: T,
    summary: 'Drop an event type’s payload schema',
    description:
      'Payloads of this type are no longer checked (the same as `PUT` with `{ "schema": null }`). An ' +
      'unknown type is a 404.',
    auth: 'flows:write',
    params: { path: byTypeKey },
    success: { status: '200', description: 'The event type, without a schema.', schema: eventTypeShape },
    errors: ['not_found'],
    handle: ({ ctx, who, params }) => dropEventTypeSchema(ctx, who, params.key),
  }),
  operation({
    method: 'post',
    path: '/v1/ingest-endpoints',
    operationId: 'createIngestEndpoint',
    tag: I,
    summary: 'Create an ingest endpoint',
    description:
      'An endpoint in the creating key’s mode, for senders that cannot hold an API key. The signing ' +
      '`secret` is returned only in this response.',
    auth: 'flows:write',
    body: { schema: createIngestEndpointInput },
    success: { status: '201', description: 'Created, with its secret.', schema: ingestEndpointCreatedShape },
    handle: ({ ctx, who, body }) => createIngestEndpoint(ctx, who, body),
  }),
  operation({
    method: 'get',
    path: '/v1/ingest-endpoints',
    operationId: 'listIngestEndpoints',
    tag: I,
    summary: 'List ingest endpoints',
    auth: 'flows:read',
    params: { query: pageInput },
    success: {
      status: '200',
      description: 'A page of ingest endpoints (without secrets).',
      schema: paginated(ingestEndpointShape, 'IngestEndpoint'),
    },
    paged: true,
    handle: ({ ctx, who, query }) => listIngestEndpoints(ctx, who, query),
  }),
  operation({
    method: 'get',
    path: '/v1/ingest-endpoints/{id}',
    operationId: 'getIngestEndpoint',
    tag: I,
    summary: 'Show an ingest endpoint',
    auth: 'flows:read',
    params: { path: byEndpointId },
    success: {
      status: '200',
      description: 'The endpoint (without its secret).',
      schema: ingestEndpointShape,
    },
    errors: ['not_found'],
    handle: ({ ctx, who, params }) => getIngestEndpoint(ctx, who, params.id),
  }),
  operation({
    method: 'delete',
    path: '/v1/ingest-endpoints/{id}',
    operationId: 'deleteIngestEndpoint',
    tag: I,
    summary: 'Delete an ingest endpoint',
    description: 'Its key stops working at once; the events it brought in are kept.',
    auth: 'flows:write',
    params: { path: byEndpointId },
    success: { status: '200', description: 'Deleted.', schema: deleted },
    errors: ['not_found'],
    handle: ({ ctx, who, params }) => deleteIngestEndpoint(ctx, who, params.id),
  }),
];
