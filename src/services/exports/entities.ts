import { defineEntity, p } from '@mikro-orm/core';
import { Workspace } from '../workspaces/entities.ts';
import { EXPORT_STATUSES } from './shapes.ts';

/**
 * One requested export (docs/exports.md#how-it-runs). `attempt` is the fencing number of the run that owns the
 * file: each run of the job takes the next number, writes its chunks under it, and marks the
 * export completed only while it still holds the newest number, so a run that was killed (or
 * outlived its job's expiry) can never mix its chunks into a file marked completed.
 */
const ExportSchema = defineEntity({
  name: 'Export',
  tableName: 'exports',
  indexes: [
    { name: 'exports_list_idx', properties: ['workspace', 'mode', 'id'] },
    // deleteExpiredExports reads the oldest expiries first.
    { name: 'exports_expires_at_idx', properties: ['expiresAt'] },
  ],
  checks: [
    {
      name: 'exports_status_check',
      expression: `status in (${EXPORT_STATUSES.map((s) => `'${s}'`).join(', ')})`,
    },
  ],
  properties: {
    /** UUIDv7: time-ordered, so the primary key is also the newest-first cursor. */
    id: p.uuid().primary(),
    workspace: () => p.manyToOne(Workspace).deleteRule('cascade'),
    mode: p.string().length(4),
    resource: p.string().length(32),
    format: p.string().length(8),
    since: p.datetime().nullable(),
    until: p.datetime().nullable(),
    status: p.string().length(16).default('pending'),
    attempt: p.integer().default(0),
    rowCount: p.bigint('number').nullable(),
    sizeBytes: p.bigint('number').nullable(),
    error: p.text().nullable(),
    expiresAt: p.datetime(),
    createdAt: p.datetime().defaultRaw('now()'),
    startedAt: p.datetime().nullable(),
    completedAt: p.datetime().nullable(),
  },
});
export class Export extends ExportSchema.class {}
ExportSchema.setClass(Export);

/**
 * The file of an export in the Postgres storage (storage.ts): numbered chunks of at most
 * CHUNK_BYTES, written by run `attempt`; the completed export serves its own attempt's chunks.
 */
const ExportChunkSchema = defineEntity({
  name: 'ExportChunk',
  tableName: 'export_chunks',
  properties: {
    export: () => p.manyToOne(Export).primary().deleteRule('cascade'),
    attempt: p.integer().primary(),
    seq: p.integer().primary(),
    bytes: p.blob(),
  },
});
export class ExportChunk extends ExportChunkSchema.class {}
ExportChunkSchema.setClass(ExportChunk);
