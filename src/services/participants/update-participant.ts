import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { text } from '../../lib/primitives.ts';
import { LIMITS } from '../events/event-input.ts';
import type { Scope } from '../keys/principal.ts';
import { parseInput } from '../validation.ts';
import {
  PARTICIPANT_COLUMNS,
  type ParticipantDto,
  type ParticipantRow,
  presentParticipant,
} from './presenters.ts';

// Raw SQL: participants' rows are upserted by the ingest statement (events/event-writer.ts, bench
// scenario `events.post`) and read in SQL by the ledger; a PATCH is one `update … returning` of the
// columns those reads present.

/** PATCH body: each given field replaces the stored one; null clears it; absent ones stay. */
export const updateParticipantInput = z.strictObject({
  email: text(LIMITS.emailLength).trim().nullable().optional(),
  phone: text(LIMITS.phoneLength).trim().nullable().optional(),
  name: text(LIMITS.nameLength).trim().nullable().optional(),
});
export type UpdateParticipantInput = z.input<typeof updateParticipantInput>;

/** `PATCH /v1/participants/{external_id}`: replaces PII (SPEC 2.4; events only ever enrich). */
export async function updateParticipant(
  ctx: AppContext,
  who: Scope,
  externalId: string,
  input: unknown,
): Promise<ParticipantDto> {
  const body = parseInput(updateParticipantInput, input);
  const sets: string[] = [];
  const params: unknown[] = [who.workspaceId, who.mode, externalId];
  for (const field of ['email', 'phone', 'name'] as const) {
    const value = body[field];
    if (value === undefined) continue;
    params.push(value === null || value === '' ? null : value);
    sets.push(`${field} = $${params.length}`);
  }
  sets.push('updated_at = now()');
  const { rows } = await ctx.pool.query<ParticipantRow>(
    `update participants set ${sets.join(', ')}
      where workspace_id = $1 and mode = $2 and external_id = $3
      returning ${PARTICIPANT_COLUMNS}`,
    params,
  );
  if (!rows[0]) throw notFound('participant');
  return presentParticipant(rows[0]);
}
