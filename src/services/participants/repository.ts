import type { EntityManager } from '@mikro-orm/postgresql';
import { ParticipantBadge } from '../badges/entities.ts';

/**
 * The participants' cold reads that MikroORM serves. A participant itself is read and changed in
 * SQL (find-participant.ts and the files that say why), on the pg client of the ledger,
 * engine and redemption transactions that lock its row.
 */

/** Every key+tier a participant holds, newest award first, with the badge's definition. */
export function badgesHeld(em: EntityManager, participantId: number) {
  return em.find(
    ParticipantBadge,
    { participant: participantId },
    { populate: ['badge'], orderBy: { awardedAt: 'desc', id: 'desc' } },
  );
}
