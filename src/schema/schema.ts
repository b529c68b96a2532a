import { builder } from './builder.ts';
import './event.ts';
import './event-type.ts';
import './ingest-event-payload.ts';

/** The whole GraphQL schema, built without a database (scripts/generate.ts prints it). */
export const schema = builder.toSchema();
