import { z } from 'zod';
import { modeShape } from './principal.ts';

/** An API key as the dashboard and the CLI list it: never its plaintext. */
export const apiKeyShape = z.object({
  id: z.string(),
  mode: modeShape,
  abilities: z.array(z.string()),
  name: z.string().nullable(),
  hint: z.string(),
  created_at: z.string(),
  revoked_at: z.string().nullable(),
});
export type ApiKeyDto = z.output<typeof apiKeyShape>;
