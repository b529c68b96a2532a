import type { PgBoss, SendOptions } from 'pg-boss';
import { z } from 'zod';
import type { Sql } from '../db/tx.ts';
import {
  BACKFILL_BADGE_QUEUE,
  PROCESS_EVENT_QUEUE,
  RECOVER_REDEMPTION_QUEUE,
  RUN_EXPORT_QUEUE,
  SEND_MESSAGE_QUEUE,
} from './queues.ts';

/**
 * Each queue's payload: the sender's type and the schema its worker checks again on dequeue.
 * A queue listed here can only be sent a payload of its own shape (`sendJob`).
 */
export const jobPayloads = {
  [PROCESS_EVENT_QUEUE]: z.object({ eventIds: z.array(z.uuid()).min(1) }),
  [RECOVER_REDEMPTION_QUEUE]: z.object({ redemptionId: z.int().positive() }),
  [RUN_EXPORT_QUEUE]: z.object({ exportId: z.uuid() }),
  [SEND_MESSAGE_QUEUE]: z.object({ messageId: z.uuid() }),
  [BACKFILL_BADGE_QUEUE]: z.object({
    workspaceId: z.uuid(),
    mode: z.enum(['live', 'test']),
    badgeId: z.int().positive(),
  }),
};

export type JobQueue = keyof typeof jobPayloads;
export type JobPayload<Q extends JobQueue> = z.input<(typeof jobPayloads)[Q]>;

/** The pg-boss `db` adapter that sends a job on `sql`: inside its transaction when it is in one. */
export const sqlDb = (sql: Sql) => ({
  executeSql: (text: string, values?: unknown[]) => sql.query(text, values),
});

/**
 * Sends a job with a payload typed by its queue. With `sql`, the job is written on that
 * connection: committed with the transaction that caused it, dropped with it on rollback.
 */
export function sendJob<Q extends JobQueue>(
  boss: PgBoss,
  queue: Q,
  data: JobPayload<Q>,
  options: Omit<SendOptions, 'db'> = {},
  sql?: Sql,
): Promise<string | null> {
  return boss.send(queue, data, sql ? { ...options, db: sqlDb(sql) } : options);
}
