import type { EntityManager } from '@mikro-orm/postgresql';
import type pg from 'pg';
import { type Db, fromKysely } from 'pg-boss';

/**
 * pg-boss `db` adapters, so a job is sent inside the caller's transaction: committed with the
 * write that caused it, dropped with it on rollback (STYLE 4).
 */
export const clientDb = (client: pg.PoolClient): Db => ({
  executeSql: (text, values) => client.query(text, values),
});

/** The same over a MikroORM EntityManager inside `em.transactional` (its Kysely is bound to the transaction). */
export const entityManagerDb = (em: EntityManager): Db => fromKysely(em.getKysely());
