import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { DomainError } from '../errors.ts';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 200;

/** `limit` (default 50, above 200 clamped to 200) and an opaque `cursor` (SPEC 4.6, CONTRACT 14). */
export const pageInput = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .default(DEFAULT_LIMIT)
    .transform((n) => Math.min(n, MAX_LIMIT))
    .meta({
      description: `Page size: default ${DEFAULT_LIMIT}; above ${MAX_LIMIT} is clamped to ${MAX_LIMIT}.`,
    }),
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

  async page<T, K extends CursorKey>(
    input: PageInput,
    keyOf: (row: T) => K,
    fetch: (range: KeysetRange<K>) => Promise<T[]>,
  ): Promise<Page<T>> {
    const cursor = input.cursor ? this.decode<K>(input.cursor) : null;
    const limit = input.limit;
    if (!cursor || cursor.d === 'next') {
      const rows = await fetch({ after: cursor ? { op: 'lt', key: cursor.k } : null, take: limit + 1 });
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
    const rows = await fetch({ after: { op: 'gt', key: cursor.k }, take: limit + 1 });
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
