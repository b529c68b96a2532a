/** Stable error codes of CONTRACT 3; each door maps them once (REST status, tRPC code, GraphQL extension). */
export const errorStatus = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found: 404,
  idempotency_conflict: 409,
  invalid_state: 409,
  payload_too_large: 413,
  validation_error: 422,
  insufficient_points: 422,
  out_of_stock: 422,
  reward_unavailable: 422,
  external_fulfilment_failed: 422,
  already_reversed: 422,
  rate_limit_error: 429,
  api_error: 500,
} as const;

export type ErrorType = keyof typeof errorStatus;

export interface FieldError {
  field: string;
  message: string;
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

  get status(): number {
    return errorStatus[this.type];
  }

  toJSON(): { error: Record<string, unknown> } {
    return { error: { type: this.type, message: this.message, ...this.extra } };
  }
}

export const notFound = (what: string) => new DomainError('not_found', `${what} not found`);

export const validationError = (errors: FieldError[]) =>
  new DomainError('validation_error', errors.map((e) => `${e.field}: ${e.message}`).join('; '), { errors });
