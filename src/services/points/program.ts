import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Sql } from '../../db/tx.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import type { Scope } from '../keys/principal.ts';
import { mergeProgramRow, programRow } from './repository.ts';
import { DEFAULT_PROGRAM, type ProgramSettings, programShape, type updateProgramInput } from './shapes.ts';

/** Parsed settings by their stored JSON: the engine reads them every batch, they rarely change. */
const parsed = new Map<string, ProgramSettings>();

/** Stored settings over the defaults (a field added later reads its default), or the defaults. */
export function programFrom(stored: Record<string, unknown> | null | undefined): ProgramSettings {
  if (!stored) return DEFAULT_PROGRAM;
  const key = JSON.stringify(stored);
  let settings = parsed.get(key);
  if (!settings) {
    settings = programShape.parse({ ...DEFAULT_PROGRAM, ...stored });
    if (parsed.size >= 1000) parsed.clear();
    parsed.set(key, settings);
  }
  return settings;
}

/** The settings of the workspace and mode. */
export async function programOf(sql: Sql, workspaceId: string, mode: string): Promise<ProgramSettings> {
  return programFrom(await programRow(sql, workspaceId, mode));
}

/** `GET /v1/program` (docs/points.md#programme-settings). */
export function getProgram(ctx: AppContext, who: Scope): Promise<ProgramSettings> {
  return programOf(ctx.pool, who.workspaceId, who.mode);
}

/**
 * `PATCH /v1/program`: replaces the given fields. A change applies to credits made after it
 * (expiry, pending) and to awards made after it (caps); lots already open keep their expiry.
 */
export function updateProgram(
  ctx: AppContext,
  who: Scope,
  patch: z.output<typeof updateProgramInput>,
): Promise<ProgramSettings> {
  // Merged in SQL: two concurrent changes of different fields both stay.
  return unitOfWork(ctx, async ({ sql }) =>
    programShape.parse({
      ...DEFAULT_PROGRAM,
      ...(await mergeProgramRow(sql, who.workspaceId, who.mode, patch)),
    }),
  );
}
