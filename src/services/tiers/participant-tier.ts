import type { AppContext } from '../../context.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import { notFound, validationError } from '../../errors.ts';
import { type Page, type PageInput, pageInput } from '../../lib/pagination.ts';
import type { Scope } from '../keys/principal.ts';
import { findParticipant } from '../participants/repository.ts';
import { presentMove, presentTier } from './presenters.ts';
import { tierRulesOf } from './programme.ts';
import { lockStanding, type MoveRow, movesOf } from './repository.ts';
import { assign } from './rules.ts';
import type { ParticipantTierDto, TierMoveDto } from './shapes.ts';
import { standingOf, writeStandings } from './standing.sql.ts';

export const tierHistoryInput = pageInput;

/** `GET /v1/participants/{external_id}/tier-history`: every move, newest first. */
export async function tierHistory(
  ctx: AppContext,
  who: Scope,
  externalId: string,
  q: PageInput,
): Promise<Page<TierMoveDto>> {
  const participant = await findParticipant(ctx.pool, who, externalId);
  return ctx.paginator.page(
    q,
    (r: MoveRow) => r.id,
    (range) => movesOf(ctx.pool, participant.id, range),
    presentMove,
  );
}

/**
 * `PUT /v1/participants/{external_id}/tier`: an operator sets the level by hand, recorded as a
 * `manual` move with their note; the downgrade rules then apply to it as to any level
 * (docs/tiers.md#moves). 404 for an unknown participant, 422 for a key the programme does
 * not have (or no programme). Answers the participant's tier.
 */
export async function setParticipantTier(
  ctx: AppContext,
  who: Scope,
  externalId: string,
  input: { key: string; reason: string },
): Promise<ParticipantTierDto> {
  await unitOfWork(ctx, async ({ sql }) => {
    const row = await lockStanding(sql, who.workspaceId, who.mode, externalId);
    if (!row) throw notFound('participant');
    const rules = await tierRulesOf(sql, who.workspaceId, who.mode);
    if (!rules)
      throw validationError([{ field: 'key', message: 'no tier programme runs: PUT /v1/tiers first' }]);
    if (!rules.programme.levels.some((l) => l.key === input.key))
      throw validationError([
        {
          field: 'key',
          message: `no level "${input.key}"; the levels are ${rules.programme.levels.map((l) => l.key).join(', ')}`,
        },
      ]);
    const out = assign(standingOf(row), rules, new Date(), input.key, input.reason);
    await writeStandings(sql, {
      standings: [{ participantId: Number(row.id), standing: out.standing }],
      moves: out.move
        ? [
            {
              workspaceId: who.workspaceId,
              mode: who.mode,
              participantId: Number(row.id),
              externalId: row.external_id,
              move: out.move,
            },
          ]
        : [],
      credits: [],
    });
  });
  return presentTier(await findParticipant(ctx.pool, who, externalId))!;
}
