import type { Sql } from '../../db/tx.ts';
import type { Mode } from '../keys/principal.ts';
import { insertParticipant, participantIdOf } from './repository.ts';

export interface EnsuredParticipant {
  id: number;
  externalId: string;
}

/**
 * Finds the participant, creating it when unknown (the first reference creates it). Known
 * participants (the common case) cost one SELECT. The insert never overwrites anything; a
 * concurrent creator makes ours wait for it and then do nothing, and the second SELECT sees its
 * committed row (read committed), so both callers get the same id.
 */
export async function ensureParticipant(
  sql: Sql,
  p: { workspaceId: string; mode: Mode; externalId: string },
): Promise<EnsuredParticipant> {
  const found = await participantIdOf(sql, p);
  if (found !== null) return { id: found, externalId: p.externalId };
  const id = (await insertParticipant(sql, p)) ?? (await participantIdOf(sql, p));
  if (id === null) throw new Error(`participant ${p.externalId} vanished while being ensured`);
  return { id, externalId: p.externalId };
}
