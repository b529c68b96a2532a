import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { validationError } from '../../errors.ts';
import { keysetFind, type Page, pageInput } from '../../lib/pagination.ts';
import type { Principal } from '../keys/principal.ts';
import { parseInput } from '../validation.ts';
import { EventType } from './entities.ts';
import { EVENT_TYPE_PATTERN, LIMITS } from './event-input.ts';
import { schemaProblem } from './event-schemas.ts';
import { type EventTypeDto, presentEventType } from './presenters.ts';

/** Event types seen or defined in this workspace and mode, newest first. */
export async function listEventTypes(
  ctx: AppContext,
  who: Principal,
  input: unknown,
): Promise<Page<EventTypeDto>> {
  const q = parseInput(pageInput, input);
  const em = ctx.orm.em.fork();
  const where = { workspace: who.workspaceId, mode: who.mode };
  return ctx.paginator.page(
    q,
    (t: EventType) => Number(t.id),
    (range) => em.find(EventType, ...keysetFind(range, where)),
    presentEventType,
  );
}

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
  const em = ctx.orm.em.fork();
  await em.execute(
    `insert into event_types (workspace_id, mode, key, schema, updated_at) values (?, ?, ?, ?, clock_timestamp())
     on conflict (workspace_id, mode, key) do update set schema = excluded.schema, updated_at = clock_timestamp()`,
    [who.workspaceId, who.mode, key, schema === null ? null : JSON.stringify(schema)],
  );
  return presentEventType(
    await em.findOneOrFail(EventType, { workspace: who.workspaceId, mode: who.mode, key }),
  );
}
