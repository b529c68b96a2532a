import type { ErrorType } from '../errors.ts';

export type { ErrorType };

/** The REST door's one mapping of a DomainError's code to its HTTP status (docs/api.md#errors). */
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
  tier_required: 422,
  rate_limit_error: 429,
  api_error: 500,
} as const satisfies Record<ErrorType, number>;
