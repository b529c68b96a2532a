/**
 * Building JSON text inside SQL, for results whose bytes are made in the statement that writes
 * them (outbox data, webhook bodies, redemption results): the same text the presenters' JSON has.
 */

/** A nullable SQL expression as JSON text (`null` for NULL). */
export const jsonSql = (expr: string) => `coalesce(to_json(${expr})::text, 'null')`;

/** A timestamptz expression as the JSON string `toISOString()` prints (UTC, milliseconds, `Z`). */
export const isoJsonSql = (expr: string) =>
  `('"' || to_char(${expr} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"')`;
