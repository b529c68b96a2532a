import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import client from 'prom-client';
import type { AppContext } from './context.ts';
import { QUEUES } from './jobs/queues.ts';

export type Metrics = ReturnType<typeof createMetrics>;

/**
 * The route template express matched (`/v1/rewards/:id`), or undefined; read when the response
 * finishes. The mount path comes from `routeBase` when the router set it (see below).
 */
export function matchedRoute(req: Request, res: Response): string | undefined {
  if (!req.route?.path) return undefined;
  const base = typeof res.locals.routeBase === 'string' ? res.locals.routeBase : req.baseUrl;
  return `${base}${req.route.path}`;
}

/**
 * What the data lifecycle job removed (src/services/lifecycle). Module-level, because the job runs
 * wherever a worker runs and every registry of the process exposes the same counts.
 */
export const lifecycleMetrics = {
  rows: new client.Counter({
    name: 'svc_retention_rows_total',
    help: 'Rows the data lifecycle job deleted (or, for message_bodies, blanked), by task',
    labelNames: ['task'] as const,
    registers: [],
  }),
  batches: new client.Counter({
    name: 'svc_retention_batches_total',
    help: 'Bounded batches the data lifecycle job ran, by task',
    labelNames: ['task'] as const,
    registers: [],
  }),
  runs: new client.Counter({
    name: 'svc_retention_runs_total',
    help: 'Data lifecycle runs by outcome: completed, locked (another process held the lock), failed',
    labelNames: ['outcome'] as const,
    registers: [],
  }),
  lastRun: new client.Gauge({
    name: 'svc_retention_last_completed_seconds',
    help: 'Unix time the last data lifecycle run of this process completed',
    registers: [],
  }),
};

/** Request counts and latency by route, queue depth by queue, and Node's default process metrics. */
export function createMetrics(ctx: Pick<AppContext, 'boss' | 'log'>) {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  for (const metric of Object.values(lifecycleMetrics)) registry.registerMetric(metric as client.Metric);
  const requests = new client.Counter({
    name: 'svc_http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const latency = new client.Histogram({
    name: 'svc_http_request_duration_seconds',
    help: 'HTTP request latency by method and route',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  new client.Gauge({
    name: 'svc_queue_depth',
    help: 'Jobs waiting (created or retry) per queue',
    labelNames: ['queue'] as const,
    registers: [registry],
    async collect() {
      try {
        for (const q of await ctx.boss.getQueues(Object.keys(QUEUES)))
          this.set({ queue: q.name }, q.queuedCount);
      } catch (err) {
        ctx.log.warn({ err }, 'queue depth unavailable');
      }
    },
  });

  /** Counts one request and its latency when its response finishes, under `route()`. */
  const observe = (req: IncomingMessage, res: ServerResponse, route: () => string) => {
    const start = process.hrtime.bigint();
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      const labels = { method: req.method ?? '', route: route() };
      requests.inc({ ...labels, status: String(res.statusCode) });
      latency.observe(labels, seconds);
    });
  };
  const middleware: RequestHandler = (req, res, next) => {
    // The matched route pattern, not the raw path, keeps label cardinality bounded.
    observe(req, res, () => matchedRoute(req, res) ?? (req.baseUrl || 'unmatched'));
    next();
  };
  /**
   * Put first in a mounted router: remembers its mount path, because express resets
   * `req.baseUrl` when an error leaves the router, before the response finishes.
   */
  const routeBase: RequestHandler = (req, res, next) => {
    res.locals.routeBase = req.baseUrl;
    next();
  };
  return { registry, observe, middleware, routeBase };
}
