import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * JSON logs on stderr, so `svc … --json` keeps stdout for its one result object. `destination`:
 * tests only.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    { level, base: { service: 'svc' }, serializers: { err: errorFields } },
    destination ?? pino.destination({ fd: 2, sync: false }),
  );
}

const MAX_MESSAGE = 1000;
/** Outside production: the first frames of the stack, enough to find the line that threw. */
const STACK_FRAMES = 5;

/**
 * What a log line says of an error (the `err` key): its type, message and code, the same of its
 * cause, and outside production the top of its stack. Never the error's other properties: pino's
 * default serializer copies them all, and pg-pool hangs the whole client on an idle connection's
 * error (`err.client`), which made one dropped connection a 12 KB line (20 KB with pg-boss's).
 */
export function errorFields(err: unknown, depth = 0): Record<string, unknown> {
  if (!(err instanceof Error)) {
    if (err && typeof err === 'object') {
      const { name, message, code } = err as { name?: unknown; message?: unknown; code?: unknown };
      return pick({ type: str(name), message: str(message), code: str(code) });
    }
    return { message: String(err).slice(0, MAX_MESSAGE) };
  }
  const out: Record<string, unknown> = pick({
    type: err.name,
    message: err.message.slice(0, MAX_MESSAGE),
    code: str((err as { code?: unknown }).code),
  });
  if (depth === 0 && process.env.NODE_ENV !== 'production' && err.stack)
    out.stack = err.stack
      .split('\n')
      .filter((line) => line.startsWith('    at '))
      .slice(0, STACK_FRAMES)
      .map((line) => line.trim())
      .join('\n');
  if (depth < 2) {
    // A connection refused on every address of a host name: the message is empty, the reasons are here.
    if (err instanceof AggregateError)
      out.errors = err.errors.slice(0, 3).map((e: unknown) => errorFields(e, 2));
    if (err.cause !== undefined) out.cause = errorFields(err.cause, depth + 1);
  }
  return out;
}

const str = (v: unknown): string | undefined =>
  typeof v === 'string' ? v.slice(0, MAX_MESSAGE) : typeof v === 'number' ? String(v) : undefined;

function pick(o: Record<string, string | undefined>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== ''));
}
