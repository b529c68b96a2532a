import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { text } from '../../lib/primitives.ts';
import { LIMITS } from '../events/event-input.ts';
import type { Scope } from '../keys/principal.ts';
import { presentParticipant } from './presenters.ts';
import { updatePii } from './repository.ts';
import type { ParticipantDto } from './shapes.ts';
import { timezoneShape } from './timezone.ts';

/** PATCH body: each given field replaces the stored one; null clears it; absent ones stay. */
export const updateParticipantInput = z.strictObject({
  email: text(LIMITS.emailLength).trim().nullable().optional(),
  phone: text(LIMITS.phoneLength).trim().nullable().optional(),
  name: text(LIMITS.nameLength).trim().nullable().optional(),
  /** Their streak periods' time zone; null: the programme's (docs/engagement.md#streaks). */
  timezone: timezoneShape.nullable().optional(),
});
export type UpdateParticipantInput = z.output<typeof updateParticipantInput>;

/** `PATCH /v1/participants/{external_id}`: replaces PII (events only ever enrich it). */
export async function updateParticipant(
  ctx: AppContext,
  who: Scope,
  externalId: string,
  body: UpdateParticipantInput,
): Promise<ParticipantDto> {
  const fields: Partial<Record<'email' | 'phone' | 'name' | 'timezone', string | null>> = {};
  for (const field of ['email', 'phone', 'name', 'timezone'] as const) {
    const value = body[field];
    // An empty string clears the field, as null does.
    if (value !== undefined) fields[field] = value === null || value === '' ? null : value;
  }
  const row = await updatePii(ctx.pool, who, externalId, fields);
  if (!row) throw notFound('participant');
  return presentParticipant(row);
}
