import { builder } from './builder.ts';

/** Timestamps as the REST API prints them (docs/api.md): ISO 8601 with offset. */
export const DateTimeScalar = builder.scalarType('DateTime', {
  description: 'An ISO 8601 timestamp with offset, e.g. 2026-11-22T10:00:00.000Z.',
  // Output only: the services already print timestamps this way.
  serialize: (value) => value,
});
