/**
 * Stable error codes (docs/api.md#errors). Each door maps them once (REST `src/rest/error-status.ts`,
 * tRPC's CODES, GraphQL's `extensions.code`), each with a `Record<ErrorType, …>`, so a code
 * added here fails to compile until every door maps it.
 */
export const ERROR_TYPES = [
  'invalid_request_error',
  'authentication_error',
  'permission_error',
  'not_found',
  'idempotency_conflict',
  'invalid_state',
  'payload_too_large',
  'validation_error',
  'insufficient_points',
  'out_of_stock',
  'reward_unavailable',
  'external_fulfilment_failed',
  'already_reversed',
  'tier_required',
  'rate_limit_error',
  'api_error',
] as const;

export type ErrorType = (typeof ERROR_TYPES)[number];

/** What every door answers for an error that is not a DomainError: nothing about its cause. */
export const UNEXPECTED_ERROR_MESSAGE =
  'Something went wrong on our side; the X-Request-Id response header identifies it in our logs';

export interface FieldError {
  field: string;
  message: string;
}

/**
 * A start-up failure the operator fixes (a bad setting, a port in use): `svc` and `npm start`
 * print its message alone, without a stack, and exit 1.
 */
export class StartupError extends Error {
  override name = 'StartupError';
}

/** `svc`'s and `npm start`'s handler of a failed start: a StartupError in one line and exit 1; anything else rethrown. */
export function exitOnStartupError(err: unknown): never {
  if (!(err instanceof StartupError)) throw err;
  process.stderr.write(`svc: ${err.message}\n`);
  process.exit(1);
}

/** The one domain error: a stable `type`, a human message, and extra fields for the envelope. */
export class DomainError extends Error {
  readonly type: ErrorType;
  readonly extra: Record<string, unknown>;

  constructor(type: ErrorType, message: string, extra: Record<string, unknown> = {}) {
    super(message);
    this.name = 'DomainError';
    this.type = type;
    this.extra = extra;
  }

  toJSON(): { error: Record<string, unknown> } {
    return { error: { type: this.type, message: this.message, ...this.extra } };
  }
}

export const notFound = (what: string) => new DomainError('not_found', `${what} not found`);

export const validationError = (errors: FieldError[]) =>
  new DomainError('validation_error', errors.map((e) => `${e.field}: ${e.message}`).join('; '), { errors });
