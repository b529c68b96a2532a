import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import type { AppContext } from '../../context.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import { DomainError, validationError } from '../../errors.ts';
import type { Principal } from '../keys/principal.ts';
import { availableCodes, insertCodes } from './codes.sql.ts';
import {
  CODE_IMPORT_MAX_BYTES,
  code,
  isHeaderRow,
  MAX_CODE_LENGTH,
  MAX_CODES_PER_IMPORT,
  poolReward,
} from './import-codes.ts';
import type { ImportResult } from './shapes.ts';

/** Codes inserted per statement while a file streams in: memory stays at one batch, whatever the file. */
export const STREAM_BATCH = 5_000;

/** A line this long cannot be a code (≤ 200 characters): refused before more of it is buffered. */
const MAX_LINE = 16 * MAX_CODE_LENGTH;

export interface CodeStream {
  /** The body's bytes as they arrive (an HTTP request is one). */
  chunks: AsyncIterable<Uint8Array | string>;
  /** `text`: one code per line. `csv`: RFC 4180 records, first column (a `code` header row skipped). */
  format: 'text' | 'csv';
  /** Bytes allowed; more → 413. Default the import route's 16 MiB. */
  maxBytes?: number;
}

const tooLarge = (maxBytes: number) =>
  new DomainError('payload_too_large', `Request body exceeds ${maxBytes} bytes`, { limit_bytes: maxBytes });

/** The body as strict UTF-8 text, chunk by chunk, counting bytes against the limit. */
async function* decoded(
  chunks: AsyncIterable<Uint8Array | string>,
  maxBytes: number,
): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let bytes = 0;
  const decode = (chunk?: Uint8Array) => {
    try {
      return chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
    } catch {
      throw new DomainError('invalid_request_error', 'Request body is not valid UTF-8');
    }
  };
  for await (const chunk of chunks) {
    const bytesOf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    bytes += bytesOf.byteLength;
    if (bytes > maxBytes) throw tooLarge(maxBytes);
    const text = decode(bytesOf);
    if (text) yield text;
  }
  const tail = decode();
  if (tail) yield tail;
}

/** Lines of a text stream (`\n`, `\r\n` or `\r`), a CR/LF pair split across chunks included. */
export async function* linesOf(texts: AsyncIterable<string>): AsyncGenerator<string> {
  let rest = '';
  for await (const text of texts) {
    rest += text;
    // A trailing CR may be the first half of CRLF: keep it until the next chunk says.
    const held = rest.endsWith('\r');
    const parts = (held ? rest.slice(0, -1) : rest).split(/\r\n|\r|\n/);
    rest = parts.pop()! + (held ? '\r' : '');
    yield* parts;
    if (rest.length > MAX_LINE)
      throw validationError([
        { field: 'codes', message: `a line is longer than ${MAX_CODE_LENGTH} characters` },
      ]);
  }
  if (rest.endsWith('\r')) rest = rest.slice(0, -1);
  if (rest) yield rest;
}

/** First columns of a CSV stream through csv-parse (quoted fields, BOM, blank lines skipped). */
async function* csvFirstColumns(texts: AsyncIterable<string>): AsyncGenerator<string> {
  const source = Readable.from(texts, { objectMode: false });
  const parser = parse({
    relax_column_count: true,
    skip_empty_lines: true,
    bom: true,
    trim: true,
    max_record_size: MAX_LINE,
  });
  // A failure of the body (too large, not UTF-8, client gone) ends the parse with that error.
  source.on('error', (err) => parser.destroy(err));
  source.pipe(parser);
  let first = true;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      const value = record[0] ?? '';
      if (first && isHeaderRow(value)) {
        first = false;
        continue;
      }
      first = false;
      yield value;
    }
  } catch (err) {
    if (err instanceof DomainError) throw err;
    if (String((err as { code?: unknown }).code ?? '').startsWith('CSV_'))
      throw validationError([{ field: 'codes', message: `not valid CSV: ${(err as Error).message}` }]);
    throw err;
  } finally {
    source.destroy();
  }
}

/**
 * Imports codes from a body read as it arrives (the dashboard's file upload): parsed line by line
 * or through csv-parse, each code checked as `importCodes` checks it, and inserted in batches of
 * {@link STREAM_BATCH} inside one transaction, so the file is never held whole and the result is
 * all or nothing. Same limits and semantics as `importCodes`: blank lines ignored, duplicates (in
 * the pool or in the file) skipped and counted, at most 200,000 codes (422), at most 16 MiB (413).
 *
 * The reward is checked (404, 422 for a type without a pool) before the body is read, and not
 * locked: a slow upload must not hold up redemptions of the reward, and the unique index on
 * `(reward_id, code)` already keeps concurrent imports from adding a code twice.
 */
export async function importCodesStream(
  ctx: AppContext,
  who: Principal,
  rewardId: string | number,
  body: CodeStream,
): Promise<ImportResult> {
  const texts = decoded(body.chunks, body.maxBytes ?? CODE_IMPORT_MAX_BYTES);
  const raw = body.format === 'csv' ? csvFirstColumns(texts) : linesOf(texts);
  return unitOfWork(ctx, async ({ sql }) => {
    const reward = await poolReward(sql, who, rewardId, { lock: false });
    const id = Number(reward.id);
    let batch: string[] = [];
    let seen = 0;
    let imported = 0;
    let index = 0;
    for await (const value of raw) {
      const i = index++;
      if (value.trim() === '') continue;
      const checked = code.safeParse(value);
      if (!checked.success)
        throw validationError([{ field: `codes.${i}`, message: checked.error.issues[0]!.message }]);
      if (++seen > MAX_CODES_PER_IMPORT)
        throw validationError([
          { field: 'codes', message: `at most ${MAX_CODES_PER_IMPORT} codes per import` },
        ]);
      batch.push(checked.data);
      if (batch.length >= STREAM_BATCH) {
        imported += await insertCodes(sql, id, batch);
        batch = [];
      }
    }
    if (batch.length) imported += await insertCodes(sql, id, batch);
    return { imported, skipped_duplicates: seen - imported, stock_remaining: await availableCodes(sql, id) };
  });
}
