import { isoTime, isoTimeOrNull } from '../../lib/iso-time.ts';
import type { Message, MessageTemplate } from './entities.ts';
import type { Channel, MessageDto, MessageStatus, MessageTemplateDto } from './shapes.ts';

export type { MessageDto, MessageTemplateDto } from './shapes.ts';

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
