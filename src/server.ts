import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type pg from 'pg';
import type { Logger } from 'pino';
import { buildHttpHandler, buildProbeApp } from './app.ts';
import type { Config } from './config.ts';
import { resolveDatabase } from './db/database.ts';
import { StartupError } from './errors.ts';
import { createLogger, errorFields } from './logger.ts';
import { newRequestId } from './request-id.ts';
import { openRuntime, type Runtime } from './runtime.ts';
import { attachGraphqlSockets } from './schema/socket.ts';
import { startWorkers } from './worker.ts';

export interface RunningServer {
  url: string;
  databaseUrl: string;
  runtime: Runtime;
  server: http.Server | null;
  /** Stop accepting, finish in-flight requests and jobs, close pools (and the embedded database). */
  shutdown: () => Promise<void>;
}

/** `svc serve`: migrate, then run the API and/or the workers depending on the role. */
export async function startServer(
  config: Config,
  opts: { role?: Config['SVC_ROLE'] } = {},
): Promise<RunningServer> {
  const role = opts.role ?? config.SVC_ROLE;
  const log = createLogger(config.LOG_LEVEL);
  const db = await resolveDatabase(config, (m) => log.info(m));
  let runtime: Runtime | null = null;
  try {
    runtime = await openRuntime(config, db.url, log);
    await warnAboutSettings(runtime.ctx.pool, log);
    return await serve(config, role, log, db, runtime);
  } catch (err) {
    // Nothing may outlive a failed start: the workers, the pools, an embedded Postgres.
    await runtime?.close().catch(() => {});
    await db.stop().catch(() => {});
    throw err;
  }
}

/**
 * Says at start what in the database's configuration will hurt (docs/deploying.md, "Postgres
 * settings that matter"). Autovacuum off: no table gets statistics unless someone runs ANALYZE,
 * and a statement planned on an empty table keeps that plan. Ingest's idempotency lookup then
 * scans all of a workspace's events (bench: 17 ms of a 20 ms batch at 2,200 events, growing).
 */
async function warnAboutSettings(pool: Pick<pg.Pool, 'query'>, log: Logger): Promise<void> {
  const { rows } = await pool.query<{ autovacuum: string }>(
    `select current_setting('autovacuum') as autovacuum`,
  );
  if (rows[0]?.autovacuum === 'off')
    log.warn(
      'postgres runs with autovacuum off: run VACUUM ANALYZE regularly (the planner has no statistics ' +
        'without it, and queue tables keep their dead rows); see docs/deploying.md',
    );
}

/** The rest of startServer once the database and runtime are open: workers, then HTTP. */
async function serve(
  config: Config,
  role: Config['SVC_ROLE'],
  log: Logger,
  db: Awaited<ReturnType<typeof resolveDatabase>>,
  runtime: Runtime,
): Promise<RunningServer> {
  if (role !== 'api') await startWorkers(runtime.ctx);

  let server: http.Server | null = null;
  let sockets: { close(): Promise<void> } | null = null;
  let url = '';
  let draining = false;
  const inFlight = new Set<http.ServerResponse>();
  if (role !== 'worker') {
    const handle = buildHttpHandler(runtime.ctx);
    server = http.createServer((req, res) => {
      inFlight.add(res);
      res.once('close', () => inFlight.delete(res));
      // While draining, every response closes its connection: no client reuses a keep-alive
      // socket that shutdown is about to drop, and the server can finish closing.
      if (draining) res.setHeader('Connection', 'close');
      handle(req, res);
    });
    server.keepAliveTimeout = 65_000;
    server.on('clientError', rejectMalformed);
    url = await listen(server, config.PORT, config.HOST, 'PORT');
    sockets = attachGraphqlSockets(server, runtime.ctx);
    log.info({ url, role }, 'listening');
  } else if (config.WORKER_PORT !== undefined) {
    server = http.createServer(buildProbeApp(runtime.ctx));
    server.on('clientError', rejectMalformed);
    url = await listen(server, config.WORKER_PORT, config.HOST, 'WORKER_PORT');
    log.info({ url, role }, 'listening (health and metrics)');
  }
  log.info({ role, workers: role !== 'api', http: url || null }, 'ready');

  let stopping: Promise<void> | null = null;
  const shutdown = () => {
    stopping ??= (async () => {
      log.info('shutting down');
      // Subscribers go first: their sockets would otherwise hold the server open.
      await sockets?.close();
      if (server) {
        const srv = server;
        draining = true;
        for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
        const closed = new Promise<void>((resolve) => srv.close(() => resolve()));
        srv.closeIdleConnections();
        // A response whose headers already promised keep-alive leaves an idle socket behind it;
        // sweep those, and cut whatever is still open once the grace period is over.
        const sweep = setInterval(() => srv.closeIdleConnections(), 250);
        const cut = setTimeout(() => srv.closeAllConnections(), SHUTDOWN_GRACE_MS);
        await closed;
        clearInterval(sweep);
        clearTimeout(cut);
      }
      await runtime.close();
      await db.stop();
      log.flush();
    })();
    return stopping;
  };
  return { url, databaseUrl: db.url, runtime, server, shutdown };
}

