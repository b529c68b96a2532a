import type { AppContext } from '../../context.ts';
import { Event } from '../events/entities.ts';
import { presentEvent } from '../events/presenters.ts';
import type { Scope } from '../keys/principal.ts';
import type { RawEntry } from '../ledger/post-entry.ts';
import { presentEntry } from '../ledger/presenters.ts';
import { Message } from '../messages/entities.ts';
import { presentMessage } from '../messages/presenters.ts';
import { presentRedemption, type RedemptionRow } from '../rewards/presenters.ts';
import { REDEMPTION_COLUMNS } from '../rewards/repository.ts';
import { presentAttempt, presentDelivery } from '../webhooks/presenters.ts';
import { attemptsOfMany, deliveriesNaming } from '../webhooks/repository.ts';
import { findParticipant } from './find-participant.ts';
import { presentHeldBadge } from './participant-badges.ts';
import { presentParticipant } from './presenters.ts';
import { badgesHeld } from './repository.ts';
import { EXPORT_SECTIONS, type ParticipantExportDto } from './shapes.ts';

/**
 * The most items one section of the document holds (the newest ones). It bounds the response
 * (about 10 MB at the largest items) and the memory of assembling it; a longer history is cut,
 * named in `truncated`, and stays readable page by page or through a bulk export.
 */
export const EXPORT_SECTION_LIMIT = 10_000;

// Raw SQL for the ledger and redemptions: the same columns the presenters read elsewhere
// (post-entry.ts, rewards/repository.ts). Events and messages through MikroORM, like their lists.
const ENTRY_COLUMNS = `id, points, balance_after, reason, source, reference, reverses_entry_id,
  idempotency_key, created_at`;

/**
 * `GET /v1/participants/{external_id}/export` (CONTRACT 15, GDPR article 15): everything held
 * about one participant of the caller's workspace and mode, each item in its REST shape, each
 * section the newest `limit` items. An erased participant's old id is a 404 (CONTRACT 7).
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
  const em = ctx.orm.em.fork();
  const scoped = { workspace: who.workspaceId, mode: who.mode };

  const [ledger, redemptions, badges, linkedEvents, quarantined, messages, deliveries] = await Promise.all([
    ctx.pool.query<RawEntry>(
      `select ${ENTRY_COLUMNS} from ledger_entries where participant_id = $1 order by id desc limit $2`,
      [id, take],
    ),
    ctx.pool.query<RedemptionRow>(
      `select ${REDEMPTION_COLUMNS} from redemptions x join participants p on p.id = x.participant_id
        where x.participant_id = $1 order by x.id desc limit $2`,
      [id, take],
    ),
    badgesHeld(em.fork(), id),
    em.fork().find(Event, { ...scoped, participant: id }, { orderBy: { id: 'desc' }, limit: take }),
    // Quarantined events name the participant without being linked to it (erase-participant.ts).
    em
      .fork()
      .find(
        Event,
        { ...scoped, participant: null, externalId: ext },
        { orderBy: { id: 'desc' }, limit: take },
      ),
    em
      .fork()
      .find(
        Message,
        { ...scoped, participant: id },
        { populate: ['participant'], orderBy: { id: 'desc' }, limit: take },
      ),
    deliveriesNaming(ctx.pool, who, ext, take),
  ]);
  const events = [...linkedEvents, ...quarantined].sort((a, b) => (a.id < b.id ? 1 : -1));
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
    ledger: ledger.rows.map(presentEntry),
    badges: badges.map(presentHeldBadge),
    redemptions: redemptions.rows.map(presentRedemption),
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
