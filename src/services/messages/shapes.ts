import { z } from 'zod';
import { timestamp, uuidV7 } from '../../lib/shapes.ts';

/** The channels a template sends on. */
export const CHANNELS = ['email', 'sms'] as const;
export type Channel = (typeof CHANNELS)[number];

/** A message's statuses (CONTRACT 9): the response enum and the `status` filter share them. */
export const MESSAGE_STATUSES = ['pending', 'sent', 'simulated', 'failed', 'skipped'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** A message template (CONTRACT 9). */
export const messageTemplateShape = z
  .object({
    id: z.int(),
    key: z
      .string()
      .meta({ description: 'What a flow’s `send_message` action names.', examples: ['welcome'] }),
    channel: z.enum(CHANNELS),
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

export const messageStatus = z.enum(MESSAGE_STATUSES).meta({
  id: 'MessageStatus',
  description:
    '`pending` (live, waiting for its send), `sent` (the transport accepted it), `simulated` (test mode: ' +
    'rendered and stored, never sent), `skipped` (no address for the channel), `failed` (see `error`; ' +
    'includes "send outcome unknown" when a worker died mid-send: never re-sent).',
});

/** A message of the log (CONTRACT 9). */
export const messageShape = z
  .object({
    id: uuidV7('Message id (UUIDv7, time-ordered).'),
    template: z.string().meta({ description: 'The template key it was rendered from.' }),
    channel: z.enum(CHANNELS),
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
