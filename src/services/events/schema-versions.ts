import { payloadProblem } from './event-schemas.ts';
import type { EventToWrite } from './event-writer.ts';
import { typeScopeOf } from './ingest.sql.ts';

/** Event types whose schema version this process remembers (beyond it, the oldest are forgotten). */
const MAX_SCHEMAS = 10_000;

/**
 * The JSON Schemas of event types as this process last saw them, by `workspace/mode/type`. The
 * ingest statement checks each batch type's remembered version against the table and answers the
 * current schema when it differs, so a schema change is in force for every event whose statement
 * starts after the change committed, in every process, without a read per batch.
 */
export class SchemaVersions {
  /** An absent type is believed to have no schema. */
  private readonly known = new Map<string, { version: string; schema: object }>();

  /** The version the writer assumes for a type (null: no schema). */
  version(typeScope: string): string | null {
    return this.known.get(typeScope)?.version ?? null;
  }

  /** Why the event's payload fails its type's remembered schema, or null. */
  problem(e: EventToWrite): string | null {
    if (!e.eventType) return null;
    const key = typeScopeOf(e);
    const known = this.known.get(key);
    return known ? payloadProblem(`${key}@${known.version}`, known.schema, e.payload) : null;
  }

  /** What the statement answered for a stale type: its current schema, or none. */
  remember(typeScope: string, version: string | null, schema: object | null): void {
    this.known.delete(typeScope);
    if (version === null || schema === null) return;
    if (this.known.size >= MAX_SCHEMAS) this.known.delete(this.known.keys().next().value as string);
    this.known.set(typeScope, { version, schema });
  }
}
