/** Client-side checks of the flow editor's JSON fields before the service validates them (pure; unit-tested). */

export type JsonCheck = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * Parses a JSON field. Blank is `null` when `allowBlank` (no conditions = always). A JSON Logic
 * expression must be an object; the actions must be an array.
 */
export function parseJsonField(
  text: string,
  opts: { allowBlank?: boolean; expect: 'object' | 'array' },
): JsonCheck {
  if (!text.trim()) return opts.allowBlank ? { ok: true, value: null } : { ok: false, error: 'Required' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `Invalid JSON: ${(e as Error).message}` };
  }
  if (opts.expect === 'array' && !Array.isArray(value)) return { ok: false, error: 'Must be a JSON array' };
  if (opts.expect === 'object' && (value === null || typeof value !== 'object' || Array.isArray(value)))
    return { ok: false, error: 'Must be a JSON object (a JSON Logic expression)' };
  return { ok: true, value };
}

/** Field errors from the service (`conditions.and.0`, `actions.0.points`, …) grouped by top-level field. */
export function errorsByField(fields: { field: string; message: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of fields) {
    const top = f.field.split('.')[0] ?? f.field;
    const detail = f.field.includes('.') ? `${f.field}: ${f.message}` : f.message;
    out[top] = out[top] ? `${out[top]}; ${detail}` : detail;
  }
  return out;
}

/** Pretty JSON for the editor (2 spaces); null → ''. */
export const prettyJson = (v: unknown) => (v === null || v === undefined ? '' : JSON.stringify(v, null, 2));
