import { defineEntity, p } from '@mikro-orm/core';
import { Participant } from '../participants/entities.ts';
import { Workspace } from '../workspaces/entities.ts';
import { MESSAGE_STATUSES } from './shapes.ts';

/** A message template (docs/api.md#messages): `key` is what a flow's `send_message` action names. */
const MessageTemplateSchema = defineEntity({
  name: 'MessageTemplate',
  tableName: 'message_templates',
  uniques: [{ name: 'message_templates_key_unique', properties: ['workspace', 'mode', 'key'] }],
  indexes: [{ name: 'message_templates_list_idx', properties: ['workspace', 'mode', 'id'] }],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    workspace: () => p.manyToOne(Workspace).deleteRule('cascade'),
    mode: p.string().length(4),
    key: p.string().length(128),
    /** `email` | `sms`. */
    channel: p.string().length(8),
    subject: p.string().length(500).nullable(),
    body: p.text(),
    createdAt: p.datetime().defaultRaw('now()'),
    updatedAt: p.datetime().defaultRaw('now()'),
  },
});
export class MessageTemplate extends MessageTemplateSchema.class {}
MessageTemplateSchema.setClass(MessageTemplate);

/**
 * One message, rendered when it is queued (so editing or deleting the template later does not
 * change what was decided). The row is the intent record: it exists before any send is tried,
 * and `idempotency_key` (the flow's derived key) is unique, so one key never yields two messages.
 * `claimed_at` is set, in its own committed transaction, right before the transport is called:
 * a `pending` row with a claim means a send may have happened (docs/guarantees.md#messages-at-most-once).
 */
const MessageSchema = defineEntity({
  name: 'Message',
  tableName: 'messages',
  uniques: [{ name: 'messages_idempotency_key_unique', properties: ['workspace', 'mode', 'idempotencyKey'] }],
  indexes: [
    { name: 'messages_list_idx', properties: ['workspace', 'mode', 'id'] },
    { name: 'messages_participant_idx', properties: ['participant', 'id'] },
    // The reconciler's sweep reads only the (few) messages still waiting to be sent.
    { name: 'messages_pending_idx', properties: ['createdAt'], where: `status = 'pending'` },
  ],
  checks: [
    {
      name: 'messages_status_check',
      expression: `status in (${MESSAGE_STATUSES.map((s) => `'${s}'`).join(', ')})`,
    },
  ],
  properties: {
    /** UUIDv7: time-ordered, so the primary key is also the newest-first cursor. */
    id: p.uuid().primary(),
    workspace: () => p.manyToOne(Workspace).deleteRule('cascade'),
    mode: p.string().length(4),
    participant: () => p.manyToOne(Participant).nullable().deleteRule('set null'),
    template: p.string().length(128),
    channel: p.string().length(8),
    /** The address used (e-mail or phone); null when skipped for lack of one. */
    to: p.string().length(320).nullable(),
    status: p.string().length(16),
    subject: p.string().length(500).nullable(),
    body: p.text(),
    error: p.text().nullable(),
    idempotencyKey: p.string().length(300),
    attempts: p.integer().default(0),
    claimedAt: p.datetime().nullable(),
    sentAt: p.datetime().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    updatedAt: p.datetime().defaultRaw('now()'),
  },
});
export class Message extends MessageSchema.class {}
MessageSchema.setClass(Message);
