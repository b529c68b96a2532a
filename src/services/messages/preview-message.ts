import { z } from 'zod';
import { storableJson, text } from '../../lib/primitives.ts';
import { type RenderContext, renderMessage } from './render.ts';
import { messageChannel } from './shapes.ts';

const nullableText = (max: number) => text(max).nullable().optional();
const nullableNumber = z.number().finite().nullable().optional();

/** Sample values for a preview: what a flow would pass when it sends the template. */
export const previewVariables = z.strictObject({
  participant: z
    .strictObject({
      external_id: text(255).optional(),
      email: nullableText(320),
      phone: nullableText(64),
      name: nullableText(255),
      balance: nullableNumber,
      lifetime_points: nullableNumber,
    })
    .optional(),
  payload: storableJson(z.unknown()).optional(),
  event: z.strictObject({ type: nullableText(255), occurred_at: nullableText(64) }).optional(),
});

/** An unsaved template (the edit form as it stands) and sample variables. */
export const previewMessageInput = z.strictObject({
  channel: messageChannel,
  subject: text(500).nullish(),
  body: text(100_000),
  variables: previewVariables.default({}),
});
export type PreviewMessageInput = z.output<typeof previewMessageInput>;

/**
 * Renders a template exactly as a send would (`renderMessage`, the renderer `queueMessage` uses):
 * e-mail bodies with substituted values HTML-escaped, subjects without CR/LF, SMS as plain text.
 * Pure: nothing is stored or sent.
 */
export function previewMessage(q: PreviewMessageInput): { subject: string | null; body: string } {
  const p = q.variables.participant ?? {};
  const ctx: RenderContext = {
    participant: {
      external_id: p.external_id ?? '',
      email: p.email ?? null,
      phone: p.phone ?? null,
      name: p.name ?? null,
      balance: p.balance ?? null,
      lifetime_points: p.lifetime_points ?? null,
    },
    payload: q.variables.payload ?? {},
    event: { type: q.variables.event?.type ?? null, occurred_at: q.variables.event?.occurred_at ?? null },
  };
  return renderMessage({ channel: q.channel, subject: q.subject ?? null, body: q.body }, ctx);
}
