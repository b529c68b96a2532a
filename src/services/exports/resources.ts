import { z } from 'zod';
import { isoTime } from '../../lib/iso-time.ts';
import { timestamp } from '../../lib/shapes.ts';
import { type BadgeAwardRow, badgeAwardColumns } from '../badges/badge-award.ts';
import type { Event } from '../events/entities.ts';
import { presentEvent } from '../events/presenters.ts';
import { eventShape } from '../events/shapes.ts';
import { presentEntry } from '../ledger/presenters.ts';
import { entryColumns, type OwnedEntry } from '../ledger/repository.ts';
import { ledgerEntryShape } from '../ledger/shapes.ts';
import { presentMessageRow } from '../messages/presenters.ts';
import { MESSAGE_ROW_COLUMNS, MESSAGE_ROW_FROM, type MessageRow } from '../messages/repository.ts';
import { messageShape } from '../messages/shapes.ts';
import { presentHeldBadgeRow } from '../participants/participant-badges.ts';
import { type ParticipantRow, participantColumns, presentParticipant } from '../participants/presenters.ts';
import { participantBadgeShape, participantShape } from '../participants/shapes.ts';
import { presentLot } from '../points/points-view.ts';
import type { LotRow } from '../points/repository.ts';
import { lotShape } from '../points/shapes.ts';
import { presentReferral, type ReferralRow, referralColumns } from '../referrals/present.ts';
import { referralShape } from '../referrals/shapes.ts';
import { presentRedemption, type RedemptionRow } from '../rewards/presenters.ts';
import { REDEMPTION_COLUMNS } from '../rewards/repository.ts';
import { redemptionShape } from '../rewards/shapes.ts';
import { presentMove } from '../tiers/presenters.ts';
import type { MoveRow } from '../tiers/repository.ts';
import { tierMoveShape } from '../tiers/shapes.ts';
import { type DeliveryRow, presentDelivery } from '../webhooks/presenters.ts';
import { DELIVERY_COLUMNS } from '../webhooks/repository.ts';
import { webhookDeliveryShape } from '../webhooks/shapes.ts';
import { aliased, type ResourceReader, reader } from './resource-reader.sql.ts';
import type { ExportResource } from './shapes.ts';

// Each row is presented by its domain's own presenter, so a line of a JSONL file is exactly what the
// REST API answers for that row. The statement around these columns: resource-reader.sql.ts.

/** Rows of the REST shape that REST lists only under their participant carry the participant too. */
const withParticipant = <S extends z.ZodObject>(shape: S) =>
  shape.extend({ participant: z.object({ external_id: z.string() }) });

export const exportLedgerShape = withParticipant(ledgerEntryShape);
export const exportBadgeShape = withParticipant(participantBadgeShape);
/** A lot as `GET …/points` shows it, with its participant and when it was opened and expired. */
export const exportLotShape = withParticipant(lotShape).extend({
  expired_at: timestamp('When the expiry job emptied it; null otherwise.').nullable(),
  created_at: timestamp('When its credit opened it.'),
});

/** A move of a participant's level as `GET …/tier-history` shows it, with its participant. */
export const exportTierMoveShape = withParticipant(tierMoveShape);

/**
 * A participant's state in one streak as the engine or the streak job last wrote it
 * (docs/engagement.md#streaks), with its participant: what `GET …/streaks` reads before it
 * accounts for the periods passed since.
 */
export const exportStreakShape = withParticipant(
  z.object({
    key: z.string().meta({ description: 'The streak’s key.' }),
    length: z.int().meta({ description: 'Consecutive extended periods; 0 once broken.' }),
    longest: z.int(),
    freezes: z.int().meta({ description: 'Freezes left.' }),
    last_period: z.string().meta({
      description: 'The last extended period’s first day (YYYY-MM-DD, in the participant’s time zone).',
    }),
    updated_at: timestamp('When it was last written.'),
  }),
);

interface StreakExportRow {
  key: string;
  length: number;
  longest: number;
  freezes: number;
  last_period: string;
  updated_at: Date;
  external_id: string;
}

interface LotExportRow extends LotRow {
  external_id: string;
  expired_at: Date | null;
  created_at: Date;
}

