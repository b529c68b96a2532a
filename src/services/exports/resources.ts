import pg from 'pg';
import { z } from 'zod';
import { copyRows } from '../../db/copy-rows.ts';
import type { Event } from '../events/entities.ts';
import { presentEvent } from '../events/presenters.ts';
import { eventShape } from '../events/shapes.ts';
import type { Mode } from '../keys/principal.ts';
import type { RawEntry } from '../ledger/post-entry.ts';
import { presentEntry } from '../ledger/presenters.ts';
import { ledgerEntryShape } from '../ledger/shapes.ts';
import type { Message } from '../messages/entities.ts';
import { presentMessage } from '../messages/presenters.ts';
import { messageShape } from '../messages/shapes.ts';
import { presentHeldBadgeRow } from '../participants/participant-badges.ts';
import { PARTICIPANT_COLUMNS, type ParticipantRow, presentParticipant } from '../participants/presenters.ts';
import { participantBadgeShape, participantShape } from '../participants/shapes.ts';
import { presentRedemption, type RedemptionRow } from '../rewards/presenters.ts';
import { REDEMPTION_COLUMNS } from '../rewards/repository.ts';
import { redemptionShape } from '../rewards/shapes.ts';
import { type DeliveryRow, presentDelivery } from '../webhooks/presenters.ts';
import { DELIVERY_COLUMNS } from '../webhooks/repository.ts';
import { webhookDeliveryShape } from '../webhooks/shapes.ts';
import type { ExportResource } from './shapes.ts';

// Raw SQL: an export streams up to millions of rows (bench suite `exports`); ORM entities would be
// hydrated and tracked for nothing. Each row is presented by its domain's own presenter, so a line
// of a JSONL file is exactly what the REST API answers for that row.

/** Rows of the REST shape that REST lists only under their participant carry the participant too. */
const withParticipant = <S extends z.ZodObject>(shape: S) =>
  shape.extend({ participant: z.object({ external_id: z.string() }) });

export const exportLedgerShape = withParticipant(ledgerEntryShape);
export const exportBadgeShape = withParticipant(participantBadgeShape);

/** Which rows an export holds: one workspace and mode, created in [since, until). */
export interface ExportScope {
  workspaceId: string;
  mode: Mode;
  since: Date | null;
  until: Date;
}

/** What a run reads of one resource: its rows oldest first, presented, in batches. */
export interface ResourceReader {
  /** The REST shape of a row: the JSONL object, and the CSV columns (flattened). */
  shape: z.ZodObject;
  /** Every row in scope, in one statement (one snapshot), as the REST API presents them. */
  batches(pool: pg.Pool, scope: ExportScope): AsyncGenerator<Record<string, unknown>[]>;
}

/**
 * A reader over `from` (its main table aliased `x`, with `workspace_id`, `mode` and a unique,
 * ordered `keyColumn`), filtered on `timeColumn` by since/until.
 */
function reader<R>(spec: {
  shape: z.ZodObject;
  select: string;
  from: string;
  keyColumn: string;
  timeColumn: string;
  present: (row: R) => Record<string, unknown>;
}): ResourceReader {
  return {
    shape: spec.shape,
    async *batches(pool, scope) {
      // Literals, not parameters: COPY takes none (`copyRows`).
      const at = (t: Date) => `${pg.escapeLiteral(t.toISOString())}::timestamptz`;
      const select = `select ${spec.select} from ${spec.from}
          where x.workspace_id = ${pg.escapeLiteral(scope.workspaceId)}::uuid and x.mode = ${pg.escapeLiteral(scope.mode)}
            ${scope.since ? `and ${spec.timeColumn} >= ${at(scope.since)}` : ''} and ${spec.timeColumn} < ${at(scope.until)}
          order by ${spec.keyColumn}`;
      for await (const rows of copyRows(pool, select)) yield rows.map((r) => spec.present(r as R));
    },
  };
}

const aliased = (columns: string) =>
  columns
    .split(',')
    .map((c) => `x.${c.trim()}`)
    .join(', ');

