import type http from 'node:http';
import type { Duplex } from 'node:stream';
import type { GraphQLError } from 'graphql';
import { CloseCode } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { type WebSocket, WebSocketServer } from 'ws';
import type { AppContext } from '../context.ts';
import { DomainError } from '../errors.ts';
import { createGraphQLContext } from './context.ts';
import { maskError } from './errors.ts';
import { validateWithLimits } from './limits.ts';
import { schema } from './schema.ts';

/** How often an open socket re-checks its credential (docs/graphql.md#credentials: closed within 5 s). */
const RECHECK_MS = 2_000;
/** Subscriptions one socket may hold at once; the next one is refused with an error. */
export const MAX_SUBSCRIPTIONS_PER_SOCKET = 50;
/**
 * Slow-socket policy (docs/live-updates.md): bytes a socket may hold unsent (`ws.bufferedAmount`,
 * frames the kernel has not taken because the client is not reading) before it is closed.
 */
export const MAX_SOCKET_BUFFERED_BYTES = 1024 * 1024;
/** How long a socket may hold unsent bytes without any of them leaving before it is closed. */
export const SOCKET_STALL_MS = 5_000;
/** The close code of a socket that does not read: 1013 Try Again Later. */
export const CLOSE_NOT_READING = 1013;

/** Whether a browser page of `origin` may use /graphql (CORS_ORIGINS, or the service's own origin). */
export function originAllowed(
  app: AppContext,
  origin: string | undefined,
  host: string | undefined,
): boolean {
  if (!origin) return true; // not a browser: nothing for CORS to protect
  const allowed = app.config.CORS_ORIGINS;
  if (allowed.includes('*') || allowed.includes(origin)) return true;
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

interface SocketState {
  authorization: string;
  /** Bytes the kernel had taken at the last check, and when a byte last left (or none waited). */
  sent: number;
  movedAt: number;
  keyId: string;
  /** Unix seconds, for a participant token. */
  expiresAt: number | null;
  timer: NodeJS.Timeout | null;
  subscriptions: number;
}

/**
 * graphql-ws (subprotocol `graphql-transport-ws`) on /graphql, on the HTTP server's port. The
 * credential is `connectionParams.authorization` (`Bearer <API key | participant token>`):
 * missing, unknown, revoked or expired closes the socket with 4403 before anything runs. An open
 * socket re-checks its key every 2 s and closes with 4403 once the key is revoked or rotated or
 * the token expires. Each subscription is authorised like a query (`authorizeOnSubscribe`).
 */
export function attachGraphqlSockets(server: http.Server, app: AppContext): { close(): Promise<void> } {
  const wss = new WebSocketServer({ noServer: true, maxPayload: app.config.MAX_BODY_BYTES });
  const onUpgrade = (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/graphql') return refuse(socket, 404, 'Not Found');
    if (!originAllowed(app, req.headers.origin, req.headers.host)) return refuse(socket, 403, 'Forbidden');
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  };
  server.on('upgrade', onUpgrade);

  const states = new WeakMap<object, SocketState>();
  const stop = (state: SocketState | undefined) => {
    if (state?.timer) clearInterval(state.timer);
  };
  // biome-ignore lint/correctness/useHookAtTopLevel: graphql-ws's useServer is no React hook
  const disposable = useServer<Record<string, unknown> | undefined, { state: SocketState }>(
    {
      schema,
      validate: validateWithLimits,
      context: (ctx) => createGraphQLContext(app, states.get(ctx.extra.socket)?.authorization),
      onConnect: async (ctx) => {
        const authorization = ctx.connectionParams?.authorization;
        if (typeof authorization !== 'string') return false;
        let state: SocketState;
        try {
          state = {
            authorization,
            ...(await app.keys.authenticateCaller(authorization)),
            timer: null,
            subscriptions: 0,
            sent: 0,
            movedAt: Date.now(),
          };
        } catch {
          return false; // graphql-ws closes with 4403 Forbidden
        }
        const socket = ctx.extra.socket;
        state.timer = setInterval(() => {
          if (notReading(socket, state)) {
            stop(state);
            return dropSlow(socket);
          }
          const expired = state.expiresAt !== null && state.expiresAt * 1000 <= Date.now();
          const forbid = () => {
            stop(state);
            socket.close(CloseCode.Forbidden, 'Forbidden');
          };
          if (expired) return forbid();
          app.keys.requireLiveKey(state.keyId).catch((err: unknown) => {
            // Revoked or rotated: closed. A failed lookup (the database busy or restarting) says
            // nothing about the key: the socket stays and the next tick asks again.
            if (err instanceof DomainError) forbid();
            else app.log.warn({ err }, 'graphql socket: could not re-check the credential; retrying');
          });
        }, RECHECK_MS);
        state.timer.unref();
        states.set(socket, state);
        return true;
      },
      onSubscribe: (ctx) => {
        const state = states.get(ctx.extra.socket);
        if (state && state.subscriptions >= MAX_SUBSCRIPTIONS_PER_SOCKET)
          return [
            maskError(
              new DomainError(
                'rate_limit_error',
                `At most ${MAX_SUBSCRIPTIONS_PER_SOCKET} subscriptions per socket; complete one first`,
              ),
              '',
            ) as GraphQLError,
          ];
        if (state) state.subscriptions++;
      },
      // Errors are shaped as over HTTP: extensions.code is the REST error type (docs/api.md#errors), nothing internal leaks.
      onNext: (ctx, _id, _payload, _args, result) => {
        // graphql-ws sends a subscription's next frame once the last one left, so unsent bytes
        // stay near one frame per subscription; a socket past the cap is not reading.
        if (ctx.extra.socket.bufferedAmount > MAX_SOCKET_BUFFERED_BYTES) dropSlow(ctx.extra.socket);
        return shaped(result);
      },
      onError: (_ctx, _id, _payload, errors) => errors.map((e) => maskError(e, '') as GraphQLError),
      onComplete: (ctx) => {
        const state = states.get(ctx.extra.socket);
        if (state) state.subscriptions = Math.max(0, state.subscriptions - 1);
      },
      onClose: (ctx) => stop(states.get(ctx.extra.socket)),
    },
    wss,
  );
  return {
    async close() {
      server.off('upgrade', onUpgrade);
      await disposable.dispose();
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

const shaped = <R extends { errors?: readonly GraphQLError[] }>(result: R): R =>
  result.errors ? { ...result, errors: result.errors.map((e) => maskError(e, '') as GraphQLError) } : result;

/**
 * Whether the socket has held unsent bytes over the cap, or for SOCKET_STALL_MS without a byte
 * leaving (the client stopped reading: its TCP window is shut). Called every RECHECK_MS.
 */
function notReading(socket: WebSocket, state: SocketState): boolean {
  const waiting = socket.bufferedAmount;
  if (waiting > MAX_SOCKET_BUFFERED_BYTES) return true;
  // Bytes the kernel took: written (queued included) minus those still waiting.
  const queued = (socket as unknown as { _socket?: { bytesWritten?: number } })._socket?.bytesWritten ?? 0;
  const sent = queued - waiting;
  const now = Date.now();
  if (waiting === 0 || sent !== state.sent) {
    state.sent = sent;
    state.movedAt = now;
    return false;
  }
  return now - state.movedAt >= SOCKET_STALL_MS;
}

/**
 * Closes a socket that does not read with 1013 and drops it a second later: its close frame
 * cannot reach a client that reads nothing, and what it holds (unsent frames, its
 * subscriptions' buffers in the hub) is freed once it is gone.
 */
function dropSlow(socket: WebSocket): void {
  if (socket.readyState !== socket.OPEN) return;
  socket.close(CLOSE_NOT_READING, 'Not reading: send buffer stalled');
  setTimeout(() => socket.terminate(), 1_000).unref();
}

function refuse(socket: Duplex, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}
