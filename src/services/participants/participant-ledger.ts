import type { AppContext } from '../../context.ts';
import { keysetSql, type Page, pageInput } from '../../lib/pagination.ts';
import type { Scope } from '../keys/principal.ts';
import type { RawEntry } from '../ledger/post-entry.ts';
import { type LedgerEntryRow, presentEntry } from '../ledger/presenters.ts';
import { parseInput } from '../validation.ts';
import { findParticipant } from './find-participant.ts';

// Raw SQL: ledger entries are presented from the ledger's own SQL row shape (`RawEntry`,
// ledger/post-entry.ts, bench suite `engine`).

export const participantLedgerInput = pageInput;

/** `GET /v1/participants/{external_id}/ledger`: the participant's entries, newest first. */
export async function participantLedger(
  ctx: AppContext,
  who: Scope,
  externalId: string,
  input: unknown,
): Promise<Page<LedgerEntryRow>> {
  const q = parseInput(participantLedgerInput, input);
  const participant = await findParticipant(ctx.pool, who, externalId);
  return ctx.paginator.page(
    q,
    (e: LedgerEntryRow) => e.id,
    async (range) => {
      const k = keysetSql(range, 'id', 2);
      const { rows } = await ctx.pool.query<RawEntry>(
        `select id, points, balance_after, reason, source, reference, reverses_entry_id, idempotency_key, created_at
           from ledger_entries
          where participant_id = $1 and ${k.where}
          order by ${k.order} limit ${k.limit}`,
        [participant.id, ...k.params],
      );
      return rows.map(presentEntry);
    },
  );
}
