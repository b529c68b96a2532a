import { z } from 'zod';
import type { Sql } from '../../db/tx.ts';
import { uuidv7 } from '../../lib/uuid7.ts';
import type { Mode } from '../keys/principal.ts';
import { insertResults } from './emit.sql.ts';

export { DELIVERIES_CHANNEL, emitResultsCtes } from './emit.sql.ts';

/** The result types (docs/api.md#webhooks), plus `webhook.test`, which is sent directly, never stored. */
export const resultType = z.enum([
  'badge.awarded',
  'points.changed',
  'reward.redeemed',
  'flow.completed',
  'message.sent',
  'points.expiring',
  'tier.changed',
  'streak.extended',
  'streak.broken',
  'referral.qualified',
  'referral.rewarded',
  'webhook.disabled',
]);
export type ResultType = z.output<typeof resultType>;
export const RESULT_TYPES = resultType.options;

export interface ResultToEmit {
  workspaceId: string;
  mode: Mode;
  type: ResultType;
  /** The `data` object of the delivery body, in the shape its type documents. */
  data: Record<string, unknown>;
}

/**
 * Records results in the outbox and fans them out to the matching webhook subscriptions, in one
 * statement whatever their number. Call it with the transaction that makes the change, so the
 * results commit (and are delivered) exactly when the change does. Returns the outbox ids, in order.
 */
export async function emitResults(sql: Sql, results: readonly ResultToEmit[]): Promise<string[]> {
  if (results.length === 0) return [];
  const ids = results.map(() => uuidv7());
  await insertResults(
    sql,
    results.map((r, i) => ({
      id: ids[i]!,
      workspaceId: r.workspaceId,
      mode: r.mode,
      type: r.type,
      data: JSON.stringify(r.data),
    })),
  );
  return ids;
}

/** One result: {@link emitResults} with one element. Returns its outbox id. */
export async function emitResult(sql: Sql, result: ResultToEmit): Promise<string> {
  const [id] = await emitResults(sql, [result]);
  return id!;
}
