import type { AppContext } from '../../context.ts';
import { presentEvent } from '../events/presenters.ts';
import type { Scope } from '../keys/principal.ts';
import { presentEntry } from '../ledger/presenters.ts';
import { latestEntries } from '../ledger/repository.ts';
import { presentMessage } from '../messages/presenters.ts';
import { presentRedemption } from '../rewards/presenters.ts';
import { latestRedemptions } from '../rewards/repository.ts';
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
 * participant of the caller's workspace and mode, each item in its REST shape, each section the
 * newest `limit` items. An erased participant's old id is a 404.
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
  const take = limit + 1; // one more than shown says whether the section was cut
  const [ledger, redemptions, badges, events, messages, deliveries] = await Promise.all([
    latestEntries(ctx.pool, id, take),
    latestRedemptions(ctx.pool, id, take),
    badgesHeld(ctx, id),
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
    badges: badges.map(presentHeldBadge),
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
  return {
    participant: presentParticipant(participant),
    generated_at: new Date().toISOString(),
    ledger: sections.ledger.slice(0, limit),
    badges: sections.badges.slice(0, limit),
    redemptions: sections.redemptions.slice(0, limit),
    events: sections.events.slice(0, limit),
    messages: sections.messages.slice(0, limit),
    webhook_deliveries: sections.webhook_deliveries.slice(0, limit),
    limit,
    truncated,
  };
}
