import type { Message, MessageTemplate } from './entities.ts';

export interface MessageTemplateDto {
  id: number;
  key: string;
  channel: string;
  subject: string | null;
  body: string;
  created_at: string;
  updated_at: string;
}

export const presentTemplate = (t: MessageTemplate): MessageTemplateDto => ({
  id: Number(t.id),
  key: t.key,
  channel: t.channel,
  subject: t.subject ?? null,
  body: t.body,
  created_at: t.createdAt.toISOString(),
  updated_at: t.updatedAt.toISOString(),
});

export interface MessageDto {
  id: string;
  template: string;
  channel: string;
  participant: { external_id: string } | null;
  to: string | null;
  status: string;
  subject: string | null;
  body: string;
  error: string | null;
  is_sandbox: boolean;
  attempts: number;
  sent_at: string | null;
  created_at: string;
}

/** Expects `participant` populated (or null). */
export const presentMessage = (m: Message): MessageDto => ({
  id: m.id,
  template: m.template,
  channel: m.channel,
  participant: m.participant ? { external_id: m.participant.externalId } : null,
  to: m.to ?? null,
  status: m.status,
  subject: m.subject ?? null,
  body: m.body,
  error: m.error ?? null,
  is_sandbox: m.mode === 'test',
  attempts: m.attempts,
  sent_at: m.sentAt ? m.sentAt.toISOString() : null,
  created_at: m.createdAt.toISOString(),
});
