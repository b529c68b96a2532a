import { v7 as uuidv7 } from 'uuid';
import type { Mode } from '../../context.ts';
import type { Sql } from '../../db/tx.ts';

/** The result types of SPEC 6.1 (plus `webhook.test`, which is sent directly, never stored). */
export type ResultType =
  | 'badge.awarded'
  | 'points.changed'
  | 'reward.redeemed'
  | 'flow.completed'
  | 'message.sent';

export interface ResultToEmit {
  workspaceId: string;
  mode: Mode;
  type: ResultType;
  /** The `data` object of the delivery body, in the shapes of CONTRACT 10. */
  data: Record<string, unknown>;
}

/**
 * Records a result in the outbox. Call it with the transaction that makes the change, so the
 * result commits (and is delivered) exactly when the change does.
 */
export async function emitResult(sql: Sql, result: ResultToEmit): Promise<string> {
  const id = uuidv7();
  await sql.query(
    `insert into outbox (id, workspace_id, mode, type, data) values ($1, $2, $3, $4, $5::jsonb)`,
    [id, result.workspaceId, result.mode, result.type, JSON.stringify(result.data)],
  );
  return id;
}
