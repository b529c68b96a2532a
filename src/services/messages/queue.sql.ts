import type { Sql } from '../../db/tx.ts';
import type { Mode } from '../keys/principal.ts';
import type { Channel, MessageStatus } from './shapes.ts';

// Raw SQL: runs inside the engine's batch transaction on its connection (bench suite `engine`), with
// the job and outbox row in the same transaction; the intent row is one `insert … on conflict` on the
// derived key.

/** Where a message belongs: one workspace and mode. */
interface Scoped {
  workspaceId: string;
  mode: Mode;
}

/** A recorded message: its id and status. */
export interface QueuedMessage {
  id: string;
  status: MessageStatus;
}

/** The template a flow step names, or nothing. */
export async function templateForSend(
  sql: Sql,
  at: Scoped,
  key: string,
): Promise<{ channel: Channel; subject: string | null; body: string } | undefined> {
  const { rows } = await sql.query<{ channel: Channel; subject: string | null; body: string }>(
    `select channel, subject, body from message_templates where workspace_id = $1 and mode = $2 and key = $3`,
    [at.workspaceId, at.mode, key],
  );
  return rows[0];
}

/** The message already recorded for an idempotency key, or nothing. */
export async function messageByKey(
  sql: Sql,
  at: Scoped,
  idempotencyKey: string,
): Promise<QueuedMessage | null> {
  const { rows } = await sql.query<QueuedMessage>(
    `select id, status from messages where workspace_id = $1 and mode = $2 and idempotency_key = $3`,
    [at.workspaceId, at.mode, idempotencyKey],
  );
  return rows[0] ?? null;
}

/** A rendered message to record. */
export interface MessageToInsert extends Scoped {
  id: string;
  participantId: number;
  template: string;
  channel: Channel;
  to: string | null;
  status: MessageStatus;
  subject: string | null;
  body: string;
  error: string | null;
  idempotencyKey: string;
}

/**
 * Records the message unless its idempotency key is taken; false when it is (a concurrent
 * transaction recorded the same key first, and this one waited for its commit).
 */
export async function insertMessage(sql: Sql, m: MessageToInsert): Promise<boolean> {
  const inserted = await sql.query(
    `insert into messages (id, workspace_id, mode, participant_id, template, channel, "to", status, subject, body, error, idempotency_key)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     on conflict (workspace_id, mode, idempotency_key) do nothing`,
    [
      m.id,
      m.workspaceId,
      m.mode,
      m.participantId,
      m.template,
      m.channel,
      m.to,
      m.status,
      m.subject,
      m.body,
      m.error,
      m.idempotencyKey,
    ],
  );
  return inserted.rowCount !== 0;
}
