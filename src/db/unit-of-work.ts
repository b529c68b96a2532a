import { IsolationLevel } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { CompiledQuery, type Transaction } from 'kysely';
import type { SendOptions } from 'pg-boss';
import type { AppContext } from '../context.ts';
import { type JobPayload, type JobQueue, sendJob } from '../jobs/payloads.ts';
import type { Sql, SqlResult, Statement } from './tx.ts';

/** One transaction: the ORM's unit of work, raw statements on its connection, and jobs sent in it. */
export interface UnitOfWork {
  /** A forked EntityManager inside the transaction; flushed before COMMIT. */
  readonly em: EntityManager;
  /** Raw SQL on the transaction's own connection (repositories take it as their `Sql`). */
  readonly sql: Sql;
  /** Sends a job in the transaction: committed with it, dropped with it on rollback. */
  send<Q extends JobQueue>(
    queue: Q,
    data: JobPayload<Q>,
    options?: Omit<SendOptions, 'db'>,
  ): Promise<unknown>;
}

export type Isolation = 'read committed' | 'repeatable read' | 'serializable';

const LEVELS: Record<Isolation, IsolationLevel> = {
  'read committed': IsolationLevel.READ_COMMITTED,
  'repeatable read': IsolationLevel.REPEATABLE_READ,
  serializable: IsolationLevel.SERIALIZABLE,
};

/**
 * Runs `fn` as one unit of work: a forked EntityManager's transaction (COMMIT when `fn`
 * resolves, ROLLBACK when it throws), whose connection also carries the raw statements of
 * `work.sql` and the jobs of `work.send`. Every service transaction goes through here.
 */
export function unitOfWork<T>(
  ctx: Pick<AppContext, 'orm'> & Partial<Pick<AppContext, 'boss'>>,
  fn: (work: UnitOfWork) => Promise<T>,
  opts: { isolation?: Isolation } = {},
): Promise<T> {
  return ctx.orm.em.fork().transactional(
    (em) => {
      const sql = transactionSql(em);
      return fn({
        em,
        sql,
        send: (queue, data, options) => {
          if (!ctx.boss) throw new Error('unitOfWork: this context has no queue to send jobs to');
          return sendJob(ctx.boss, queue, data, options, sql);
        },
      });
    },
    opts.isolation ? { isolationLevel: LEVELS[opts.isolation] } : {},
  );
}

/** The transaction's Kysely connection as `Sql`: real bind parameters, node-pg's result rows. */
function transactionSql(em: EntityManager): Sql {
  const trx = em.getTransactionContext<Transaction<unknown>>();
  if (!trx) throw new Error('unitOfWork: no transaction on the EntityManager');
  return {
    // Kysely sends every statement unnamed (parsed and planned per call): a `name` is dropped.
    async query<R extends object>(
      text: string | Statement,
      values?: readonly unknown[],
    ): Promise<SqlResult<R>> {
      const stmt = typeof text === 'string' ? { text, values } : text;
      const res = await trx.executeQuery<R>(CompiledQuery.raw(stmt.text, [...(stmt.values ?? values ?? [])]));
      return {
        rows: res.rows as R[],
        rowCount: res.numAffectedRows === undefined ? res.rows.length : Number(res.numAffectedRows),
      };
    },
  };
}
