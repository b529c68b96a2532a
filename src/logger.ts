import pino, { type Logger } from 'pino';

/** JSON logs on stderr, so `svc … --json` keeps stdout for its one result object. */
export function createLogger(level: string): Logger {
  return pino({ level, base: { service: 'svc' } }, pino.destination({ fd: 2, sync: false }));
}
