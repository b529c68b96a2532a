import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const ajv = new Ajv2020({ allErrors: false, strict: false, validateFormats: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);

const cache = new Map<string, ValidateFunction>();
const MAX_CACHED = 1000;

/** Checks that a value is a JSON Schema (draft 2020-12) Ajv can compile; returns the error text if not. */
export function schemaProblem(schema: unknown): string | null {
  try {
    ajv.compile(schema as object);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

/**
 * Validates a payload against an event type's schema. Compiled validators are cached by the
 * event type's identity and schema version, so a changed schema is picked up at once.
 * Returns the quarantine reason (naming the failing path) or null.
 */
export function payloadProblem(cacheKey: string, schema: object, payload: unknown): string | null {
  let validate = cache.get(cacheKey);
  if (!validate) {
    validate = ajv.compile(schema);
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
    cache.set(cacheKey, validate);
  }
  if (validate(payload)) return null;
  const err = validate.errors?.[0];
  const where = err?.instancePath ? `payload${err.instancePath.replaceAll('/', '.')}` : 'payload';
  return `payload fails the event type's schema: ${where} ${err?.message ?? 'is invalid'}`;
}
