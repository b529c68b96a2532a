import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { pageInput } from '../../lib/pagination.ts';
import { text } from '../../lib/primitives.ts';
import type { Scope } from '../keys/principal.ts';
import { pagedList } from '../paged-list.ts';
import { type ParticipantRow, presentParticipant } from './presenters.ts';
import { participantsIn } from './repository.ts';

export const listParticipantsInput = pageInput.extend({
  search: text(255).optional().meta({
    description: 'Case-insensitive substring (or prefix) of the external id, e-mail or name.',
  }),
});
export type ListParticipantsInput = z.output<typeof listParticipantsInput>;

/** `%term%` for ILIKE with the term's own wildcards escaped; control characters dropped. */
export function containsPattern(term: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point
  const clean = term.replace(/[\u0000-\u001f]/g, '');
  return `%${clean.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Participants, newest first, optionally filtered by `search` (docs/api.md#participants-points-and-leaderboards). */
export const listParticipants = pagedList({
  input: listParticipantsInput,
  keyOf: (r: ParticipantRow) => Number(r.id),
  fetch: (ctx: AppContext, who: Scope, q, range) => {
    const search = q.search?.trim();
    return participantsIn(ctx.pool, who, search ? containsPattern(search) : null, range);
  },
  present: presentParticipant,
});
