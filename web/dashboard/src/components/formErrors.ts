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
