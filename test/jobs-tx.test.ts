import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROCESS_EVENT_QUEUE } from '../src/jobs/queues.ts';
import { clientDb, entityManagerDb } from '../src/jobs/tx.ts';
import { startTestApp, type TestApp } from './helpers.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ role: 'api' }); // no workers: jobs stay where they were put
});
afterAll(() => app?.close());

const jobExists = async (id: string) =>
  (await app.ctx.pool.query('select count(*)::int as n from pgboss.job where id = $1', [id])).rows[0].n === 1;

describe('jobs sent inside a transaction', () => {
  it('exist after COMMIT and vanish on ROLLBACK (raw pg client, as the ingest writer uses)', async () => {
    for (const outcome of ['commit', 'rollback'] as const) {
      const id = uuidv7();
      const client = await app.ctx.pool.connect();
      try {
        await client.query('begin');
        await app.ctx.boss.insert(PROCESS_EVENT_QUEUE, [{ id, data: { eventIds: [id] } }], {
          db: clientDb(client),
        });
        await client.query(outcome);
      } finally {
        client.release();
      }
      expect(await jobExists(id)).toBe(outcome === 'commit');
    }
  });

  it('exist after COMMIT and vanish on ROLLBACK (MikroORM em.transactional)', async () => {
    const committed = uuidv7();
    await app.ctx.orm.em.fork().transactional(async (em) => {
      await app.ctx.boss.send(
        PROCESS_EVENT_QUEUE,
        { eventIds: [committed] },
        { id: committed, db: entityManagerDb(em) },
      );
    });
    expect(await jobExists(committed)).toBe(true);

    const rolledBack = uuidv7();
    await expect(
      app.ctx.orm.em.fork().transactional(async (em) => {
        await app.ctx.boss.send(
          PROCESS_EVENT_QUEUE,
          { eventIds: [rolledBack] },
          { id: rolledBack, db: entityManagerDb(em) },
        );
        throw new Error('business rule failed after the job was sent');
      }),
    ).rejects.toThrow('business rule failed');
    expect(await jobExists(rolledBack)).toBe(false);
  });
});
