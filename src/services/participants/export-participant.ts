import type { AppContext } from '../../context.ts';
import { participantAchievements } from '../achievements/progress.ts';
import { presentEvent } from '../events/presenters.ts';
import type { Scope } from '../keys/principal.ts';
import { presentEntry } from '../ledger/presenters.ts';
import { latestEntries } from '../ledger/repository.ts';
import { presentMessage } from '../messages/presenters.ts';
import { presentGrant } from '../points/pending-points.ts';
import { presentLot } from '../points/points-view.ts';
import { grantsOf, openLots } from '../points/repository.ts';
import { codesOf } from '../referrals/codes.ts';
import { presentReferral } from '../referrals/present.ts';
import { referralRows } from '../referrals/repository.ts';
import { presentRedemption } from '../rewards/presenters.ts';
import { latestRedemptions } from '../rewards/repository.ts';
import { participantStreaks } from '../streaks/participant-streaks.ts';
import { presentMove } from '../tiers/presenters.ts';
import { movesOf } from '../tiers/repository.ts';
import { presentAttempt, presentDelivery } from '../webhooks/presenters.ts';
import { attemptsOfMany, deliveriesNaming } from '../webhooks/repository.ts';
import { presentHeldBadge } from './participant-badges.ts';
import { presentParticipant } from './presenters.ts';
import { badgesHeld, eventsNaming, findParticipant, messagesTo } from './repository.ts';
import { EXPORT_SECTIONS, type ParticipantExportDto } from './shapes.ts';

/**
 * The most items one section of the document holds (the newest ones). It bounds the response
 * (about 10 MB at the largest items) and the memory of assembling it; a longer history is cut,
 * named in `truncated`, and stays readable page by page or through a bulk export.
 */
export const EXPORT_SECTION_LIMIT = 10_000;

/**
 * `GET /v1/participants/{external_id}/export` (GDPR article 15): everything held about one
 * participant of the caller's workspace and mode, each item in the shape its own REST read
 * answers, each list section the newest `limit` items (the first `limit` in that read's order).
 * Every section is read by that read's own repository function or service, all at once: a fixed
 * number of statements whatever the participant holds. An erased participant's old id is a 404.
 */
export async function exportParticipant(
  ctx: AppContext,
  who: Scope,
  externalId: string,
  limit = EXPORT_SECTION_LIMIT,
): Promise<ParticipantExportDto> {
  const participant = await findParticipant(ctx.pool, who, externalId);
  const id = Number(participant.id);
  const ext = participant.external_id;
  const now = new Date();
  const take = limit + 1; // one more than shown says whether the section was cut
  const first = { after: null, take }; // the first page of a keyset read, newest first
  const [
    ledger,
    lots,
    grants,
    badges,
    achievements,
    streaks,
    moves,
    referrals,
    codes,
    redemptions,
    events,
    messages,
    deliveries,
  ] = await Promise.all([
    latestEntries(ctx.pool, id, take),
    openLots(ctx.pool, id, take),
    grantsOf(ctx.pool, id, first),
    badgesHeld(ctx, id),
    participantAchievements(ctx, who, ext, now),
    participantStreaks(ctx, who, ext, now),
    movesOf(ctx.pool, id, first),
    referralRows(ctx.pool, who, { partyId: id }, first),
    // The code if one was ever made: the REST read would make one, an export must not.
    codesOf(ctx.pool, [id]),
    latestRedemptions(ctx.pool, id, take),
    eventsNaming(ctx, who, { id, externalId: ext }, take),
    messagesTo(ctx, who, id, take),
    deliveriesNaming(ctx.pool, who, ext, take),
  ]);
  const shown = deliveries.slice(0, limit);
  const attempts = new Map<string, ReturnType<typeof presentAttempt>[]>();
  for (const a of await attemptsOfMany(
    ctx.pool,
    who,
    shown.map((d) => d.id),
  )) {
    const list = attempts.get(a.delivery_id) ?? [];
    list.push(presentAttempt(a));
    attempts.set(a.delivery_id, list);
  }

  const sections = {
    ledger: ledger.map(presentEntry),
    points_lots: lots.map(presentLot),
    pending_grants: grants.map(presentGrant),
    badges: badges.map(presentHeldBadge),
    achievements: achievements.data,
    streaks: streaks.data,
    tier_history: moves.map(presentMove),
    referrals: referrals.map(presentReferral),
    redemptions: redemptions.map(presentRedemption),
    events: events.map(presentEvent),
    messages: messages.map(presentMessage),
    webhook_deliveries: deliveries.map((d) => ({
      ...presentDelivery(d),
      payload: JSON.parse(d.body),
      attempts: attempts.get(d.id) ?? [],
    })),
  };
  const truncated = EXPORT_SECTIONS.filter((s) => sections[s].length > limit);
  const code = codes.get(id);
  return {
    participant: presentParticipant(participant),
    generated_at: now.toISOString(),
    ledger: sections.ledger.slice(0, limit),
    points_lots: sections.points_lots.slice(0, limit),
    pending_grants: sections.pending_grants.slice(0, limit),
    badges: sections.badges.slice(0, limit),
    achievements: sections.achievements.slice(0, limit),
    streaks: sections.streaks.slice(0, limit),
    tier_history: sections.tier_history.slice(0, limit),
    referrals: sections.referrals.slice(0, limit),
    referral_code: code === undefined ? null : { code },
    redemptions: sections.redemptions.slice(0, limit),
    events: sections.events.slice(0, limit),
    messages: sections.messages.slice(0, limit),
    webhook_deliveries: sections.webhook_deliveries.slice(0, limit),
    limit,
    truncated,
  };
}
