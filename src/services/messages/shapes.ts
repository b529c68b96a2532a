import { z } from 'zod';
import { timestamp, uuidV7 } from '../../lib/shapes.ts';

/** The channels a template sends on. */
export const messageChannel = z.enum(['email', 'sms']);
export const CHANNELS = messageChannel.options;
export type Channel = z.output<typeof messageChannel>;

/** A message template (docs/api.md#messages). */
export const messageTemplateShape = z
  .object({
    id: z.int(),
    key: z
      .string()
      .meta({ description: 'What a flow’s `send_message` action names.', examples: ['welcome'] }),
    channel: messageChannel,
    subject: z.string().nullable().meta({ description: 'E-mail only.' }),
    body: z.string(),
    created_at: timestamp('Creation time.'),
    updated_at: timestamp('Last change.'),
  })
  .meta({ id: 'MessageTemplate' });
export type MessageTemplateDto = z.output<typeof messageTemplateShape>;

export const messageTemplateDeletedShape = z
  .object({ key: z.string(), deleted: z.literal(true) })
  .meta({ id: 'MessageTemplateDeleted' });

/**
 * A message's statuses (docs/api.md#messages): the response enum, the `status` filter, the
 * table's CHECK and the dashboard's list share them.
 */
export const messageStatus = z.enum(['pending', 'sent', 'simulated', 'failed', 'skipped']).meta({
  id: 'MessageStatus',
  description:
    '`pending` (live, waiting for its send), `sent` (the transport accepted it), `simulated` (test mode: ' +
    'rendered and stored, never sent), `skipped` (no address for the channel), `failed` (see `error`; ' +
    'includes "send outcome unknown" when a worker died mid-send: never re-sent).',
});

export const MESSAGE_STATUSES = messageStatus.options;
export type MessageStatus = z.output<typeof messageStatus>;

/** A message of the log (docs/api.md#messages). */
export const messageShape = z
  .object({
    id: uuidV7('Message id (UUIDv7, time-ordered).'),
    template: z.string().meta({ description: 'The template key it was rendered from.' }),
    channel: messageChannel,
    participant: z.object({ external_id: z.string() }).nullable(),
    to: z.string().nullable().meta({ description: 'E-mail address or phone number; null when skipped.' }),
    status: messageStatus,
    subject: z.string().nullable(),
    body: z.string().meta({ description: 'As rendered when the message was queued.' }),
    error: z.string().nullable(),
    is_sandbox: z.boolean().meta({ description: 'True in test mode (never sent).' }),
    attempts: z.int().min(0).meta({ description: 'Transport attempts made.' }),
    sent_at: timestamp('When the transport accepted it.').nullable(),
    created_at: timestamp('When it was queued.'),
  })
  .meta({ id: 'Message' });
export type MessageDto = z.output<typeof messageShape>;
