import { z } from 'zod';

// Building blocks of the public response shapes: each public object is one
// zod schema in its domain's `shapes.ts`; its DTO type is `z.output` of it, presenters return it,
// the OpenAPI document and the test client's response check are generated from it.
// `id` in `.meta()` makes a schema a component of the OpenAPI document.

/** An ISO 8601 timestamp as `toISOString()` prints it. */
export const timestamp = (description: string) =>
  z.string().meta({ format: 'date-time', description, examples: ['2026-11-22T10:00:00.000Z'] });

/** A UUIDv7 id (time-ordered). */
export const uuidV7 = (description: string) =>
  z.string().meta({ format: 'uuid', description, examples: ['019a7c52-6f1e-7b3a-9c41-2d5e8f0a1b2c'] });

export const mode = z.enum(['live', 'test']).meta({
  id: 'Mode',
  description:
    'Data dimension, chosen by the key prefix: `svc_live_` → `live`, `svc_test_` → `test` (sandbox).',
});
