import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { DomainError } from '../errors.ts';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 200;

/** A `limit` parameter: a positive integer, `def` when absent, above `max` clamped to `max`. */
export const clampedLimit = (def: number, max: number, what: string) =>
  z.coerce
    .number()
    .int()
    .min(1)
    .default(def)
    .transform((n) => Math.min(n, max))
    .meta({ description: `${what}: default ${def}; above ${max} is clamped to ${max}.` });

/** `limit` (default 50, above 200 clamped to 200) and an opaque `cursor` (docs/api.md#pagination). */
export const pageInput = z.object({
  limit: clampedLimit(DEFAULT_LIMIT, MAX_LIMIT, 'Page size'),
  cursor: z.string().max(512).optional().meta({
    description: 'Opaque cursor from `links.next`/`links.prev` (or `meta`); omit for the first page.',
  }),
});
export type PageInput = z.output<typeof pageInput>;

export type CursorKey = string | number;
type Direction = 'next' | 'prev';

export interface Page<T> {
  data: T[];
  limit: number;
  nextCursor: string | null;
  prevCursor: string | null;
}

/** What a repository is asked for: rows strictly below (`lt`, newest first) or above (`gt`, oldest first) a key. */
export interface KeysetRange<K extends CursorKey> {
  after: { op: 'lt' | 'gt'; key: K } | null;
  /** One more than the page size, to learn whether another page exists. */
  take: number;
}

/** Newest first unless the range asks for rows above a key (a `prev` page is read oldest first). */
const orderOf = (range: KeysetRange<CursorKey>): 'asc' | 'desc' =>
  range.after?.op === 'gt' ? 'asc' : 'desc';

/**
 * A keyset range as MikroORM reads it: `em.find(Entity, ...keysetFind(range, where))` adds the
 * condition on `column` (none on the first page) to `where`, and orders and limits by it.
 */
export function keysetFind<K extends CursorKey, W extends object, C extends string = 'id'>(
  range: KeysetRange<K>,
  where: W,
  column: C = 'id' as C,
): [W & { [P in C]?: { $lt: K } | { $gt: K } }, { orderBy: { [P in C]: 'asc' | 'desc' }; limit: number }] {
  const { after } = range;
  const bound = after ? { [column]: after.op === 'lt' ? { $lt: after.key } : { $gt: after.key } } : {};
  return [
    { ...where, ...bound } as W & { [P in C]?: { $lt: K } | { $gt: K } },
    { orderBy: { [column]: orderOf(range) } as { [P in C]: 'asc' | 'desc' }, limit: range.take },
  ];
}

/** SQL fragments of a keyset range; `params` are bound from `$first` on, in this order. */
export interface KeysetSql {
  /** `column < $n` / `column > $n`, or `true` on the first page: always safe to `and` in. */
  where: string;
  /** `column desc` or `column asc`, for `order by`. */
  order: string;
  /** The placeholder of the row count, for `limit`. */
  limit: string;
  params: unknown[];
}

/**
 * A keyset range as raw SQL reads it, for `… where <filters> and ${k.where} order by ${k.order}
 * limit ${k.limit}` with `[...filterParams, ...k.params]`; `first` is the number of the first
 * placeholder it may use (one more than the parameters already bound).
 */
export function keysetSql(range: KeysetRange<CursorKey>, column: string, first: number): KeysetSql {
  const { after, take } = range;
  if (!after) return { where: 'true', order: `${column} desc`, limit: `$${first}`, params: [take] };
  return {
    where: `${column} ${after.op === 'lt' ? '<' : '>'} $${first}`,
    order: `${column} ${orderOf(range)}`,
    limit: `$${first + 1}`,
    params: [after.key, take],
  };
}

/**
 * Keyset pagination over a unique, time-ordered key, newest first. Cursors are signed so a
 * tampered one is a 400, and they name a row rather than an offset, so inserts between two
 * requests never shift or repeat rows.
 */
export class Paginator {
  private readonly secret: string;

  constructor(secret: string) {
    this.secret = secret;
  }

