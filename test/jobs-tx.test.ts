import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../src/db/tx.ts';
import { unitOfWork } from '../src/db/unit-of-work.ts';
import { sendJob } from '../src/jobs/payloads.ts';
import { PROCESS_EVENT_QUEUE } from '../src/jobs/queues.ts';
import { startTestApp, type TestApp } from './helpers.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ role: 'api' }); // no workers: jobs stay where they were put
});
afterAll(() => app?.close());

const jobExists = async (id: string) =>
  (await app.ctx.pool.query('select count(*)::int as n from pgboss.job where id = $1', [id])).rows[0].n === 1;

describe('jobs sent inside a transaction', () => {
  it('exist after COMMIT and vanish on ROLLBACK (a raw client, as the engine holds)', async () => {
    for (const outcome of ['commit', 'rollback'] as const) {
      const id = uuidv7();
      const sent = withTransaction(app.ctx.pool, async (sql) => {
        await sendJob(app.ctx.boss, PROCESS_EVENT_QUEUE, { eventIds: [id] }, { id }, sql);
        if (outcome === 'rollback') throw new Error('rolled back after the job was sent');
      });
      if (outcome === 'rollback') await expect(sent).rejects.toThrow('rolled back');
      else await sent;
      expect(await jobExists(id)).toBe(outcome === 'commit');
    }
  });

  it('exist after COMMIT and vanish on ROLLBACK (unitOfWork, with the ORM in the same transaction)', async () => {
    const committed = uuidv7();
    await unitOfWork(app.ctx, async ({ send }) => {
      await send(PROCESS_EVENT_QUEUE, { eventIds: [committed] }, { id: committed });
    });
    expect(await jobExists(committed)).toBe(true);

    const rolledBack = uuidv7();
    await expect(
      unitOfWork(app.ctx, async ({ send, sql, em }) => {
        await send(PROCESS_EVENT_QUEUE, { eventIds: [rolledBack] }, { id: rolledBack });
        // The raw statements and the ORM share the transaction's connection.
        const pid = (await sql.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
        const [orm] = await em.execute<{ pid: number }[]>('select pg_backend_pid() as pid');
        expect(orm!.pid).toBe(pid);
        throw new Error('business rule failed after the job was sent');
      }),
    ).rejects.toThrow('business rule failed');
    expect(await jobExists(rolledBack)).toBe(false);
  });
});