/** Every exportable resource (docs/exports.md#api) and how its rows are read. */
export const RESOURCES: Record<ExportResource, ResourceReader> = {
  participants: reader<ParticipantRow>({
    shape: participantShape,
    select: participantColumns('x'),
    from: 'participants x',
    present: presentParticipant,
  }),
  ledger: reader<OwnedEntry>({
    shape: exportLedgerShape,
    select: `${entryColumns('x')}, p.external_id`,
    from: 'ledger_entries x join participants p on p.id = x.participant_id',
    present: (r) => ({ ...presentEntry(r), participant: { external_id: r.external_id } }),
  }),
  events: reader<EventSqlRow>({
    shape: eventShape,
    select: `x.id, x.event_type, x.external_id, x.payload, x.occurred_at, x.received_at, x.status,
      x.quarantine_reason, x.idempotency_key, x.source, x.mode, x.replay_of, x.replayed_as`,
    from: 'events x',
    timeColumn: 'x.received_at',
    present: (r) => presentEvent(eventOf(r)),
  }),
  redemptions: reader<RedemptionRow>({
    shape: redemptionShape,
    select: REDEMPTION_COLUMNS,
    from: 'redemptions x join participants p on p.id = x.participant_id',
    present: presentRedemption,
  }),
  badges: reader<BadgeAwardRow>({
    shape: exportBadgeShape,
    select: badgeAwardColumns({ award: 'x', badge: 'b', participant: 'p' }),
    from: `participant_badges x join badges b on b.id = x.badge_id join participants p on p.id = x.participant_id`,
    timeColumn: 'x.awarded_at',
    // As GET /v1/participants/{external_id}/badges presents an award.
    present: (r) => ({ ...presentHeldBadgeRow(r), participant: { external_id: r.external_id } }),
  }),
  messages: reader<MessageRow>({
    shape: messageShape,
    select: MESSAGE_ROW_COLUMNS,
    from: MESSAGE_ROW_FROM,
    present: presentMessageRow,
  }),
  lots: reader<LotExportRow>({
    shape: exportLotShape,
    select: 'x.entry_id, x.points, x.remaining, x.expires_at, p.external_id, x.expired_at, x.created_at',
    from: 'point_lots x join participants p on p.id = x.participant_id',
    present: (r) => ({
      ...presentLot(r),
      participant: { external_id: r.external_id },
      expired_at: r.expired_at ? isoTime(r.expired_at) : null,
      created_at: isoTime(r.created_at),
    }),
  }),
  tiers: reader<MoveRow & { external_id: string }>({
    shape: exportTierMoveShape,
    select: `x.id, x.from_key, x.from_name, x.to_key, x.to_name, x.reason, x.note, x.qualifying_points, x.at,
      p.external_id`,
    from: 'tier_history x join participants p on p.id = x.participant_id',
    timeColumn: 'x.at',
    present: (r) => ({ ...presentMove(r), participant: { external_id: r.external_id } }),
  }),
  streaks: reader<StreakExportRow>({
    shape: exportStreakShape,
    select: `s.key, x.length, x.longest, x.freezes, to_char(x.last_period, 'YYYY-MM-DD') as last_period,
      x.updated_at, p.external_id`,
    from: 'participant_streaks x join streaks s on s.id = x.streak_id join participants p on p.id = x.participant_id',
    keyColumn: 'x.participant_id, x.streak_id',
    timeColumn: 'x.updated_at',
    present: (r) => ({
      key: r.key,
      length: r.length,
      longest: r.longest,
      freezes: r.freezes,
      last_period: r.last_period,
      updated_at: isoTime(r.updated_at),
      participant: { external_id: r.external_id },
    }),
  }),
  // The awards of badges with criteria (docs/engagement.md#achievements): `badges` lines, of those badges only.
  achievements: reader<BadgeAwardRow>({
    shape: exportBadgeShape,
    select: badgeAwardColumns({ award: 'x', badge: 'b', participant: 'p' }),
    from: `participant_badges x join badges b on b.id = x.badge_id and b.criteria is not null
      join participants p on p.id = x.participant_id`,
    timeColumn: 'x.awarded_at',
    present: (r) => ({ ...presentHeldBadgeRow(r), participant: { external_id: r.external_id } }),
  }),
  // As GET /v1/referrals presents a referral: its advocate and friend by external id.
  referrals: reader<ReferralRow>({
    shape: referralShape,
    select: referralColumns('x', 'a', 'f'),
    from: 'referrals x join participants a on a.id = x.advocate_id join participants f on f.id = x.friend_id',
    present: presentReferral,
  }),
  webhook_deliveries: reader<DeliveryRow>({
    shape: webhookDeliveryShape,
    select: aliased(DELIVERY_COLUMNS),
    from: 'webhook_deliveries x',
    present: presentDelivery,
  }),
};

interface EventSqlRow {
  id: string;
  event_type: string | null;
  external_id: string | null;
  payload: Record<string, unknown>;
  occurred_at: Date;
  received_at: Date;
  status: string;
  quarantine_reason: string | null;
  idempotency_key: string | null;
  source: string;
  mode: string;
  replay_of: string | null;
  replayed_as: string | null;
}

/** The fields of an Event entity that `presentEvent` reads, from a row. */
const eventOf = (r: EventSqlRow) =>
  ({
    id: r.id,
    eventType: r.event_type,
    externalId: r.external_id,
    payload: r.payload,
    occurredAt: r.occurred_at,
    receivedAt: r.received_at,
    status: r.status,
    quarantineReason: r.quarantine_reason,
    idempotencyKey: r.idempotency_key,
    source: r.source,
    mode: r.mode,
    replayOf: r.replay_of,
    replayedAs: r.replayed_as,
  }) as Event;
