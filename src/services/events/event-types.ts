import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { notFound, validationError } from '../../errors.ts';
import { pageInput } from '../../lib/pagination.ts';
import { storableJson, text } from '../../lib/primitives.ts';
import type { Principal } from '../keys/principal.ts';
import { pagedList } from '../paged-list.ts';
import { parseInput } from '../validation.ts';
import type { EventType } from './entities.ts';
import { EVENT_TYPE_PATTERN, LIMITS } from './event-input.ts';
import { schemaProblem } from './event-schemas.ts';
import { presentEventType } from './presenters.ts';
import { dropEventTypeSchemaOf, pageEventTypes, upsertEventTypeSchema } from './repository.ts';
import type { EventTypeDto } from './shapes.ts';

/** Event types seen or defined in this workspace and mode, newest first. */
export const listEventTypes = pagedList({
  input: pageInput,
  keyOf: (t: EventType) => Number(t.id),
  fetch: (ctx: AppContext, who: Principal, _q, range) => pageEventTypes(ctx.orm, who, range),
  present: presentEventType,
});

export const eventTypeKey = text(LIMITS.eventTypeLength, { min: 1 }).regex(
  EVENT_TYPE_PATTERN,
  'letters, digits and . _ : - only',
);

/** A JSON Schema (draft 2020-12) as stored: any JSON object Postgres can keep as jsonb. */
const jsonSchema = storableJson(z.record(z.string(), z.unknown())).meta({
  description: 'A JSON Schema (draft 2020-12).',
});

/** `{ key, schema }`; a `null` schema drops it (the tRPC door and the REST adapter). */
export const putSchemaInput = z.strictObject({ key: eventTypeKey, schema: jsonSchema.nullable() });
export type PutSchemaInput = z.output<typeof putSchemaInput>;

const WRAPPER_RULE =
  'A body whose only member is `schema` is the wrapper `{ "schema": <JSON Schema or null> }` ' +
  '(`null` drops the schema); any other object is the JSON Schema itself (`schema` is not a JSON ' +
  'Schema keyword). A top-level `key` is refused: the key comes from the path.';

/** The body of `PUT /v1/event-types/{key}/schema` (docs/api.md#routes-at-a-glance): the schema itself, or the wrapper. */
const wrapper = z.strictObject({ schema: jsonSchema.nullable() });

export const putSchemaBody = z
  .union([wrapper.meta({ description: 'The wrapper.' }), jsonSchema])
  .meta({ description: WRAPPER_RULE });

/** The schema a parsed `PUT …/schema` body carries, by the rule of `putSchemaBody`. */
export function schemaOfBody(body: z.output<typeof putSchemaBody>): PutSchemaInput['schema'] {
  // The key comes from the path; a body `key` would be silently ignored, so it is refused.
  if ('key' in body)
    throw validationError([{ field: 'key', message: 'comes from the path; do not send it in the body' }]);
  const keys = Object.keys(body);
  if (keys.length !== 1 || keys[0] !== 'schema') return body;
  // The wrapper: a `schema` that is no JSON Schema made the body parse as a schema itself, unchecked.
  return parseInput(wrapper, body).schema;
}

/**
 * Sets (or with `null` drops) an event type's JSON Schema (draft 2020-12), creating the type if
 * it has not been seen yet. Events received after this call are checked against it.
 */
export async function putEventTypeSchema(
  ctx: AppContext,
  who: Principal,
  { key, schema }: PutSchemaInput,
): Promise<EventTypeDto> {
  if (schema) {
    const problem = schemaProblem(schema);
    if (problem) throw validationError([{ field: 'schema', message: `not a valid JSON Schema: ${problem}` }]);
  }
  return presentEventType(await upsertEventTypeSchema(ctx.orm, who, key, schema));
}

/** Drops an event type's JSON Schema; an unknown type is a 404. Events received afterwards are not checked. */
export async function dropEventTypeSchema(
  ctx: AppContext,
  who: Principal,
  key: string,
): Promise<EventTypeDto> {
  const type = await dropEventTypeSchemaOf(ctx.orm, who, key);
  if (!type) throw notFound('event type');
  return presentEventType(type);
}
