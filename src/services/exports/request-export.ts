import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { withTransaction } from '../../db/tx.ts';
import { RUN_EXPORT_QUEUE } from '../../jobs/queues.ts';
import { clientDb } from '../../jobs/tx.ts';
import { uuidv7 } from '../../lib/uuid7.ts';
import type { Scope } from '../keys/principal.ts';
import { parseInput } from '../validation.ts';
import { EXPORT_COLUMNS, type ExportRow, presentExport } from './presenters.ts';
import { type ExportDto, exportFormat, exportResource } from './shapes.ts';

/** How long a file is kept (CONTRACT 15); the lifecycle job deletes it after (delete-expired.ts). */
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
export type CreateExportInput = z.input<typeof createExportInput>;

/**
 * `POST /v1/exports` (CONTRACT 15): records a pending export and queues its run in the same
 * transaction (a rollback drops both). `until` defaults to the request time, so the file is the
 * rows that existed when it was asked for, however long the run waits in the queue.
 */
export async function requestExport(ctx: AppContext, who: Scope, input: unknown): Promise<ExportDto> {
  const q = parseInput(createExportInput, input);
  const id = uuidv7();
  const row = await withTransaction(ctx.pool, async (client) => {
    const { rows } = await client.query<ExportRow>(
      `insert into exports (id, workspace_id, mode, resource, format, since, until, expires_at)
       values ($1, $2, $3, $4, $5, $6, coalesce($7, now()), now() + make_interval(days => $8))
       returning ${EXPORT_COLUMNS}`,
      [
        id,
        who.workspaceId,
        who.mode,
        q.resource,
        q.format,
        q.since ?? null,
        q.until ?? null,
        EXPORT_TTL_DAYS,
      ],
    );
    await ctx.boss.send(RUN_EXPORT_QUEUE, { exportId: id }, { db: clientDb(client) });
    return rows[0]!;
  });
  return presentExport(row, null);
}
