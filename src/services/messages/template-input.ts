import { z } from 'zod';
import { text } from '../../lib/primitives.ts';
import { messageChannel } from './shapes.ts';

export const TEMPLATE_KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.:-]*$/;

/** Column length of `message_templates.key`. */
export const TEMPLATE_KEY_LENGTH = 128;

export const templateKey = text(TEMPLATE_KEY_LENGTH, { min: 1 }).regex(
  TEMPLATE_KEY_PATTERN,
  'letters, digits and . _ : - only, starting with a letter or digit',
);

const subject = text(500)
  .refine((s) => !/[\r\n]/.test(s), 'must be one line (no CR or LF)')
  .nullish()
  .meta({
    description: 'E-mail only. Tokens are substituted (not HTML-escaped); CR/LF never reach the header.',
  });

const body = text(100_000, { min: 1 }).meta({
  description:
    'Text with `{{participant.name}}`-style tokens: participant.external_id|email|phone|name|balance|lifetime_points, payload.<path>, event.type. Values are substituted as plain text (HTML-escaped in e-mail bodies), never evaluated; unknown tokens render empty.',
});

/** `POST /v1/message-templates`. */
export const createTemplateInput = z
  .strictObject({ key: templateKey, channel: messageChannel, subject, body })
  .meta({ id: 'MessageTemplateCreate' });
export type CreateTemplateInput = z.output<typeof createTemplateInput>;

/** `PATCH /v1/message-templates/{key}`: the key is fixed (flows name templates by it). */
export const updateTemplateInput = z
  .strictObject({ channel: messageChannel.optional(), subject, body: body.optional() })
  .meta({ id: 'MessageTemplateUpdate' });
export type UpdateTemplateInput = z.output<typeof updateTemplateInput>;

/** SMS has no subject line: refuse one rather than drop it silently. */
export function subjectProblem(t: { channel: string; subject?: string | null }): string | null {
  return t.channel === 'sms' && t.subject ? 'SMS templates have no subject' : null;
}
