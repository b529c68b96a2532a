import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DomainError } from '../src/errors.ts';
import { type KeysetRange, keysetFind, keysetSql, Paginator, pageInput } from '../src/lib/pagination.ts';
import { pagedList } from '../src/services/paged-list.ts';
import { parseInput } from '../src/services/validation.ts';

const first = { after: null, take: 4 } as const;
const older = { after: { op: 'lt', key: 42 }, take: 4 } as const;
const newer = { after: { op: 'gt', key: 42 }, take: 4 } as const;

describe('keysetFind (a range as MikroORM reads it)', () => {
  it('leaves the filter alone on the first page and reads newest first', () => {
    const where = { workspace: 'w', mode: 'test' };
    expect(keysetFind(first, where)).toEqual([where, { orderBy: { id: 'desc' }, limit: 4 }]);
  });

  it('reads rows below the key newest first for a next page', () => {
    expect(keysetFind(older, { mode: 'live' })).toEqual([
      { mode: 'live', id: { $lt: 42 } },
      { orderBy: { id: 'desc' }, limit: 4 },
    ]);
  });

  it('reads rows above the key oldest first for a prev page, on the column it is given', () => {
    expect(keysetFind(newer, {}, 'seq')).toEqual([
      { seq: { $gt: 42 } },
      { orderBy: { seq: 'asc' }, limit: 4 },
    ]);
  });

  it('does not change the filter it is given', () => {
    const where = { mode: 'live' };
    keysetFind(older, where);
    expect(where).toEqual({ mode: 'live' });
  });
});

describe('keysetSql (a range as raw SQL reads it)', () => {
  it('binds only the limit on the first page, with a condition that is safe to and in', () => {
    expect(keysetSql(first, 'id', 3)).toEqual({ where: 'true', order: 'id desc', limit: '$3', params: [4] });
  });

  it('binds the key then the limit from the placeholder it is given', () => {
    expect(keysetSql(older, 'x.id', 3)).toEqual({
      where: 'x.id < $3',
      order: 'x.id desc',
      limit: '$4',
      params: [42, 4],
    });
    expect(keysetSql(newer, 'r.id', 1)).toEqual({
      where: 'r.id > $1',
      order: 'r.id asc',
      limit: '$2',
      params: [42, 4],
    });
  });
});

/** An in-memory table read the way `keysetFind` says, so the paginator is walked without a database. */
function table(ids: number[]) {
  const reads: KeysetRange<number>[] = [];
  const fetch = async (range: KeysetRange<number>) => {
    reads.push(range);
    const [where, { orderBy, limit }] = keysetFind(range, {});
    const bound = where.id;
    const rows = ids
      .filter((id) => !bound || ('$lt' in bound ? id < bound.$lt : id > bound.$gt))
      .sort((a, b) => (orderBy.id === 'asc' ? a - b : b - a));
    return rows.slice(0, limit).map((id) => ({ id }));
  };
  return { fetch, reads };
}

describe('Paginator.page over a keyset', () => {
  const paginator = new Paginator('a-test-secret');
  const ids = [1, 2, 3, 4, 5, 6, 7];
  const keyOf = (r: { id: number }) => r.id;

  it('walks newest first to the end and back again without repeating a row', async () => {
    const { fetch, reads } = table(ids);
    const forward: number[][] = [];
    let page = await paginator.page({ limit: 3 }, keyOf, fetch);
    forward.push(page.data.map(keyOf));
    expect(page.prevCursor).toBeNull();
    while (page.nextCursor) {
      page = await paginator.page({ limit: 3, cursor: page.nextCursor }, keyOf, fetch);
      forward.push(page.data.map(keyOf));
    }
    expect(forward).toEqual([[7, 6, 5], [4, 3, 2], [1]]);
    expect(reads[0]).toEqual({ after: null, take: 4 });
    expect(reads[1]).toEqual({ after: { op: 'lt', key: 5 }, take: 4 });

    const back: number[][] = [];
    while (page.prevCursor) {
      page = await paginator.page({ limit: 3, cursor: page.prevCursor }, keyOf, fetch);
      back.push(page.data.map(keyOf));
    }
    expect(back).toEqual([
      [4, 3, 2],
      [7, 6, 5],
    ]);
    expect(page.prevCursor).toBeNull();
  });

  it('presents each row of the page when given a presenter, and only those rows', async () => {
    const { fetch } = table(ids);
    const seen: unknown[][] = [];
    const page = await paginator.page({ limit: 2 }, keyOf, fetch, (...args: unknown[]) => {
      seen.push(args);
      return `#${(args[0] as { id: number }).id}`;
    });
    expect(page.data).toEqual(['#7', '#6']);
    expect(seen).toEqual([[{ id: 7 }], [{ id: 6 }]]);
    expect(page.nextCursor).toBe(paginator.encode(6, 'next'));
  });

  it('refuses a cursor that was tampered with', async () => {
    const { fetch } = table(ids);
    const cursor = paginator.encode(5, 'next');
    const forged = `${Buffer.from(JSON.stringify({ k: 99, d: 'next' })).toString('base64url')}.${cursor.split('.')[1]}`;
    await expect(paginator.page({ limit: 3, cursor: forged }, keyOf, fetch)).rejects.toBeInstanceOf(
      DomainError,
    );
  });
});

describe('pagedList (a list use case declared once)', () => {
  const ctx = { paginator: new Paginator('a-test-secret') };
  const input = pageInput.extend({ status: z.enum(['a', 'b']).optional() });
  const list = pagedList({
    input,
    keyOf: (r: { id: number }) => r.id,
    fetch: async (_ctx: typeof ctx, who: string, q, range) =>
      [5, 4, 3].slice(0, range.take).map((id) => ({ id, who, status: q.status })),
    present: (r) => `${r.who}:${r.id}:${r.status ?? '-'}`,
  });

  it('hands the filters its door parsed and the caller to the query, and presents the page', async () => {
    const page = await list(ctx, 'w1', parseInput(input, { limit: '2', status: 'a' }));
    expect(page.data).toEqual(['w1:5:a', 'w1:4:a']);
    expect(page.limit).toBe(2);
    expect(page.nextCursor).toBe(ctx.paginator.encode(4, 'next'));
  });

  it('refuses, at the boundary, input its schema refuses, as a validation error', () => {
    expect(() => parseInput(input, { status: 'c' })).toThrow(
      expect.objectContaining({ type: 'validation_error' }),
    );
  });
});
