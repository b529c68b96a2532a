/**
 * Building JSON text inside SQL, for results whose bytes are made in the statement that writes
 * them (outbox data, webhook bodies, redemption results): the same text the presenters' JSON has.
 */

/** A nullable SQL expression as JSON text (`null` for NULL). */
export const jsonSql = (expr: string) => `coalesce(to_json(${expr})::text, 'null')`;

/** A timestamptz expression as the JSON string `toISOString()` prints (UTC, milliseconds, `Z`). */
export const isoJsonSql = (expr: string) =>
  `('"' || to_char(${expr} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"')`;

/**
 * A JSON object built in SQL with the keys of the DTO `T`, in the order given (the presenter's,
 * so the bytes match its `JSON.stringify`). `fields` maps every key to an expression that yields
 * JSON text (`jsonSql`, `isoJsonSql`, a nested `jsonObjectSql`, a number): a key of `T` left out,
 * renamed or added fails the typecheck (test/sql-json-types.test.ts).
 */
export function jsonObjectSql<T extends object>(fields: { [K in keyof T]-?: string }): string {
  const keys = Object.keys(fields) as (keyof T & string)[];
  if (keys.length === 0) return `'{}'`;
  const parts = keys.map(
    (k, i) => `'${i ? ',' : '{'}${JSON.stringify(k).replaceAll("'", "''")}:' || ${fields[k]}`,
  );
  return `(${parts.join(' || ')} || '}')`;
}

/**
 * The select list of a row type, from a record with one key per column (`{ id: true, … }`,
 * typed `Record<keyof Row, true>` so a column added to the row and not to the list fails the
 * typecheck), qualified by `alias` when given: `e.id, e.points, …`.
 */
export const columnList = (columns: Record<string, true>, alias?: string): string =>
  Object.keys(columns)
    .map((c) => (alias ? `${alias}.${c}` : c))
    .join(', ');
