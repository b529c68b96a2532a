import { Writable } from 'node:stream';
import Papa from 'papaparse';
import { z } from 'zod';
import type { ExportFormat } from './shapes.ts';
import { CHUNK_BYTES, type ExportFile, type ExportStorage } from './storage.ts';

const unwrap = (schema: z.ZodType): z.ZodType => {
  let s = schema;
  while (s instanceof z.ZodNullable || s instanceof z.ZodOptional) s = s.unwrap() as z.ZodType;
  return s;
};

/**
 * The CSV columns of a REST shape, in its key order: a nested object's keys become dotted columns
 * (`participant.external_id`), anything else (free-form JSON such as an event's payload) one
 * column holding its JSON text.
 */
export function csvColumns(shape: z.ZodObject, prefix = ''): string[] {
  return Object.entries(shape.shape).flatMap(([key, field]) => {
    const inner = unwrap(field as z.ZodType);
    return inner instanceof z.ZodObject ? csvColumns(inner, `${prefix}${key}.`) : [`${prefix}${key}`];
  });
}

/**
 * How a run encodes: a page of presented rows at a time into the file's text. Whole pages, not
 * row by row through a stream: a stream step per row cost more than the encoding itself (bench
 * suite `exports`).
 */
export interface Encoder {
  /** What the file starts with (the CSV header row; nothing for JSON Lines). */
  header: () => string;
  page: (rows: Record<string, unknown>[]) => string;
}

/**
 * The spreadsheet formula-injection guard (docs/exports.md#formats): a text cell that begins with `=`, `+`, `-`,
 * `@`, tab or CR, or with the full-width `＝`, `＋`, `－`, `＠` (which spreadsheets read as the
 * same operators), is prefixed with `'`. Papa Parse applies it (`escapeFormulae`) to text cells
 * only: a number (points `-10`) is written as the number it is, which no spreadsheet evaluates.
 */
const FORMULA = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/**
 * CSV through Papa Parse's `unparse`, or JSON Lines. Papa Parse rather than csv-stringify: the
 * same RFC 4180 output (a field holding a comma, a quote, CR or LF is quoted, quotes doubled) and
 * formula guard in about half the time, where encoding was half of an export's CPU (bench suite
 * `exports`). It also quotes a guarded cell, and a field with a leading or trailing space.
 */
export function encoder(format: ExportFormat, shape: z.ZodObject): Encoder {
  if (format === 'jsonl')
    return {
      header: () => '',
      page: (rows) => {
        let out = '';
        for (const row of rows) out += `${JSON.stringify(row)}\n`;
        return out;
      },
    };
  const columns = csvColumns(shape);
  // Rows go to the encoder as arrays in column order, free-form JSON as its text; null is an
  // empty field, a boolean `true` / `false`.
  const paths = columns.map((c) => c.split('.'));
  const cells = (row: Record<string, unknown>) =>
    paths.map((path) => {
      let v: unknown = row;
      for (const key of path) v = v === null || v === undefined ? v : (v as Record<string, unknown>)[key];
      return v !== null && typeof v === 'object' ? JSON.stringify(v) : v;
    });
  // RFC 4180: CRLF after every record, the last one included (unparse puts it between records).
  const config: Papa.UnparseConfig = { header: false, newline: '\r\n', escapeFormulae: FORMULA };
  return {
    header: () => `${Papa.unparse([columns], config)}\r\n`,
    page: (rows) => (rows.length ? `${Papa.unparse(rows.map(cells), config)}\r\n` : ''),
  };
}

/**
 * Text in, chunks of CHUNK_BYTES (the last one shorter) written to the storage in order. Two
 * buffers of CHUNK_BYTES, allocated once: the text is encoded straight into one while the other
 * travels to the storage, and a buffer is filled again only once its write has settled. Memory is
 * those two chunks whatever the file's size, and no buffer is allocated per page of rows.
 */
export class ChunkWriter extends Writable {
  size = 0;
  private seq = 0;
  private readonly buffers = [Buffer.allocUnsafe(CHUNK_BYTES), Buffer.allocUnsafe(CHUNK_BYTES)];
  private current = 0;
  private filled = 0;
  private inFlight: Promise<void> = Promise.resolve();
  private readonly storage: ExportStorage;
  private readonly file: ExportFile;

  constructor(storage: ExportStorage, file: ExportFile) {
    super({ decodeStrings: false });
    this.storage = storage;
    this.file = file;
  }

  override _write(chunk: string | Buffer, _enc: BufferEncoding, done: (err?: Error | null) => void): void {
    this.append(chunk).then(() => done(), done);
  }

  override _final(done: (err?: Error | null) => void): void {
    this.flush()
      .then(() => this.inFlight)
      .then(() => done(), done);
  }

  private async append(text: string | Buffer): Promise<void> {
    const length = typeof text === 'string' ? Buffer.byteLength(text) : text.length;
    this.size += length;
    if (typeof text === 'string' && length <= CHUNK_BYTES - this.filled) {
      this.filled += this.buffers[this.current]!.write(text, this.filled);
      if (this.filled === CHUNK_BYTES) await this.flush();
      return;
    }
    // Across a chunk boundary: the bytes once, copied in pieces.
    const bytes = typeof text === 'string' ? Buffer.from(text) : text;
    for (let at = 0; at < bytes.length; ) {
      const n = bytes.copy(this.buffers[this.current]!, this.filled, at);
      at += n;
      this.filled += n;
      if (this.filled === CHUNK_BYTES) await this.flush();
    }
  }

  /** Starts writing the current buffer once the previous write has settled, and switches buffers. */
  private async flush(): Promise<void> {
    await this.inFlight;
    if (!this.filled) return;
    const write = this.storage.write(
      this.file,
      this.seq++,
      this.buffers[this.current]!.subarray(0, this.filled),
    );
    // A failed write fails the next flush (or _final), which fails the pipeline.
    write.catch(() => {});
    this.inFlight = write;
    this.current ^= 1;
    this.filled = 0;
  }
}
