import { z } from 'zod';
import { timestamp, uuidV7 } from '../../lib/shapes.ts';

/** What can be exported (docs/exports.md#api). */
export const exportResource = z
  .enum([
    'participants',
    'ledger',
    'events',
    'redemptions',
    'badges',
    'messages',
    'webhook_deliveries',
    'lots',
    'tiers',
    'streaks',
    'achievements',
    'referrals',
  ])
  .meta({
    id: 'ExportResource',
    description:
      'Rows of one kind, of the key’s workspace and mode. `ledger`, `badges` (awards), `lots` (every point lot, ' +
      'open, spent or expired), `tiers` (every move of a participant’s tier level), `streaks` (each participant’s ' +
      'state in each streak) and `achievements` (awards of badges with criteria) carry their participant’s ' +
      '`external_id`, `referrals` their advocate’s and friend’s; erased participants appear under their ' +
      'pseudonym only.',
  });
export const EXPORT_RESOURCES = exportResource.options;
export type ExportResource = z.output<typeof exportResource>;

export const exportFormat = z.enum(['csv', 'jsonl']).meta({
  id: 'ExportFormat',
  description:
    '`csv`: RFC 4180 with a header row, nested objects as dotted columns, formula-like text cells prefixed ' +
    "with `'`. `jsonl`: one JSON object per line, in the REST shape.",
});
export const EXPORT_FORMATS = exportFormat.options;
export type ExportFormat = z.output<typeof exportFormat>;

/** An export's statuses: the response enum, the `status` filter and the table's CHECK share them. */
export const exportStatus = z.enum(['pending', 'running', 'completed', 'failed']).meta({
  id: 'ExportStatus',
  description:
    '`pending` (queued), `running`, `completed` (the file is whole and downloadable), `failed` (see `error`).',
});
export const EXPORT_STATUSES = exportStatus.options;
export type ExportStatus = z.output<typeof exportStatus>;

/** An export (docs/exports.md#api). */
export const exportShape = z
  .object({
    id: uuidV7('Export id (UUIDv7, time-ordered).'),
    resource: exportResource,
    format: exportFormat,
    status: exportStatus,
    since: timestamp('Only rows created at or after this time.').nullable(),
    until: timestamp(
      'Only rows created before this time (default: when the export was requested).',
    ).nullable(),
    row_count: z.int().min(0).nullable().meta({ description: 'Rows in the file, once completed.' }),
    size_bytes: z.int().min(0).nullable().meta({ description: 'Bytes in the file, once completed.' }),
    download_url: z.string().nullable().meta({
      description:
        'Once completed: a URL anyone holding it may GET for one hour (a fresh one on every read of the export).',
    }),
    expires_at: timestamp('When the file is deleted (7 days after the request).'),
    error: z.string().nullable().meta({ description: 'Why it failed.' }),
    created_at: timestamp('When it was requested.'),
    completed_at: timestamp('When the file was completed (or the export failed).').nullable(),
  })
  .meta({ id: 'Export' });
export type ExportDto = z.output<typeof exportShape>;
