import type { z } from 'zod';
import { notifyError } from '../notify.ts';
import { describeError } from '../trpc.ts';

/**
 * A form's failed mutation: the field errors the form shows beside its inputs are not repeated in
 * a notification; anything else (another field, no field at all) is notified.
 */
export function notifyUnlessShown(error: unknown, shownFields: readonly string[]): void {
  const { fields } = describeError(error);
  if (fields.length && fields.every((f) => shownFields.includes(f.field))) return;
  notifyError(error);
}

/** The message of the first error on `field`, for an input's `error` prop. */
export const fieldErrorOf = (error: unknown, field: string): string | undefined =>
  error ? describeError(error).fields.find((f) => f.field === field)?.message : undefined;

/**
 * A form's values checked with the zod input schema the service itself parses them with (from
 * src/services/…): the first message per field, named as the service's `validation_error` names
 * them (`key`, `config.endpoint_url`), so a form shows the same words beside the same inputs
 * before the request is sent as after. `{}` when the values pass.
 */
export function zodFieldErrors(schema: z.ZodType, input: unknown): Record<string, string> {
  const result = schema.safeParse(input);
  const errors: Record<string, string> = {};
  if (result.success) return errors;
  for (const issue of result.error.issues) {
    const field = issue.path.length ? issue.path.join('.') : '(body)';
    errors[field] ??= issue.message;
  }
  return errors;
}
