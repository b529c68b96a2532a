import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import { RUN_EXPORT_QUEUE } from '../../jobs/queues.ts';
import { uuidv7 } from '../../lib/uuid7.ts';
import type { Scope } from '../keys/principal.ts';
import { presentExport } from './presenters.ts';
import { insertExport } from './repository.ts';
import { type ExportDto, exportFormat, exportResource } from './shapes.ts';

/** How long a file is kept (docs/exports.md#expiry); the lifecycle job deletes it after (delete-expired.ts). */
export const EXPORT_TTL_DAYS = 7;

const instant = z.iso.datetime({ offset: true });

export const createExportInput = z
  .strictObject({
    resource: exportResource,
    format: exportFormat,
    since: instant.optional().meta({ description: 'Only rows created at or after this time (ISO 8601).' }),
    until: instant.optional().meta({
      description: 'Only rows created before this time (ISO 8601); default: when the export is requested.',
    }),
  })
  .refine((q) => !q.since || !q.until || Date.parse(q.since) < Date.parse(q.until), {
    path: ['until'],
    message: 'must be after since',
  });
export type CreateExportInput = z.output<typeof createExportInput>;

/**
 * `POST /v1/exports` (docs/exports.md#api): records a pending export and queues its run in the same
 * transaction (a rollback drops both). `until` defaults to the request time, so the file is the
 * rows that existed when it was asked for, however long the run waits in the queue.
 */
export async function requestExport(ctx: AppContext, who: Scope, q: CreateExportInput): Promise<ExportDto> {
  const id = uuidv7();
  const row = await unitOfWork(ctx, async ({ sql, send }) => {
    const row = await insertExport(sql, who, {
      id,
      resource: q.resource,
      format: q.format,
      since: q.since ?? null,
      until: q.until ?? null,
      ttlDays: EXPORT_TTL_DAYS,
    });
    await send(RUN_EXPORT_QUEUE, { exportId: id });
    return row;
  });
  return presentExport(row, null);
}
