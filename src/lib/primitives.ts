import { z } from 'zod';
import { findUnstorable } from './json-guard.ts';

/**
 * Shared zod primitives for everything a caller sends: every declaration and
 * service input builds its strings, ids and keys from these, so nothing Postgres cannot store
 * (a NUL character, a lone UTF-16 surrogate, a string longer than its column) reaches it, and a
 * hostile value is a clear 4xx at the edge instead of a 500 from the database.
 */

const NUL = 'NUL characters (\\u0000) are not allowed';
const SURROGATE = 'contains a lone UTF-16 surrogate (not valid Unicode)';

/** Text Postgres can store: no NUL, well-formed UTF-16, at most `max` characters (the column's limit). */
export const text = (max: number, opts: { min?: number } = {}) =>
  z
    .string()
    .min(opts.min ?? 0)
    .max(max)
    .refine((s) => !s.includes('\u0000'), NUL)
    .refine((s) => s.isWellFormed(), SURROGATE);

/** Any JSON value Postgres can store as jsonb (no NUL, no lone surrogate, nesting bounded). */
export const storableJson = <S extends z.ZodType>(schema: S) =>
  schema.superRefine((value, ctx) => {
    const problem = findUnstorable(value);
    if (problem)
      ctx.addIssue({
        code: 'custom',
        path: problem.field === '(body)' ? [] : problem.field.split('.'),
        message: problem.message,
      });
  });

/** Limits shared by declarations and services (README "Limits"). */
export const TEXT_LIMITS = {
  externalId: 255,
  key: 64,
  name: 200,
  description: 2000,
  url: 2048,
  header: 1024,
} as const;

/**
 * Path parameters naming a resource: a value that cannot name one (wrong shape, hostile
 * characters) is a 404 like an unknown one, since no such resource can exist. The REST door
 * answers 404 for these and 422 (naming `path`) for other path parameters.
 */
const resourceIds = new WeakSet<z.ZodType>();
export const isResourceId = (schema: z.ZodType) => resourceIds.has(schema);
const resourceId = <S extends z.ZodType>(schema: S): S => {
  resourceIds.add(schema);
  return schema;
};

/** A UUID id (events, deliveries, flows, subscriptions, …). */
export const uuidId = (description: string) =>
  resourceId(
    z.uuid().meta({ param: { description: `${description} An unknown or malformed id is a 404.` } }),
  );

/** An integer id (rewards, redemptions, ledger entries), as it appears in a path. */
export const intId = (description: string) =>
  resourceId(
    z
      .string()
      .regex(/^[1-9][0-9]{0,17}$/)
      .meta({ param: { description: `${description} An unknown or malformed id is a 404.` } }),
  );

/** A participant's external id in a path. */
export const externalIdParam = (description = 'The participant’s external id. Unknown: 404.') =>
  text(TEXT_LIMITS.externalId, { min: 1 }).meta({ param: { description } });

/** A resource key in a path (leaderboards, templates, badges, event types): unknown or malformed, 404. */
export const keyParam = (description: string, max: number = TEXT_LIMITS.key) =>
  resourceId(text(max, { min: 1 }).meta({ param: { description } }));

/**
 * A URL of at most `max` characters that Postgres can store: `z.url()` alone lets a NUL or a lone
 * surrogate through (the URL parser encodes them; the string kept is the one sent). `meta` is the
 * OpenAPI metadata (a second `.meta()` would replace `format`).
 */
export const storableUrl = (
  max: number,
  params?: Parameters<typeof z.url>[0],
  meta: { description?: string; examples?: string[] } = {},
) =>
  text(max)
    .pipe(z.url(params))
    .meta({ format: 'uri', ...meta });
