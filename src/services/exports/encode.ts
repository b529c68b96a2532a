import { Writable } from 'node:stream';
import { type Options, stringify } from 'csv-stringify/sync';
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

/** CSV through csv-stringify, or JSON Lines. */
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
  // Rows go to csv-stringify as arrays in column order: its own dotted-path lookup parses the
  // path again for every cell, a tenth of the run's CPU (measured with --cpu-prof).
  const paths = columns.map((c) => c.split('.'));
  const cells = (row: Record<string, unknown>) =>
    paths.map((path) => {
      let v: unknown = row;
      for (const key of path) v = v === null || v === undefined ? v : (v as Record<string, unknown>)[key];
      return v;
    });
  const options: Options = {
    columns,
    // RFC 4180: CRLF after every record, and a field holding CR or LF (not only CRLF) is quoted.
    // (Strings, not a regular expression: csv-stringify tests them with indexOf, for every cell.)
    record_delimiter: 'windows',
    quoted_match: ['\r', '\n'],
    // CONTRACT 15's spreadsheet formula-injection guard, csv-stringify's own: a text cell that
    // begins with `=`, `+`, `-`, `@`, tab or CR (or their full-width forms) is prefixed with `'`.
    // Only text cells: a number (points `-10`) is written as the number it is, which no
    // spreadsheet evaluates as a formula. (Our own cast for this cost a call per text cell.)
    escape_formulas: true,
    cast: {
      boolean: (v) => (v ? 'true' : 'false'),
      object: (v) => JSON.stringify(v),
    },
  };
  return {
    header: () => stringify([], { ...options, header: true }),
    page: (rows) => (rows.length ? stringify(rows.map(cells), { ...options, header: false }) : ''),
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