/** Every exportable resource (CONTRACT 15) and how its rows are read. */
export const RESOURCES: Record<ExportResource, ResourceReader> = {
  participants: reader<ParticipantRow>({
    shape: participantShape,
    select: aliased(PARTICIPANT_COLUMNS),
    from: 'participants x',
    keyColumn: 'x.id',
    timeColumn: 'x.created_at',
    present: presentParticipant,
  }),
  ledger: reader<RawEntry & { external_id: string }>({
    shape: exportLedgerShape,
    select: `x.id, x.points, x.balance_after, x.reason, x.source, x.reference, x.reverses_entry_id,
      x.idempotency_key, x.created_at, p.external_id`,
    from: 'ledger_entries x join participants p on p.id = x.participant_id',
    keyColumn: 'x.id',
    timeColumn: 'x.created_at',
    present: (r) => ({ ...presentEntry(r), participant: { external_id: r.external_id } }),
  }),
  events: reader<EventSqlRow>({
    shape: eventShape,
    select: `x.id, x.event_type, x.external_id, x.payload, x.occurred_at, x.received_at, x.status,
      x.quarantine_reason, x.idempotency_key, x.source, x.mode`,
    from: 'events x',
    keyColumn: 'x.id',
    timeColumn: 'x.received_at',
    present: (r) => presentEvent(eventOf(r)),
  }),
  redemptions: reader<RedemptionRow>({
    shape: redemptionShape,
    select: REDEMPTION_COLUMNS,
    from: 'redemptions x join participants p on p.id = x.participant_id',
    keyColumn: 'x.id',
    timeColumn: 'x.created_at',
    present: presentRedemption,
  }),
  badges: reader<BadgeAwardRow>({
    shape: exportBadgeShape,
    select: 'b.key, x.tier, b.name, x.awarded_at, x.flow_run_id, p.external_id',
    from: `participant_badges x join badges b on b.id = x.badge_id join participants p on p.id = x.participant_id`,
    keyColumn: 'x.id',
    timeColumn: 'x.awarded_at',
    // As GET /v1/participants/{external_id}/badges presents an award.
    present: (r) => ({ ...presentHeldBadgeRow(r), participant: { external_id: r.external_id } }),
  }),
  messages: reader<MessageSqlRow>({
    shape: messageShape,
    select: `x.id, x.template, x.channel, p.external_id, x."to", x.status, x.subject, x.body, x.error,
      x.mode, x.attempts, x.sent_at, x.created_at`,
    from: 'messages x left join participants p on p.id = x.participant_id',
    keyColumn: 'x.id',
    timeColumn: 'x.created_at',
    present: (r) => presentMessage(messageOf(r)),
  }),
  webhook_deliveries: reader<DeliveryRow>({
    shape: webhookDeliveryShape,
    select: aliased(DELIVERY_COLUMNS),
    from: 'webhook_deliveries x',
    keyColumn: 'x.id',
    timeColumn: 'x.created_at',
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
  }) as Event;

interface MessageSqlRow {
  id: string;
  template: string;
  channel: string;
  external_id: string | null;
  to: string | null;
  status: string;
  subject: string | null;
  body: string;
  error: string | null;
  mode: string;
  attempts: number;
  sent_at: Date | null;
  created_at: Date;
}

/** The fields of a Message entity (its participant populated) that `presentMessage` reads, from a row. */
const messageOf = (r: MessageSqlRow) =>
  ({
    id: r.id,
    template: r.template,
    channel: r.channel,
    participant: r.external_id === null ? null : { externalId: r.external_id },
    to: r.to,
    status: r.status,
    subject: r.subject,
    body: r.body,
    error: r.error,
    mode: r.mode,
    attempts: r.attempts,
    sentAt: r.sent_at,
    createdAt: r.created_at,
  }) as unknown as Message;

interface BadgeAwardRow {
  key: string;
  tier: string;
  name: string;
  awarded_at: Date;
  flow_run_id: string | null;
  external_id: string;
}