/** Listens on `port` of `host` (setting `variable`); the URL it answers on. */
async function listen(server: http.Server, port: number, host: string, variable: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      const why = { EADDRINUSE: 'the address is already in use', EACCES: 'permission denied' }[
        err.code ?? ''
      ];
      reject(
        why
          ? new StartupError(
              `cannot listen on ${host}:${port}: ${why} (set ${variable} to a free port, or HOST)`,
            )
          : err,
      );
    });
    server.listen(port, host, () => resolve());
  });
  const addr = server.address() as AddressInfo;
  return `http://${addr.family === 'IPv6' ? `[${addr.address}]` : addr.address}:${addr.port}`;
}

/** How long shutdown waits for in-flight requests before closing their connections. */
const SHUTDOWN_GRACE_MS = 20_000;

/**
 * A request node's parser rejects never reaches express; answer it in the same envelope, with
 * an X-Request-Id, instead of node's bare 400.
 */
function rejectMalformed(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const status =
    err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const body = JSON.stringify({
    error: {
      type: 'invalid_request_error',
      message: `Malformed HTTP request (${err.code ?? 'parse error'})`,
    },
  });
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${newRequestId()}\r\nConnection: close\r\n\r\n${body}`,
  );
}

const SIGNAL_NUMBERS = { SIGTERM: 15, SIGINT: 2 } as const;

/**
 * SIGTERM/SIGINT → graceful shutdown, then exit 0 (1 when shutdown failed). A second signal
 * while that runs exits at once (128 + n); the process's `exit` hook still stops an embedded
 * Postgres it started. Takes the server or its start: a signal that arrives while it is starting
 * shuts it down as soon as it is up.
 *
 * Under npm (`npm start`, `npm run svc`, `npx svc`), npm passes a signal to the shell it ran the
 * script with, and `sh -c` dies of it without passing it on: node would go on as an orphan. A
 * process started by npm therefore also shuts down when its parent goes away.
 */
export function exitOnSignals(server: RunningServer | Promise<RunningServer>): void {
  const started = Promise.resolve(server);
  const parent = process.ppid;
  let watchdog: NodeJS.Timeout | undefined;
  let stopping = false;
  let firstAt = 0;
  const stop = (reason: string, code?: number) => {
    if (stopping) {
      // One Ctrl-C under `npm start` arrives twice (from the terminal and forwarded by npm): only
      // a signal a second later is a second request, to stop now.
      if (code !== undefined && Date.now() - firstAt > 1000) process.exit(128 + code);
      return;
    }
    stopping = true;
    firstAt = Date.now();
    clearInterval(watchdog);
    started
      .then(async (running) => {
        running.runtime.ctx.log.info({ reason }, 'stopping');
        await running.shutdown();
      })
      .then(
        () => process.exit(0),
        (err: unknown) => {
          // The logger may not exist (start failed): stderr, in the same one-line shape.
          process.stderr.write(
            `${JSON.stringify({ level: 50, msg: 'shutdown failed', err: errorFields(err) })}\n`,
          );
          process.exit(1);
        },
      );
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => stop(signal, SIGNAL_NUMBERS[signal]));
  }
  if (process.env.npm_lifecycle_event) {
    watchdog = setInterval(() => {
      if (process.ppid !== parent) stop('parent process exited');
    }, 500);
    watchdog.unref();
  }
}
