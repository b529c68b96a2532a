import {
  getExport,
  type ListExportsInput,
  listExports,
  listExportsInput,
} from '../services/exports/list-exports.ts';
import { createExportInput, requestExport } from '../services/exports/request-export.ts';
import {
  EXPORT_FORMATS,
  EXPORT_RESOURCES,
  EXPORT_STATUSES,
  type ExportDto,
} from '../services/exports/shapes.ts';
import { builder } from './builder.ts';
import { CONNECTION_DESCRIPTION, connectionFrom } from './connection.ts';
import { DateTimeScalar } from './date-time.ts';
import { orNull } from './errors.ts';
import { serviceInput } from './names.ts';
import { mirror } from './shape.ts';

const canExport = { ability: 'exports:write' } as const;

const ExportResource = builder.enumType('ExportResource', {
  description: 'Rows of one kind, of the key’s workspace and mode.',
  values: EXPORT_RESOURCES,
});
const ExportFormat = builder.enumType('ExportFormat', {
  description: '`csv` (RFC 4180, header row, formula-guarded) or `jsonl` (one REST-shaped object per line).',
  values: EXPORT_FORMATS,
});
const ExportStatus = builder.enumType('ExportStatus', { values: EXPORT_STATUSES });

/** An export (docs/exports.md#api), as REST's /v1/exports answers it. */
export const Export = builder.objectRef<ExportDto>('Export').implement({
  description: 'A file of one kind of rows, written by a queued job and kept 7 days.',
  fields: mirror((t) => ({
    id: t.exposeID('id', { description: 'UUIDv7.' }),
    resource: t.field({ type: ExportResource, resolve: (e) => e.resource }),
    format: t.field({ type: ExportFormat, resolve: (e) => e.format }),
    status: t.field({ type: ExportStatus, resolve: (e) => e.status }),
    since: t.expose('since', { type: DateTimeScalar, nullable: true }),
    until: t.expose('until', { type: DateTimeScalar, nullable: true }),
    rowCount: t.exposeInt('row_count', { nullable: true, description: 'Rows in the file, once completed.' }),
    sizeBytes: t.exposeFloat('size_bytes', {
      nullable: true,
      description: 'Bytes in the file, once completed (a Float: files may pass 2^31 bytes).',
    }),
    downloadUrl: t.exposeString('download_url', {
      nullable: true,
      description:
        'Once completed: the path (on this server) of the file with a signed token, valid one hour; no key needed.',
    }),
    expiresAt: t.expose('expires_at', { type: DateTimeScalar }),
    error: t.exposeString('error', { nullable: true }),
    createdAt: t.expose('created_at', { type: DateTimeScalar }),
    completedAt: t.expose('completed_at', { type: DateTimeScalar, nullable: true }),
  })),
});

builder.queryFields((t) => ({
  export: t.field({
    type: Export,
    nullable: true,
    description: 'One export, or null (unknown or expired). Needs exports:write.',
    authScopes: canExport,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, { app, who }) => orNull(getExport(app, who, String(args.id))),
  }),
  exports: t.connection(
    {
      type: Export,
      description: `Exports (needs exports:write), filtered by status. ${CONNECTION_DESCRIPTION}`,
      authScopes: canExport,
      args: { status: t.arg({ type: ExportStatus }) },
      validate: serviceInput(listExportsInput),
      // `validate` replaced the arguments with the service's parsed input (the plugin keeps their GraphQL type).
      resolve: async (_root, args, { app, who }) =>
        connectionFrom(await listExports(app, who, args as unknown as ListExportsInput)),
    },
    { name: 'ExportConnection' },
    { name: 'ExportEdge' },
  ),
}));

const CreateExportInput = builder
  .inputType('CreateExportInput', {
    fields: (t) => ({
      resource: t.field({ type: ExportResource, required: true }),
      format: t.field({ type: ExportFormat, required: true }),
      since: t.field({ type: DateTimeScalar, description: 'Only rows created at or after this time.' }),
      until: t.field({
        type: DateTimeScalar,
        description: 'Only rows created before this time (default: now).',
      }),
    }),
  })
  .validate(serviceInput(createExportInput));

builder.mutationFields((t) => ({
  createExport: t.field({
    type: Export,
    description: 'Requests an export (needs exports:write); poll `export(id)` until it is completed.',
    authScopes: canExport,
    args: { input: t.arg({ type: CreateExportInput, required: true }) },
    resolve: (_root, { input }, { app, who }) => requestExport(app, who, input),
  }),
}));
