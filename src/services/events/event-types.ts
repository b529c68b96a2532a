import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { validationError } from '../../errors.ts';
import { pageInput } from '../../lib/pagination.ts';
import type { Principal } from '../keys/principal.ts';
import { pagedList } from '../paged-list.ts';
import { parseInput } from '../validation.ts';
import type { EventType } from './entities.ts';
import { EVENT_TYPE_PATTERN, LIMITS } from './event-input.ts';
import { schemaProblem } from './event-schemas.ts';
import { type EventTypeDto, presentEventType } from './presenters.ts';
import { pageEventTypes, upsertEventTypeSchema } from './repository.ts';

/** Event types seen or defined in this workspace and mode, newest first. */
export const listEventTypes = pagedList({
  input: pageInput,
  keyOf: (t: EventType) => Number(t.id),
  fetch: (ctx: AppContext, who: Principal, _q, range) => pageEventTypes(ctx.orm.em.fork(), who, range),
  present: presentEventType,
});

export const eventTypeKey = z
  .string()
  .min(1)
  .max(LIMITS.eventTypeLength)
  .regex(EVENT_TYPE_PATTERN, 'letters, digits and . _ : - only');
/** Body `{ "schema": <JSON Schema> | null }`; `null` drops the schema. */
export const putSchemaInput = z.strictObject({
  key: eventTypeKey,
  schema: z.record(z.string(), z.unknown()).nullable(),
});

/**
 * Sets (or with `null` drops) an event type's JSON Schema (draft 2020-12), creating the type if
 * it has not been seen yet. Events received after this call are checked against it.
 */
export async function putEventTypeSchema(
  ctx: AppContext,
  who: Principal,
  input: unknown,
): Promise<EventTypeDto> {
  const { key, schema } = parseInput(putSchemaInput, input);
  if (schema) {
    const problem = schemaProblem(schema);
    if (problem) throw validationError([{ field: 'schema', message: `not a valid JSON Schema: ${problem}` }]);
  }
  return presentEventType(await upsertEventTypeSchema(ctx.orm.em.fork(), who, key, schema));
}
