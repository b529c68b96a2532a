import type { PgBoss } from 'pg-boss';
import type { Sql } from '../../db/tx.ts';
import { DomainError } from '../../errors.ts';
import { sendJob } from '../../jobs/payloads.ts';
import { SEND_MESSAGE_QUEUE } from '../../jobs/queues.ts';
import { uuidv7 } from '../../lib/uuid7.ts';
import type { Mode } from '../keys/principal.ts';
import { emitResult } from '../outbox/emit.ts';
import type { MessageSentData } from '../outbox/result-shapes.ts';
import { insertMessage, messageByKey, type QueuedMessage, templateForSend } from './queue.sql.ts';
import { type RenderContext, renderMessage } from './render.ts';
import type { MessageStatus } from './shapes.ts';

export interface QueueMessageInput {
  workspaceId: string;
  mode: Mode;
  participant: {
    id: number;
    externalId: string;
    email: string | null;
    phone: string | null;
    name: string | null;
  };
  templateKey: string;
  /** The flow's derived key `<event_id>:<flow_id>:<action_index>`: one message per key, ever. */
  idempotencyKey: string;
  /** The flow context: `{ event: { type, occurred_at }, payload, participant: { balance, lifetime_points, … } }`. */
  context: Record<string, unknown>;
}

/** The `message.sent` data (docs/api.md#webhooks). */
export const messageSentData = (externalId: string, m: MessageSentData['message']): MessageSentData => ({
  participant: { external_id: externalId },
  message: { id: m.id, template: m.template, channel: m.channel, status: m.status },
});

function renderContext(input: QueueMessageInput): RenderContext {
  const ctx = input.context ?? {};
  const p = (ctx.participant ?? {}) as Record<string, unknown>;
  const num = (v: unknown) => (typeof v === 'number' || typeof v === 'string' ? Number(v) : null);
  const event = (ctx.event ?? {}) as Record<string, unknown>;
  return {
    participant: {
      external_id: input.participant.externalId,
      email: input.participant.email,
      phone: input.participant.phone,
      name: input.participant.name,
      balance: num(p.balance),
      lifetime_points: num(p.lifetime_points ?? p.lifetimePoints),
    },
    payload: ctx.payload ?? {},
    event: {
      type: typeof event.type === 'string' ? event.type : null,
      occurred_at:
        event.occurred_at instanceof Date
          ? event.occurred_at.toISOString()
          : typeof event.occurred_at === 'string'
            ? event.occurred_at
            : null,
    },
  };
}

/**
 * Records one message for a flow's `send_message` step, inside the caller's transaction (`sql`).
 * The row is the intent: unique on the derived key, so a second call with the
 * same key returns the first message and writes nothing. Rendering happens here, once.
 * - no address for the channel → `skipped`;
 * - test mode → `simulated` (never sent) + `message.sent` outbox row, in this transaction;
 * - live mode → `pending` + a `messages.send` job sent in this transaction (needs `boss`),
 *   so the job exists exactly when the message does.
 * An unknown template throws (the step fails with that error).
 */
export async function queueMessage(
  sql: Sql,
  input: QueueMessageInput,
  boss?: PgBoss,
): Promise<QueuedMessage> {
  const existing = await messageByKey(sql, input, input.idempotencyKey);
  if (existing) return existing;

  const tpl = await templateForSend(sql, input, input.templateKey);
  if (!tpl) throw new DomainError('not_found', `message template "${input.templateKey}" does not exist`);

  const rendered = renderMessage(tpl, renderContext(input));
  const to = (tpl.channel === 'email' ? input.participant.email : input.participant.phone) || null;
  let status: MessageStatus;
  let error: string | null = null;
  if (!to) {
    status = 'skipped';
    error = tpl.channel === 'email' ? 'participant has no e-mail address' : 'participant has no phone number';
  } else if (input.mode === 'test') status = 'simulated';
  else {
    if (!boss) throw new Error('queueMessage: live mode needs pg-boss to enqueue the send');
    status = 'pending';
  }

  const id = uuidv7();
  const inserted = await insertMessage(sql, {
    id,
    workspaceId: input.workspaceId,
    mode: input.mode,
    participantId: input.participant.id,
    template: input.templateKey,
    channel: tpl.channel,
    to,
    status,
    subject: rendered.subject,
    body: rendered.body,
    error,
    idempotencyKey: input.idempotencyKey,
  });
  // A concurrent transaction recorded the same key first (we waited for its commit): theirs stands.
  if (!inserted) {
    const raced = await messageByKey(sql, input, input.idempotencyKey);
    if (raced) return raced;
    throw new Error('message insert conflicted but no row is visible');
  }

  if (status === 'simulated') {
    await emitResult(sql, {
      workspaceId: input.workspaceId,
      mode: input.mode,
      type: 'message.sent',
      data: messageSentData(input.participant.externalId, {
        id,
        template: input.templateKey,
        channel: tpl.channel,
        status,
      }),
    });
  } else if (status === 'pending' && boss) {
    await sendJob(boss, SEND_MESSAGE_QUEUE, { messageId: id }, {}, sql);
  }
  return { id, status };
}
