import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { keysetSql, pageInput } from '../../lib/pagination.ts';
import { text } from '../../lib/primitives.ts';
import type { Scope } from '../keys/principal.ts';
import { pagedList } from '../paged-list.ts';
import { PARTICIPANT_COLUMNS, type ParticipantRow, presentParticipant } from './presenters.ts';

// Raw SQL: the search must repeat the trigram index's expression (`participants_search_trgm_idx`) with
// `ilike`, which MikroORM's filters cannot write.

export const listParticipantsInput = pageInput.extend({
  search: text(255).optional().meta({
    description: 'Case-insensitive substring (or prefix) of the external id, e-mail or name.',
  }),
});
export type ListParticipantsInput = z.input<typeof listParticipantsInput>;

/**
 * The haystack the trigram index `participants_search_trgm_idx` covers (same expression, or the
 * index is not used); chr(31) between fields keeps a match inside one field.
 */
const HAYSTACK = `(external_id || chr(31) || coalesce(email, '') || chr(31) || coalesce(name, ''))`;

/** `%term%` for ILIKE with the term's own wildcards escaped; control characters dropped. */
export function containsPattern(term: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point
  const clean = term.replace(/[\u0000-\u001f]/g, '');
  return `%${clean.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Participants, newest first, optionally filtered by `search` (CONTRACT 7). */
export const listParticipants = pagedList({
  input: listParticipantsInput,
  keyOf: (r: ParticipantRow) => Number(r.id),
  fetch: async (ctx: AppContext, who: Scope, q, range) => {
    const params: unknown[] = [who.workspaceId, who.mode];
    let where = 'workspace_id = $1 and mode = $2';
    const search = q.search?.trim();
    if (search) {
      params.push(containsPattern(search));
      where += ` and ${HAYSTACK} ilike $${params.length}`;
    }
    const k = keysetSql(range, 'id', params.length + 1);
    const { rows } = await ctx.pool.query<ParticipantRow>(
      `select ${PARTICIPANT_COLUMNS} from participants where ${where} and ${k.where}
        order by ${k.order} limit ${k.limit}`,
      [...params, ...k.params],
    );
    return rows;
  },
  present: presentParticipant,
});
