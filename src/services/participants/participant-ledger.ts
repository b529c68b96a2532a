import type { AppContext } from '../../context.ts';
import { type Page, type PageInput, pageInput } from '../../lib/pagination.ts';
import type { Scope } from '../keys/principal.ts';
import { presentEntry } from '../ledger/presenters.ts';
import { entriesOf } from '../ledger/repository.ts';
import type { LedgerEntryDto } from '../ledger/shapes.ts';
import { findParticipant } from './repository.ts';

export const participantLedgerInput = pageInput;

/** `GET /v1/participants/{external_id}/ledger`: the participant's entries, newest first. */
export async function participantLedger(
  ctx: AppContext,
  who: Scope,
  externalId: string,
  q: PageInput,
): Promise<Page<LedgerEntryDto>> {
  const participant = await findParticipant(ctx.pool, who, externalId);
  return ctx.paginator.page(
    q,
    (e: LedgerEntryDto) => e.id,
    async (range) => (await entriesOf(ctx.pool, participant.id, range)).map(presentEntry),
  );
}
