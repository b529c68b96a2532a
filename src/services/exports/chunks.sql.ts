import pg from 'pg';
import { copyBytea } from '../../db/copy-rows.ts';
import type { Sql } from '../../db/tx.ts';
import type { ExportFile } from './storage.ts';

// Raw SQL: a chunk is read with one binary COPY (`copyBytea`, bench suite `exports`: RSS < 100 MB, the
// download at COPY speed) and written by an INSERT fenced on the export's newest run.

/** Every chunk of every run of the export. */
export async function deleteChunks(sql: Sql, exportId: string): Promise<void> {
  await sql.query(`delete from export_chunks where export_id = $1`, [exportId]);
}

/** Appends chunk `seq` while the run is the export's newest and still running; false when it is not. */
export async function insertChunk(sql: Sql, file: ExportFile, seq: number, bytes: Buffer): Promise<boolean> {
  const { rowCount } = await sql.query(
    `insert into export_chunks (export_id, attempt, seq, bytes)
       select $1, $2, $3, $4 where exists (
         select 1 from exports where id = $1 and attempt = $2 and status = 'running')`,
    [file.exportId, file.attempt, seq, bytes],
  );
  return rowCount === 1;
}

/** Chunk `seq` of the run's file, or null past its last chunk (COPY takes no parameters: literals). */
export function readChunk(pool: pg.Pool, file: ExportFile, seq: number): Promise<Buffer | null> {
  return copyBytea(
    pool,
    `select bytes from export_chunks
          where export_id = ${pg.escapeLiteral(file.exportId)} and attempt = ${Number(file.attempt)} and seq = ${Number(seq)}`,
  );
}
