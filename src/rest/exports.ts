import type { Request } from 'express';
import { z } from 'zod';
import { uuidId } from '../lib/primitives.ts';
import { openExportDownload } from '../services/exports/download-export.ts';
import { getExport, listExports, listExportsInput } from '../services/exports/list-exports.ts';
import { createExportInput, requestExport } from '../services/exports/request-export.ts';
import { type ExportDto, exportShape } from '../services/exports/shapes.ts';
import { paginated } from './openapi-schemas.ts';
import { type Operation, operation, Streamed } from './operation.ts';

const byId = z.object({ id: uuidId('The export id.') });
const downloadQuery = z.object({
  token: z.string().max(512).optional().meta({
    description: 'The signed token of `download_url`: downloads without a key (valid one hour).',
  }),
});

/** `download_url` as an absolute URL on the host the caller reached (services give the path). */
const absolute = (req: Request, dto: ExportDto): ExportDto =>
  dto.download_url
    ? { ...dto, download_url: `${req.protocol}://${req.get('host')}${dto.download_url}` }
    : dto;

const X = 'Exports';

/** Exports (docs/exports.md#api); ability `exports:write`, or the signed `download_url` for the file. */
export const exportsOperations: Operation[] = [
  operation({
    method: 'post',
    path: '/v1/exports',
    operationId: 'createExport',
    tag: X,
    summary: 'Request an export',
    description:
      'Queues a file of every row of `resource` in the key’s workspace and mode created in [`since`, `until`) ' +
      '(`until` defaults to now), oldest first. Poll `GET /v1/exports/{id}` until `status` is `completed`, ' +
      'then fetch `download_url`. Files are kept 7 days.',
    auth: 'exports:write',
    body: { schema: createExportInput },
    success: { status: '202', description: 'Queued.', schema: exportShape },
    handle: ({ ctx, who, body }) => requestExport(ctx, who, body),
  }),
  operation({
    method: 'get',
    path: '/v1/exports',
    operationId: 'listExports',
    tag: X,
    summary: 'List exports',
    description: 'Newest first; expired exports are gone.',
    auth: 'exports:write',
    params: { query: listExportsInput },
    success: { status: '200', description: 'A page of exports.', schema: paginated(exportShape, 'Export') },
    paged: true,
    handle: async ({ ctx, who, req, query }) => {
      const page = await listExports(ctx, who, query);
      return { ...page, data: page.data.map((e) => absolute(req, e)) };
    },
  }),
  operation({
    method: 'get',
    path: '/v1/exports/{id}',
    operationId: 'getExport',
    tag: X,
    summary: 'Show an export',
    description:
      'Unknown or expired: 404. A completed export carries a fresh `download_url`, valid one hour.',
    auth: 'exports:write',
    params: { path: byId },
    success: { status: '200', description: 'The export.', schema: exportShape },
    errors: ['not_found'],
    handle: async ({ ctx, who, params, req }) => absolute(req, await getExport(ctx, who, params.id)),
  }),
  operation({
    method: 'get',
    path: '/v1/exports/{id}/download',
    operationId: 'downloadExport',
    tag: X,
    summary: 'Download an export’s file',
    description:
      'Streams the file (`text/csv; charset=utf-8` or `application/x-ndjson`) as an attachment. With the ' +
      '`token` of `download_url` no key is needed (and a key is not looked at); an unknown, expired or forged ' +
      'token, like an unknown or expired export, is a 404. An export not completed yet is a 409 `invalid_state`.',
    auth: 'exports:write',
    signedUrlQuery: 'token',
    params: { path: byId, query: downloadQuery },
    success: {
      status: '200',
      description: 'The file.',
      content: { 'text/csv; charset=utf-8': z.string(), 'application/x-ndjson': z.string() },
      headers: {
        'Content-Disposition': z.string().meta({
          header: { description: '`attachment; filename="<resource>-<id>.<csv|jsonl>"`' },
        }),
      },
    },
    errors: ['not_found', 'invalid_state'],
    handle: async ({ ctx, req, params, query }) => {
      const file = await openExportDownload(
        ctx,
        params.id,
        query.token !== undefined ? { token: query.token } : { who: req.principal! },
      );
      return new Streamed(
        {
          'Content-Type': file.contentType,
          'Content-Disposition': `attachment; filename="${file.filename}"`,
          'Content-Length': String(file.size),
          'Cache-Control': 'private, no-store',
        },
        file.body,
      );
    },
  }),
];
