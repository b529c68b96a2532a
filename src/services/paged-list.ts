import type { z } from 'zod';
import type { CursorKey, KeysetRange, Page, PageInput, Paginator } from '../lib/pagination.ts';

/**
 * A list use case, declared once: its input schema (`pageInput` or an extension of it), how a row
 * is named in a cursor, the query that reads one keyset range (`keysetFind` / `keysetSql`), and
 * the presenter. What it returns is the use case: `(ctx, who, input)` → one page, newest first,
 * `input` being what the door already parsed with `spec.input`.
 */
export function pagedList<
  Ctx extends { paginator: Paginator },
  Who,
  S extends z.ZodType<PageInput>,
  T,
  K extends CursorKey,
  D,
>(spec: {
  input: S;
  keyOf: (row: T) => K;
  fetch: (ctx: Ctx, who: Who, q: z.output<S>, range: KeysetRange<K>) => Promise<T[]>;
  present: (row: T) => D;
}): (ctx: Ctx, who: Who, input: z.output<S>) => Promise<Page<D>> {
  return (ctx, who, q) =>
    ctx.paginator.page(q, spec.keyOf, (range) => spec.fetch(ctx, who, q, range), spec.present);
}
