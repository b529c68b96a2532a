import { Readable } from 'node:stream';
import type { AppContext } from '../../context.ts';
import { deleteChunks, insertChunk, readChunk } from './chunks.sql.ts';

/** One run's file of an export: runs of the same export never share a file (see entities.ts). */
export interface ExportFile {
  exportId: string;
  attempt: number;
}

type Pool = AppContext['pool'];

/**
 * Where export files live. Postgres by default (every process can serve every file, nothing else
 * to run); an S3-compatible store fits the same five calls (`begin` → a multipart upload under
 * `exports/<id>/<attempt>`, `write` → a part, `finish` → complete it, `read` → GET, `delete` →
 * delete the prefix). A writer hands chunks in order, at most {@link CHUNK_BYTES} each, and calls
 * `finish` before the export is marked completed; nothing else may read a file before that.
 */
export interface ExportStorage {
  /** Starts the file of one run, discarding every earlier run's partial file of the export. */
  begin(file: ExportFile): Promise<void>;
  /**
   * Appends chunk `seq` (0, 1, 2, …); throws when a newer run has taken the export over. The
   * writer fills `bytes` again once the returned promise settles: keep a copy to hold them longer.
   */
  write(file: ExportFile, seq: number, bytes: Buffer): Promise<void>;
  /** The file is whole. */
  finish(file: ExportFile): Promise<void>;
  /** The file's bytes, read a chunk at a time as the consumer drains them. */
  read(file: ExportFile): Readable;
  /** Every file of the export. */
  delete(exportId: string): Promise<void>;
}

/** The size of a chunk: what a writer buffers and a reader holds at once, per export. */
export const CHUNK_BYTES = 1024 * 1024;

/** Thrown by `write` when the run is no longer the export's newest: it must stop, it wrote nothing. */
export class SupersededRun extends Error {
  constructor(file: ExportFile) {
    super(`export ${file.exportId}: run ${file.attempt} was superseded by a newer run`);
    this.name = 'SupersededRun';
  }
}

/** Files as `export_chunks` rows (export id, run, seq, bytes). */
export class PostgresExportStorage implements ExportStorage {
  private readonly pool: Pool;

  constructor(pool: Pool) {
    this.pool = pool;
  }

  async begin(file: ExportFile): Promise<void> {
    // Chunks of earlier runs (a killed worker's partial file) go; a late chunk of a stale run
    // could still land after this, but reads name their run, so it is never served.
    await deleteChunks(this.pool, file.exportId);
  }

  async write(file: ExportFile, seq: number, bytes: Buffer): Promise<void> {
    // Fenced: only the export's newest run, still running, may add to the file.
    if (!(await insertChunk(this.pool, file, seq, bytes))) throw new SupersededRun(file);
  }

  async finish(_file: ExportFile): Promise<void> {
    // Every chunk is committed as it is written; the export row's status is the commit point.
  }

  read(file: ExportFile): Readable {
    const pool = this.pool;
    const chunk = (seq: number) => {
      const read = readChunk(pool, file, seq);
      read.catch(() => {}); // a read left behind by a closed download must not go unhandled
      return read;
    };
    async function* chunks() {
      // One chunk per statement, the next one read while this one is sent: memory holds two
      // chunks whatever the file's size.
      for (let seq = 0, next = chunk(0); ; ) {
        const bytes = await next;
        if (!bytes) return;
        next = chunk(++seq);
        yield bytes;
      }
    }
    return Readable.from(chunks(), { objectMode: false, highWaterMark: 1 });
  }

  async delete(exportId: string): Promise<void> {
    await deleteChunks(this.pool, exportId);
  }
}

const storages = new WeakMap<Pool, ExportStorage>();

/** The deployment's export storage (Postgres: the only one so far). */
export function exportStorage(ctx: { pool: Pool }): ExportStorage {
  let storage = storages.get(ctx.pool);
  if (!storage) {
    storage = new PostgresExportStorage(ctx.pool);
    storages.set(ctx.pool, storage);
  }
  return storage;
}
