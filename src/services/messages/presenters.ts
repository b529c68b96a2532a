import { isoTime, isoTimeOrNull } from '../../lib/iso-time.ts';
import type { Message, MessageTemplate } from './entities.ts';
import type { MessageRow } from './repository.ts';
import type { Channel, MessageDto, MessageStatus, MessageTemplateDto } from './shapes.ts';

export type { MessageDto, MessageTemplateDto } from './shapes.ts';

/** A template as every door answers it. */
export const presentTemplate = (t: MessageTemplate): MessageTemplateDto => ({
  id: Number(t.id),
  key: t.key,
  channel: t.channel as Channel,
  subject: t.subject ?? null,
  body: t.body,
  created_at: isoTime(t.createdAt),
  updated_at: isoTime(t.updatedAt),
});

/** Expects `participant` populated (or null). */
export const presentMessage = (m: Message): MessageDto => ({
  id: m.id,
  template: m.template,
  channel: m.channel as Channel,
  participant: m.participant ? { external_id: m.participant.externalId } : null,
  to: m.to ?? null,
  status: m.status as MessageStatus,
  subject: m.subject ?? null,
  body: m.body,
  error: m.error ?? null,
  is_sandbox: m.mode === 'test',
  attempts: m.attempts,
  sent_at: isoTimeOrNull(m.sentAt ?? null),
  created_at: isoTime(m.createdAt),
});

/** A message read by raw SQL (`MESSAGE_ROW_COLUMNS`), presented by the same presenter. */
export const presentMessageRow = (r: MessageRow): MessageDto =>
  presentMessage({
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
  } as unknown as Message);
