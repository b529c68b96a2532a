import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { keysetSql, type Page, pageInput } from '../../lib/pagination.ts';
import type { Scope } from '../keys/principal.ts';
import { parseInput } from '../validation.ts';
import {
  PARTICIPANT_COLUMNS,
  type ParticipantDto,
  type ParticipantRow,
  presentParticipant,
} from './presenters.ts';

export const listParticipantsInput = pageInput.extend({
  search: z.string().max(255).optional().meta({
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
export async function listParticipants(
  ctx: AppContext,
  who: Scope,
  input: unknown,
): Promise<Page<ParticipantDto>> {
  const q = parseInput(listParticipantsInput, input);
  const search = q.search?.trim() ? containsPattern(q.search.trim()) : null;
  const params: unknown[] = [who.workspaceId, who.mode];
  let where = 'workspace_id = $1 and mode = $2';
  if (search) {
    params.push(search);
    where += ` and ${HAYSTACK} ilike $${params.length}`;
  }
  return ctx.paginator.page(
    q,
    (r: ParticipantRow) => Number(r.id),
    async (range) => {
      const k = keysetSql(range, 'id', params.length + 1);
      const { rows } = await ctx.pool.query<ParticipantRow>(
        `select ${PARTICIPANT_COLUMNS} from participants where ${where} and ${k.where}
          order by ${k.order} limit ${k.limit}`,
        [...params, ...k.params],
      );
      return rows;
    },
    presentParticipant,
  );
}
