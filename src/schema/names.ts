import { z } from 'zod';
import { DomainError, type FieldError, validationError } from '../errors.ts';

/**
 * The one mapping between GraphQL's names and the services': arguments are camelCase
 * (`idempotencyKey`), service inputs snake_case (`idempotency_key`), and Relay's `first`/`last`
 * and `after`/`before` are the services' `limit` and `cursor` (the services' cursors carry their
 * own direction, so both become `cursor`). Fields validate their arguments with the service's
 * own zod schema through {@link serviceInput} (Pothos validation plugin), and failures name the
 * argument the caller sent (`input.eventType`, `first`).
 */

export const snakeName = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
export const camelName = (name: string) => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** The services' page fields and the Relay arguments that fill them (backward one first). */
const PAGE_ARGS: Record<string, readonly [backward: string, forward: string]> = {
  limit: ['last', 'first'],
  cursor: ['before', 'after'],
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** Arguments as a service takes them: keys snake_cased (one level), nulls ("not given") dropped, Relay's as page fields. */
export function snakeArgs(args: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    const page = Object.entries(PAGE_ARGS).find(([, relay]) => relay.includes(name));
    if (value != null) out[page ? page[0] : snakeName(name)] = value;
  }
  return out;
}

/**
 * A change's input object as a PATCH body: keys snake_cased, and an explicit `null` kept (it
 * clears the field, as `null` does on REST), while a field left out stays absent (unchanged).
 */
export function patchArgs(args: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) if (value !== undefined) out[snakeName(name)] = value;
  return out;
}

/**
 * An input object as a service body, at every level: keys snake_cased, fields left out absent,
 * and an explicit `null` kept (a PATCH: it clears the field, as on REST) or dropped (a PUT, where
 * GraphQL's `null` for an optional input field means "not given", so the service's default applies).
 */
export function snakeDeep(value: unknown, nulls: 'keep' | 'drop'): unknown {
  if (Array.isArray(value)) return value.map((v) => snakeDeep(v, nulls));
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== undefined && (v !== null || nulls === 'keep'))
      .map(([k, v]) => [snakeName(k), snakeDeep(v, nulls)]),
  );
}

/**
 * A service's issue path in the caller's spelling, walking what the caller sent: a name the
 * caller used stays (so keys inside a JSON argument such as `payload` are never renamed), a
 * page field becomes the Relay argument sent, anything else is camelCased.
 */
export function argPath(path: readonly PropertyKey[], sent: unknown): PropertyKey[] {
  let at = sent;
  return path.map((segment) => {
    const here = isObject(at) ? at : {};
    let name: PropertyKey = segment;
    if (typeof segment === 'string' && !(segment in here)) {
      const relay = PAGE_ARGS[segment];
      name = relay ? (here[relay[0]] != null ? relay[0] : relay[1]) : camelName(segment);
    }
    at = (here as Record<PropertyKey, unknown>)[name];
    return name;
  });
}

function parseArgs<S extends z.ZodType>(
  schema: S,
  input: unknown,
  args: Record<string, unknown>,
  ctx: z.RefinementCtx,
) {
  for (const [back, forth] of Object.values(PAGE_ARGS)) {
    if (args[back] != null && args[forth] != null)
      ctx.addIssue({ code: 'custom', path: [back], message: `send one of ${forth} and ${back}` });
  }
  const parsed = ctx.issues.length ? null : schema.safeParse(input);
  if (parsed?.success) return parsed.data as z.output<S>;
  for (const issue of parsed?.error.issues ?? [])
    ctx.addIssue({ code: 'custom', path: argPath(issue.path, args), message: issue.message });
  return z.NEVER;
}

/**
 * A validation schema (a field's `validate`, or an input type's) that maps GraphQL arguments with
 * `toInput` and parses them with the service's `schema`; its output replaces the arguments.
 */
export function serviceInput<
  S extends z.ZodType,
  A extends Record<string, unknown> = Record<string, unknown>,
>(schema: S, toInput: (args: A) => unknown = snakeArgs as (args: A) => unknown) {
  return z.custom<A>().transform((args, ctx) => parseArgs(schema, toInput(args), args, ctx));
}

/**
 * For `t.validate(args, …)`: the `path` arguments (REST path parameters, a separate lookup) are
 * parsed by their own schemas and kept by name; the others are the service's `input`.
 */
export function serviceArgs<S extends z.ZodType, P extends z.ZodRawShape>(schema: S, path: P) {
  return z.custom<Record<string, unknown>>().transform((args, ctx) => {
    const body = Object.fromEntries(Object.entries(args).filter(([name]) => !(name in path)));
    const input = parseArgs(schema, snakeArgs(body), args, ctx);
    return { ...parseArgs(z.object(path), args, args, ctx), input };
  });
}

/**
 * A service's own field errors (thrown after its input parsed: `event.event_type`, `since`) in the
 * caller's spelling under the argument that carried them (`input.event.eventType`); other errors
 * pass unchanged. For `.catch()` on a resolver's service call.
 */
export function inCallersNames(arg: string) {
  return (err: unknown): never => {
    if (!(err instanceof DomainError) || err.type !== 'validation_error') throw err;
    const errors = (err.extra.errors as FieldError[]).map((e) => ({
      ...e,
      field: [arg, ...e.field.split('.').map(camelName)].join('.'),
    }));
    throw validationError(errors);
  };
}
