import { z } from 'zod';
import { errorEnvelopeOf, requestIdHeader } from './openapi-schemas.ts';
import { type Operation, operation, Reply } from './operation.ts';

const O = 'Operations';

/** The document itself, and health and metrics outside /v1. */
export const metaOperations: Operation[] = [
  operation({
    method: 'get',
    path: '/v1/openapi.json',
    operationId: 'getOpenApiDocument',
    tag: 'Meta',
    summary: 'This document',
    description:
      'OpenAPI 3.1, generated from the zod schemas the routes validate with. Browsable at `/docs`.',
    auth: 'none',
    success: {
      status: '200',
      description: 'The OpenAPI document.',
      schema: z.record(z.string(), z.unknown()),
    },
    // Served as a string built once, beside the /docs page it feeds.
    servedBy: 'docsRouter in src/rest/openapi.ts',
  }),
  operation({
    method: 'get',
    path: '/healthz',
    operationId: 'healthz',
    tag: O,
    summary: 'Liveness',
    description: 'The process is up; touches nothing else.',
    auth: 'none',
    success: { status: '200', description: 'Alive.', schema: z.object({ ok: z.literal(true) }) },
    handle: async () => ({ ok: true }),
  }),
  operation({
    method: 'get',
    path: '/readyz',
    operationId: 'readyz',
    tag: O,
    summary: 'Readiness',
    description: 'Ready to serve: the database answers.',
    auth: 'none',
    success: {
      status: '200',
      description: 'Ready.',
      schema: z.object({ ok: z.literal(true), database: z.literal('up') }),
    },
    extraResponses: {
      '503': {
        description: 'The database is unreachable (`api_error`).',
        headers: z.object({ 'X-Request-Id': requestIdHeader }),
        content: { 'application/json': { schema: errorEnvelopeOf(['api_error']) } },
      },
    },
    handle: async ({ ctx }) => {
      try {
        await ctx.pool.query('select 1');
        return { ok: true, database: 'up' };
      } catch {
        return new Reply(503, { error: { type: 'api_error', message: 'database unreachable' } });
      }
    },
  }),
  operation({
    method: 'get',
    path: '/metrics',
    operationId: 'metrics',
    tag: O,
    summary: 'Prometheus metrics',
    description: 'Request counts and latency by route, queue depth by queue, and Node process metrics.',
    auth: 'none',
    success: {
      status: '200',
      description: 'Prometheus text exposition format.',
      contentType: 'text/plain; version=0.0.4',
      schema: z.string(),
    },
    // The registry is built with the app (one per HTTP handler), so the app serves it.
    servedBy: 'buildApp in src/app.ts',
  }),
];

/** What a worker process serves when it listens (`WORKER_PORT`, see buildProbeApp in src/app.ts). */
export const PROBE_OPERATIONS = metaOperations.filter(
  (op) => op.operationId === 'healthz' || op.operationId === 'readyz',
);
