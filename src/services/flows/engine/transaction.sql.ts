// Raw SQL: the engine's batch transaction (bench suite `engine`) runs on one client of the raw pool
// (`withTransaction`), not through unitOfWork. Its statements are named, so each connection parses and plans them once
// (the load and the plan's write are long CTE statements whose planning costs about as much as a
// small batch's execution); Kysely, under the ORM's transaction, sends every statement unnamed. The
// engine loads no entity, so the ORM's fork and flush would add work and nothing it uses. The
// `engine` suite sits near its target, so its per-batch round trips and statements stay as they are.
import type { Sql } from '../../../db/tx.ts';

/** Runs `fn` under a savepoint: a failure inside it leaves the enclosing transaction usable. */
export async function withSavepoint<T>(sql: Sql, name: string, fn: () => Promise<T>): Promise<T> {
  await sql.query(`savepoint ${name}`);
  try {
    const result = await fn();
    await sql.query(`release savepoint ${name}`);
    return result;
  } catch (err) {
    await sql.query(`rollback to savepoint ${name}`);
    throw err;
  }
}