  /**
   * One page of rows: `fetch` reads a range (see `keysetWhere` / `keysetSql`), `keyOf` names a
   * row in a cursor, and `present` (when given) turns each row of the page into what is returned.
   */
  async page<T, K extends CursorKey>(
    input: PageInput,
    keyOf: (row: T) => K,
    fetch: (range: KeysetRange<K>) => Promise<T[]>,
  ): Promise<Page<T>>;
  async page<T, K extends CursorKey, D>(
    input: PageInput,
    keyOf: (row: T) => K,
    fetch: (range: KeysetRange<K>) => Promise<T[]>,
    present: (row: T) => D,
  ): Promise<Page<D>>;
  async page<T, K extends CursorKey, D>(
    input: PageInput,
    keyOf: (row: T) => K,
    fetch: (range: KeysetRange<K>) => Promise<T[]>,
    present?: (row: T) => D,
  ): Promise<Page<T | D>> {
    const page = await this.rows(input, keyOf, fetch);
    return present ? { ...page, data: page.data.map((row) => present(row)) } : page;
  }

  private async rows<T, K extends CursorKey>(
    input: PageInput,
    keyOf: (row: T) => K,
    fetch: (range: KeysetRange<K>) => Promise<T[]>,
  ): Promise<Page<T>> {
    return this.pageFrom(input, await fetch(this.rangeOf<K>(input)), keyOf);
  }

  /**
   * The range a page of `input` reads. With `pageFrom`, for a caller that reads the same page
   * of many lists in one query (GraphQL's batched nested lists); `page` is the two in one.
   */
  rangeOf<K extends CursorKey>(input: PageInput): KeysetRange<K> {
    const cursor = input.cursor ? this.decode<K>(input.cursor) : null;
    if (cursor?.d === 'prev') return { after: { op: 'gt', key: cursor.k }, take: input.limit + 1 };
    return { after: cursor ? { op: 'lt', key: cursor.k } : null, take: input.limit + 1 };
  }

  /** The page of `input` from the rows its range (`rangeOf`) read, in the range's order. */
  pageFrom<T, K extends CursorKey>(input: PageInput, rows: T[], keyOf: (row: T) => K): Page<T> {
    const cursor = input.cursor ? this.decode<K>(input.cursor) : null;
    const limit = input.limit;
    if (!cursor || cursor.d === 'next') {
      const data = rows.slice(0, limit);
      const first = data[0];
      const last = data.at(-1);
      return {
        data,
        limit,
        nextCursor: rows.length > limit && last ? this.encode(keyOf(last), 'next') : null,
        prevCursor: cursor && first ? this.encode(keyOf(first), 'prev') : null,
      };
    }
    const data = rows.slice(0, limit).reverse();
    const first = data[0];
    const last = data.at(-1);
    return {
      data,
      limit,
      nextCursor: last ? this.encode(keyOf(last), 'next') : null,
      prevCursor: rows.length > limit && first ? this.encode(keyOf(first), 'prev') : null,
    };
  }

  encode(key: CursorKey, d: Direction): string {
    const body = Buffer.from(JSON.stringify({ k: key, d })).toString('base64url');
    return `${body}.${this.mac(body)}`;
  }

  decode<K extends CursorKey>(cursor: string): { k: K; d: Direction } {
    const [body, mac] = cursor.split('.');
    const bad = () =>
      new DomainError(
        'invalid_request_error',
        'Invalid cursor: pass back a cursor exactly as the API returned it',
      );
    if (!body || !mac) throw bad();
    const expected = Buffer.from(this.mac(body));
    const given = Buffer.from(mac);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw bad();
    try {
      const parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      if ((parsed.d !== 'next' && parsed.d !== 'prev') || !['string', 'number'].includes(typeof parsed.k))
        throw bad();
      return parsed;
    } catch {
      throw bad();
    }
  }

  private mac(body: string): string {
    return createHmac('sha256', this.secret).update(`cursor:${body}`).digest('base64url').slice(0, 16);
  }
}
