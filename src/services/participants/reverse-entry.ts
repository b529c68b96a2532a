import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { uniqueViolation } from '../../db/tx.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import { DomainError, notFound, validationError } from '../../errors.ts';
import { text } from '../../lib/primitives.ts';
import type { Scope } from '../keys/principal.ts';
import { postEntry } from '../ledger/post-entry.ts';
import { entryToReverse } from '../ledger/repository.ts';
import type { LedgerEntryDto } from '../ledger/shapes.ts';
import { findParticipant } from './repository.ts';

export const reverseEntryInput = z.strictObject({
  reason: text(500).trim().min(1).nullish(),
});
export type ReverseEntryInput = z.output<typeof reverseEntryInput>;

const alreadyReversed = (id: number) =>
  new DomainError('already_reversed', `Ledger entry ${id} has already been reversed`, { entry_id: id });

/**
 * `POST /v1/participants/{external_id}/ledger/{entry_id}/reversal`
 * (docs/guarantees.md#the-ledger-immutable-balance--sum-of-entries): a new entry of the opposite
 * sign naming the original. An entry is reversed once: the participant's row lock serializes
 * concurrent attempts and the unique index on `reverses_entry_id` decides if anything slips past.
 * A reversal that would overdraw the balance is 422 insufficient_points.
 */
export async function reverseEntry(
  ctx: AppContext,
  who: Scope,
  externalId: string,
  entryId: string,
  body: ReverseEntryInput = {},
): Promise<LedgerEntryDto> {
  const id = /^[1-9][0-9]{0,17}$/.test(entryId) ? Number(entryId) : null;
  if (id === null) throw notFound('ledger entry');
  try {
    return await unitOfWork(ctx, async ({ sql }) => {
      const participant = await findParticipant(sql, who, externalId, { forUpdate: true });
      const original = await entryToReverse(sql, participant.id, id);
      if (!original) throw notFound('ledger entry');
      if (original.reversed) throw alreadyReversed(id);
      if (original.source === 'reversal')
        throw validationError([{ field: 'entry_id', message: 'a reversal cannot itself be reversed' }]);
      // Its lot is past its expiry: given back, it would expire again at the next tick.
      if (original.source === 'expiry')
        throw validationError([
          {
            field: 'entry_id',
            message: 'an expiry cannot be reversed: credit the points with an adjustment instead',
          },
        ]);
      const points = Number(original.points);
      // Earned points leave lifetime points (and the leaderboards) with the reversal; a
      // reversed debit only gives the balance back.
      const earned = points > 0 && (original.source === 'flow' || original.source === 'adjustment');
      const posted = await postEntry(sql, {
        workspaceId: who.workspaceId,
        mode: who.mode,
        participantId: Number(participant.id),
        externalId: participant.external_id,
        points: -points,
        source: 'reversal',
        reason: body.reason ?? `Reversal of entry ${id}`,
        reversesEntryId: id,
        lifetimeDelta: earned ? -points : 0,
      });
      return posted.entry;
    });
  } catch (err) {
    if (uniqueViolation(err) === 'ledger_entries_reverses_entry_id_unique') throw alreadyReversed(id);
    throw err;
  }
}
