import type { Sql } from '../../db/tx.ts';
import { notFound } from '../../errors.ts';
import type { Scope } from '../keys/principal.ts';
import { PARTICIPANT_COLUMNS, type ParticipantRow } from './presenters.ts';

// Raw SQL: called with the caller's pg client inside ledger and redemption transactions (`for update`),
// so it takes an `Sql`, not an `em`.

/** The participant with this external id in the caller's workspace and mode, else 404. */
export async function findParticipant(
  sql: Sql,
  who: Scope,
  externalId: string,
  opts: { forUpdate?: boolean } = {},
): Promise<ParticipantRow> {
  const { rows } = await sql.query<ParticipantRow>(
    `select ${PARTICIPANT_COLUMNS} from participants
      where workspace_id = $1 and mode = $2 and external_id = $3${opts.forUpdate ? ' for update' : ''}`,
    [who.workspaceId, who.mode, externalId],
  );
  if (!rows[0]) throw notFound('participant');
  return rows[0];
}
