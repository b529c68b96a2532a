import type { z } from 'zod';
import { validationError } from '../errors.ts';

/** Parses input with a service's zod schema; failures become 422 `validation_error` with field paths. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw validationError(
    result.error.issues.map((issue) => ({
      field: issue.path.length ? issue.path.join('.') : '(body)',
      message: issue.message,
    })),
  );
}
