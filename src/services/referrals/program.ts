import type { AppContext } from '../../context.ts';
import { unitOfWork } from '../../db/unit-of-work.ts';
import { DomainError } from '../../errors.ts';
import { isoTime } from '../../lib/iso-time.ts';
import { ensureBadges } from '../flows/engine/load.ts';
import type { Scope } from '../keys/principal.ts';
import { type ProgramRow, referralProgramRow, storeReferralProgram } from './repository.ts';
import { referralProgramFrom } from './settings.ts';
import type { ReferralProgramDto, ReferralProgramInput, ReferralProgramSettings } from './shapes.ts';

export { referralProgramFrom } from './settings.ts';

const present = (row: ProgramRow): ReferralProgramDto => ({
  ...referralProgramFrom(row.settings),
  updated_at: isoTime(row.updated_at),
});

/** `GET /v1/referrals/program` (docs/referrals.md#the-programme); 404 before the first PUT. */
export async function getReferralProgram(ctx: AppContext, who: Scope): Promise<ReferralProgramDto> {
  const row = await referralProgramRow(ctx.pool, who);
  if (!row) throw new DomainError('not_found', 'no referral programme: PUT /v1/referrals/program first');
  return present(row);
}

/**
 * `PUT /v1/referrals/program`: replaces the programme whole. Badges its actions award exist from
 * then on, as a flow's do (an undefined key is created, named after it).
 */
export function putReferralProgram(
  ctx: AppContext,
  who: Scope,
  input: ReferralProgramInput,
): Promise<ReferralProgramDto> {
  const settings: ReferralProgramSettings = {
    qualifying_event_type: input.qualifying_event_type,
    qualify_within: input.qualify_within,
    hold: input.hold,
    friend_actions: input.friend_actions,
    advocate_actions: input.advocate_actions,
    advocate_limit: input.advocate_limit ?? null,
    active: input.active ?? true,
  };
  const badges = [...settings.friend_actions, ...settings.advocate_actions].flatMap((a) =>
    a.type === 'award_badge'
      ? [{ workspaceId: who.workspaceId, mode: who.mode, key: a.badge, tier: a.tier ?? '' }]
      : [],
  );
  return unitOfWork(ctx, async ({ sql }) => {
    if (badges.length) await ensureBadges(sql, badges);
    return present(await storeReferralProgram(sql, who, settings));
  });
}
