import { describe, expect, it } from 'vitest';
import { findUnstorable, MAX_JSON_DEPTH } from '../src/lib/json-guard.ts';

// Pure: no app, no database.

/** An object nested `levels` deep: { a: { a: … { a: 1 } } }. */
function nested(levels: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < levels; i++) v = { a: v };
  return v;
}

describe('findUnstorable', () => {
  it('accepts ordinary JSON: scalars, arrays, nested objects, emoji (paired surrogates)', () => {
    expect(findUnstorable(null)).toBeNull();
    expect(findUnstorable(42)).toBeNull();
    expect(findUnstorable(true)).toBeNull();
    expect(findUnstorable('plain text, ünïcödé and 🎉')).toBeNull();
    expect(findUnstorable({ order: { items: [{ sku: 'A-1', qty: 2 }], note: '🎉' } })).toBeNull();
  });

  it('names the dotted path of a NUL character in a nested string', () => {
    expect(findUnstorable({ order: { items: [{ sku: 'ok' }, { sku: 'bad\u0000' }] } })).toEqual({
      field: 'order.items.1.sku',
      message: 'NUL characters (\\u0000) are not allowed',
    });
  });

  it('refuses a lone UTF-16 surrogate (high or low) that jsonb would reject', () => {
    expect(findUnstorable({ name: 'x\uD800y' })).toEqual({
      field: 'name',
      message: 'contains a lone UTF-16 surrogate (not valid Unicode)',
    });
    expect(findUnstorable({ name: '\uDC00' })?.field).toBe('name');
  });

  it('checks object keys too, reporting the path of the object that holds the bad key', () => {
    expect(findUnstorable({ outer: { 'k\u0000': 1 } })).toEqual({
      field: 'outer',
      message: 'NUL characters (\\u0000) are not allowed',
    });
  });

  it('reports a bad top-level string or key as (body)', () => {
    expect(findUnstorable('\u0000')?.field).toBe('(body)');
    expect(findUnstorable({ '\uD800': 1 })?.field).toBe('(body)');
  });

  it(`allows ${MAX_JSON_DEPTH} levels of nesting and refuses one more, naming where it went too deep`, () => {
    expect(findUnstorable(nested(MAX_JSON_DEPTH))).toBeNull();
    const tooDeep = findUnstorable(nested(MAX_JSON_DEPTH + 1));
    expect(tooDeep).toEqual({
      field: Array.from({ length: MAX_JSON_DEPTH }, () => 'a').join('.'),
      message: `nested deeper than ${MAX_JSON_DEPTH} levels`,
    });
  });

  it('counts arrays as nesting levels like objects', () => {
    let v: unknown = [];
    for (let i = 0; i < MAX_JSON_DEPTH; i++) v = [v];
    expect(findUnstorable(v)?.message).toBe(`nested deeper than ${MAX_JSON_DEPTH} levels`);
  });

  it('returns the first problem in document order', () => {
    expect(findUnstorable({ a: 'fine', b: '\u0000', c: '\uD800' })?.field).toBe('b');
  });
});
