import { describe, expect, it } from 'vitest';
import { DomainError } from '../src/errors.ts';
import { type KeysetRange, Paginator, pageInput } from '../src/lib/pagination.ts';
import { errorStatus } from '../src/rest/error-status.ts';

// Pure: no app, no database. Rows are kept in memory, newest (highest id) first, as a repository would.

const paginator = new Paginator('unit-test-secret');
const rows = Array.from({ length: 7 }, (_, i) => ({ id: 7 - i })); // 7, 6, …, 1
const keyOf = (r: { id: number }) => r.id;

/** What a repository does with a KeysetRange: `lt` newest first, `gt` oldest first, `take` rows. */
async function fetchRange(range: KeysetRange<number>) {
  if (!range.after) return rows.slice(0, range.take);
  const { op, key } = range.after;
  if (op === 'lt') return rows.filter((r) => r.id < key).slice(0, range.take);
  return rows
    .filter((r) => r.id > key)
    .reverse()
    .slice(0, range.take);
}

const page = (input: { limit?: number; cursor?: string }) =>
  paginator.page(pageInput.parse(input), keyOf, fetchRange);

/** The error `fn` threw (fails the test when it did not throw). */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
}

function expectInvalidCursor(fn: () => unknown) {
  const err = thrown(fn);
  expect(err).toBeInstanceOf(DomainError);
  const type = (err as DomainError).type;
  expect(type).toBe('invalid_request_error');
  expect(errorStatus[type]).toBe(400);
  expect((err as DomainError).message).toMatch(/^Invalid cursor/);
}

describe('cursor encoding', () => {
  it('round-trips numeric and string keys with their direction', () => {
    expect(paginator.decode(paginator.encode(42, 'next'))).toEqual({ k: 42, d: 'next' });
    expect(paginator.decode(paginator.encode('019a-uuid', 'prev'))).toEqual({ k: '019a-uuid', d: 'prev' });
  });

  it('is opaque: base64url body and a 16-character MAC, no raw key in sight', () => {
    const c = paginator.encode(12345, 'next');
    expect(c).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{16}$/);
    expect(c).not.toContain('12345');
  });

  it('refuses a cursor whose body was edited (400 invalid_request_error)', () => {
    const forged = Buffer.from(JSON.stringify({ k: 1, d: 'next' })).toString('base64url');
    const mac = paginator.encode(99, 'next').split('.')[1];
    expectInvalidCursor(() => paginator.decode(`${forged}.${mac}`));
  });

  it('refuses a cursor signed with another secret', () => {
    const other = new Paginator('another-secret').encode(5, 'next');
    expectInvalidCursor(() => paginator.decode(other));
  });

  it.each([
    ['empty', ''],
    ['no MAC', 'eyJrIjoxLCJkIjoibmV4dCJ9'],
    ['truncated MAC', `${paginator.encode(3, 'next').slice(0, -1)}`],
    ['garbage', 'not a cursor at all'],
  ])('refuses a malformed cursor (%s)', (_name, cursor) => {
    expectInvalidCursor(() => paginator.decode(cursor));
  });

  it('refuses a correctly signed body that is not a cursor (bad direction or key type)', () => {
    const sign = (obj: unknown) => {
      const body = Buffer.from(JSON.stringify(obj)).toString('base64url');
      // Signed with the paginator's own (private) MAC, as only the server could: the shape check is what refuses.
      const mac = (paginator as unknown as { mac(b: string): string }).mac(body);
      return `${body}.${mac}`;
    };
    expect(paginator.decode(sign({ k: 1, d: 'next' }))).toEqual({ k: 1, d: 'next' });
    expectInvalidCursor(() => paginator.decode(sign({ k: 1, d: 'sideways' })));
    expectInvalidCursor(() => paginator.decode(sign({ k: { $gt: 0 }, d: 'next' })));
  });
});

describe('keyset pages', () => {
  it('walks forward newest first, with a next cursor until the last page', async () => {
    const first = await page({ limit: 3 });
    expect(first.data.map(keyOf)).toEqual([7, 6, 5]);
    expect(first.prevCursor).toBeNull();
    const second = await page({ limit: 3, cursor: first.nextCursor! });
    expect(second.data.map(keyOf)).toEqual([4, 3, 2]);
    const last = await page({ limit: 3, cursor: second.nextCursor! });
    expect(last.data.map(keyOf)).toEqual([1]);
    expect(last.nextCursor).toBeNull();
    expect(last.prevCursor).not.toBeNull();
  });

  it('walks back with prev cursors to exactly the pages seen before, still newest first', async () => {
    const first = await page({ limit: 3 });
    const second = await page({ limit: 3, cursor: first.nextCursor! });
    const back = await page({ limit: 3, cursor: second.prevCursor! });
    expect(back.data.map(keyOf)).toEqual([7, 6, 5]);
    expect(back.prevCursor).toBeNull();
    expect((await page({ limit: 3, cursor: back.nextCursor! })).data.map(keyOf)).toEqual([4, 3, 2]);
  });

  it('has no next cursor when the rows fit exactly in one page', async () => {
    const all = await page({ limit: 7 });
    expect(all.data).toHaveLength(7);
    expect(all.nextCursor).toBeNull();
  });

  it('defaults the limit to 50 and clamps it to 200', () => {
    expect(pageInput.parse({}).limit).toBe(50);
    expect(pageInput.parse({ limit: '500' }).limit).toBe(200);
    expect(pageInput.safeParse({ limit: 0 }).success).toBe(false);
  });
});
