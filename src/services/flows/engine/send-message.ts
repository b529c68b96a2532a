import type { PgBoss } from 'pg-boss';
import type { Sql } from '../../../db/tx.ts';
import { queueMessage } from '../../messages/queue-message.ts';
import type { SendMessage } from './evaluate.ts';
import { withSavepoint } from './transaction.sql.ts';

/**
 * A run's `send_message` step in the transaction `sql`: the message is queued under the step's
 * derived key (one message per key, ever), inside a savepoint, so a message that fails
 * mid-statement leaves the transaction usable and fails only its step.
 */
export function messageSender(sql: Sql, boss?: PgBoss): SendMessage {
  return (p, template, key, context) =>
    withSavepoint(sql, 'send_message', () =>
      queueMessage(
        sql,
        {
          workspaceId: p.workspaceId,
          mode: p.mode,
          participant: { id: p.id, externalId: p.externalId, email: p.email, phone: p.phone, name: p.name },
          templateKey: template,
          idempotencyKey: key,
          context: context as unknown as Record<string, unknown>,
        },
        boss,
      ),
    );
}
