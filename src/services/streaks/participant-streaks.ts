import type { AppContext } from '../../context.ts';
import type { Scope } from '../keys/principal.ts';
import { findParticipant } from '../participants/repository.ts';
import { programOf } from '../points/program.ts';
import { rulesOf } from './definitions.ts';
import { participantStreakRows } from './repository.ts';
import { PeriodFinder, viewAt } from './rules.ts';
import type { ParticipantStreakDto } from './shapes.ts';
import { type StateRow, stateOf } from './state.sql.ts';

/**
 * `GET /v1/participants/{external_id}/streaks`: every running streak as it stands now in the
 * participant's time zone, the periods passed since their row was last written accounted for
 * (docs/engagement.md#reading-a-participants-streaks). One statement after the participant's.
 */
export async function participantStreaks(
  ctx: AppContext,
  who: Scope,
  externalId: string,
  now = new Date(),
): Promise<{ data: ParticipantStreakDto[] }> {
  const participant = await findParticipant(ctx.pool, who, externalId);
  const rows = await participantStreakRows(ctx.pool, who, participant.id);
  const timezone =
    participant.timezone ??
    (rows.length ? (await programOf(ctx.pool, who.workspaceId, who.mode)).timezone : 'UTC');
  const finder = new PeriodFinder();
  return {
    data: rows.map((r) => ({
      key: r.key,
      name: r.name,
      frequency: r.frequency,
      ...viewAt(r.has_state ? stateOf(r as StateRow) : null, rulesOf(r), now, timezone, finder),
    })),
  };
}
