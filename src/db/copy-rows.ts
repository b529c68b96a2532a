import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';

/**
 * The rows of one `select`, streamed by Postgres's `COPY (…) TO STDOUT` and parsed into the very
 * objects `pool.query` would answer (same keys, and each value through node-pg's own text parser
 * for its column type), a batch per chunk of the stream.
 *
 * Raw SQL for speed (bench suite `exports`): one statement, so one snapshot and no page queries,
 * and Postgres writes the rows on its own core while this process parses the previous chunk; node-pg
 * decoding the same rows from DataRow messages took twice as long. The stream is read only as fast
 * as the caller consumes it: the socket is paused in between, so memory holds about one chunk.
 *
 * COPY takes no bind parameters: put values in `select` with `pg.escapeLiteral`. The client is the
 * generator's own; if the caller stops early or fails, the connection (mid-COPY) is discarded.
 */
export async function* copyRows(pool: pg.Pool, select: string): AsyncGenerator<Record<string, unknown>[]> {
  const client = await pool.connect();
  let clean = false;
  try {
    const { fields } = await client.query(`select * from (${select}) s limit 0`);
    const names = fields.map((f) => f.name);
    const parsers = fields.map((f) => parserOf(f.dataTypeID));
    const stream = client.query(copyTo(`copy (${select}) to stdout`));
    let rest: Buffer | null = null;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      // A row ends at a raw LF (COPY escapes every LF inside a value), which is never part of a
      // multi-byte UTF-8 character: decoding up to the last one never splits a character.
      const bytes: Buffer = rest ? Buffer.concat([rest, chunk]) : chunk;
      const end = bytes.lastIndexOf(10);
      if (end === -1) {
        rest = bytes;
        continue;
      }
      rest = end + 1 < bytes.length ? bytes.subarray(end + 1) : null;
      yield parseLines(bytes.toString('utf8', 0, end), names, parsers);
    }
    if (rest) throw new Error('COPY ended inside a row');
    clean = true;
  } finally {
    client.release(clean ? undefined : true);
  }
}

/** Rows of COPY's text format: LF between rows, tab between fields, `\N` for null. */
function parseLines(text: string, names: string[], parsers: Parser[]) {
  // Every row starts as a copy of one object with every key: the rows share one hidden class.
  const template = Object.fromEntries(names.map((name) => [name, null]));
  const rows: Record<string, unknown>[] = [];
  for (const line of text.split('\n')) {
    const fields = line.split('\t');
    const row: Record<string, unknown> = { ...template };
    for (let i = 0; i < names.length; i++) {
      const f = fields[i]!;
      if (f !== '\\N') row[names[i]!] = parsers[i]!(f.includes('\\') ? unescapeCopy(f) : f);
    }
    rows.push(row);
  }
  return rows;
}

type Parser = (text: string) => unknown;

const TIMESTAMPTZ = 1184;

/** node-pg's text parser of a column type, with a faster path for `timestamptz`. */
function parserOf(oid: number): Parser {
  const parse = pg.types.getTypeParser(oid, 'text') as Parser;
  if (oid !== TIMESTAMPTZ) return parse;
  // `2026-11-26 06:35:30.123456+00` (or `+05:30`), as the ISO DateStyle writes it, is the ISO 8601
  // instant `2026-11-26T06:35:30.123456+00:00` that the engine's Date parses natively, to the same
  // millisecond as node-pg's parser (test/copy-rows); anything else (BC, infinity, an offset with
  // seconds, another DateStyle) goes to node-pg's parser. 0.6 s per million where that takes 1.6 s.
  return (text) => {
    const n = text.length;
    if (n < 22 || text.charCodeAt(4) !== 45 || text.charCodeAt(10) !== 32) return parse(text);
    const sign = text.charCodeAt(n - 3);
    const iso =
      sign === 43 || sign === 45
        ? `${text.slice(0, 10)}T${text.slice(11)}:00`
        : sign === 58 && (text.charCodeAt(n - 6) === 43 || text.charCodeAt(n - 6) === 45)
          ? `${text.slice(0, 10)}T${text.slice(11)}`
          : null;
    const date = iso === null ? null : new Date(iso);
    return date === null || Number.isNaN(date.getTime()) ? parse(text) : date;
  };
}

/** The start of COPY's binary format: signature, flags, header extension length (Postgres docs, COPY). */
const BINARY_SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const BINARY_HEADER = BINARY_SIGNATURE.length + 8;

/**
 * The `bytea` of the one row and column `select` answers (null for no row or a null value),
 * read by `COPY (…) TO STDOUT WITH (FORMAT binary)`: the bytes as stored, where a query's text
 * result doubles them in hex for Postgres to encode and node-pg to decode (bench suite `exports`,
 * the download). The whole value is read before the connection goes back to the pool, so a slow
 * consumer never holds a connection.
 */
export async function copyBytea(pool: pg.Pool, select: string): Promise<Buffer | null> {
  const client = await pool.connect();
  let clean = false;
  try {
    const parts: Buffer[] = [];
    for await (const part of client.query(copyTo(`copy (${select}) to stdout with (format binary)`)))
      parts.push(part as Buffer);
    clean = true;
    const data = Buffer.concat(parts);
    if (!data.subarray(0, BINARY_SIGNATURE.length).equals(BINARY_SIGNATURE))
      throw new Error('COPY answered no binary header');
    const at = BINARY_HEADER + data.readUInt32BE(BINARY_SIGNATURE.length + 4); // skips the extension
    const fields = data.readInt16BE(at); // -1: the trailer, no row
    if (fields === -1) return null;
    if (fields !== 1) throw new Error(`COPY answered ${fields} columns, not one`);
    const length = data.readInt32BE(at + 2);
    if (length === -1) return null;
    if (data.readInt16BE(at + 6 + length) !== -1) throw new Error('COPY answered more than one row');
    return data.subarray(at + 6, at + 6 + length);
  } finally {
    client.release(clean ? undefined : true);
  }
}

const ESCAPES: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

/**
 * A value of COPY's text format as it was: its backslash sequences undone. COPY TO writes `\\`
 * for a backslash and `\b \f \n \r \t \v` for those characters, never octal or hex sequences
 * (Postgres docs, COPY, "Text Format").
 */
function unescapeCopy(field: string): string {
  return field.replace(/\\([\s\S])/g, (_, char: string) => ESCAPES[char] ?? char);
}
