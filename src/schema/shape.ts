import type { ObjectFieldBuilder, SchemaTypes } from '@pothos/core';

/** `cost_points` → `costPoints`, as a type. */
type CamelCase<S extends string> = S extends `${infer H}_${infer T}` ? `${H}${Capitalize<CamelCase<T>>}` : S;

type Field = { $inferType: unknown };
type Mirror<Dto, Omitted extends keyof Dto> = {
  [K in Exclude<keyof Dto, Omitted> & string as CamelCase<K>]: Field;
} & Record<string, Field>;
type Fields<Types extends SchemaTypes, Dto, F> = (t: ObjectFieldBuilder<Types, Dto>) => F;

/**
 * Ties an object type's fields to the DTO it prints, `fields: mirror((t) => ({ … }))`: a DTO
 * key the service adds or renames fails to compile until the type has its camelCase field.
 * Computed fields may be added; DTO keys left out on purpose come first: `mirror(['mode'], …)`.
 */
export function mirror<T extends SchemaTypes, Dto, F extends Mirror<Dto, never>>(
  fields: Fields<T, Dto, F>,
): Fields<T, Dto, F>;
export function mirror<T extends SchemaTypes, Dto, F extends Mirror<Dto, O>, O extends keyof Dto>(
  omitted: readonly O[],
  fields: Fields<T, Dto, F>,
): Fields<T, Dto, F>;
export function mirror(...args: unknown[]) {
  return args.at(-1);
}
