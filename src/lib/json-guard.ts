export const MAX_JSON_DEPTH = 32;

/**
 * Finds the first value Postgres would refuse or we choose not to store: nesting deeper than
 * MAX_JSON_DEPTH, a NUL character (text and jsonb reject it), a lone UTF-16 surrogate
 * (jsonb rejects it), or a number JSON cannot hold (1e309 parses as Infinity, which would be
 * stored as null). Returns the dotted path and reason, or null when the value is fine. Checked before a value joins a batch, so one bad event can never fail its neighbours.
 */
export function findUnstorable(
  value: unknown,
  path = '',
  depth = 0,
): { field: string; message: string } | null {
  if (typeof value === 'string') return stringProblem(value, path);
  // JSON.parse reads 1e309 as Infinity, which JSON (and so jsonb) cannot hold: stored, it would
  // silently become null.
  if (typeof value === 'number' && !Number.isFinite(value))
    return { field: path || '(body)', message: 'numbers must be finite (1e309 and beyond overflow)' };
  if (value === null || typeof value !== 'object') return null;
  if (depth >= MAX_JSON_DEPTH)
    return { field: path || '(body)', message: `nested deeper than ${MAX_JSON_DEPTH} levels` };
  const entries = Array.isArray(value) ? value.entries() : Object.entries(value);
  for (const [k, v] of entries) {
    const key = String(k);
    const keyProblem = stringProblem(key, path);
    if (keyProblem) return keyProblem;
    const found = findUnstorable(v, path ? `${path}.${key}` : key, depth + 1);
    if (found) return found;
  }
  return null;
}

function stringProblem(s: string, path: string): { field: string; message: string } | null {
  if (s.includes('\u0000'))
    return { field: path || '(body)', message: 'NUL characters (\\u0000) are not allowed' };
  if (!s.isWellFormed())
    return { field: path || '(body)', message: 'contains a lone UTF-16 surrogate (not valid Unicode)' };
  return null;
}
