import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, expect, inject, it } from 'vitest';
import { ensureDatabase, withDatabase } from '../src/db/database.ts';
import { openOrm } from '../src/db/orm.ts';

// The migration that brings lots (docs/points.md#lots) to an existing database: every participant's
// balance becomes one never-expiring lot, so balance = Σ ledger = Σ lots holds from then on.

const name = `svc_t_${inject('runId')}_mig_${randomBytes(4).toString('hex')}`;
const admin = inject('adminUrl');
const url = withDatabase(admin, name);

afterAll(async () => {
  const c = new pg.Client({ connectionString: withDatabase(admin, 'postgres') });
  await c.connect();
  await c.query(`drop database if exists "${name}" with (force)`);
  await c.end();
});

it('gives every participant with a balance one never-expiring lot holding it, and later debits use it', async () => {
  await ensureDatabase(admin, name);
  const orm = await openOrm(url);
  const db = new pg.Client({ connectionString: url });
  try {
    await orm.migrator.up({ to: 'Migration20261125161843' });
    await db.connect();
    const ws = (
      await db.query(
        `insert into workspaces (id, slug, name) values (gen_random_uuid(), 'mig', 'mig') returning id`,
      )
    ).rows[0].id;
    // Books as the ledger wrote them before lots: two credits and a debit, and an empty participant.
    const rich = (
      await db.query(
        `insert into participants (workspace_id, mode, external_id, balance, lifetime_points) values ($1, 'live', 'rich', 70, 100) returning id`,
        [ws],
      )
    ).rows[0].id;
    await db.query(
      `insert into participants (workspace_id, mode, external_id, balance, lifetime_points) values ($1, 'live', 'empty', 0, 0)`,
      [ws],
    );
    await db.query(
      `insert into ledger_entries (workspace_id, mode, participant_id, points, balance_after, source)
       values ($1, 'live', $2, 60, 60, 'flow'), ($1, 'live', $2, 40, 100, 'adjustment'), ($1, 'live', $2, -30, 70, 'redemption')`,
      [ws, rich],
    );

    await orm.migrator.up();

    const lots = await db.query(
      `select p.external_id, l.points, l.remaining, l.expires_at, e.points as entry_points
         from point_lots l join participants p on p.id = l.participant_id join ledger_entries e on e.id = l.entry_id`,
    );
    expect(lots.rows).toEqual([
      { external_id: 'rich', points: '70', remaining: '70', expires_at: null, entry_points: '40' },
    ]);
    // A debit now consumes the lot; a reversal of the old, lot-less debit gives back a never-expiring lot.
    await db.query(
      `with m as (update participants set balance = balance - 50 where id = $2 returning balance)
       insert into ledger_entries (workspace_id, mode, participant_id, points, balance_after, source)
       select $1, 'live', $2, -50, balance, 'adjustment' from m`,
      [ws, rich],
    );
    const oldDebit = (await db.query(`select id from ledger_entries where source = 'redemption'`)).rows[0].id;
    await db.query(
      `with m as (update participants set balance = balance + 30 where id = $2 returning balance)
       insert into ledger_entries (workspace_id, mode, participant_id, points, balance_after, source, reverses_entry_id)
       select $1, 'live', $2, 30, balance, 'reversal', $3 from m`,
      [ws, rich, oldDebit],
    );
    const after = await db.query(
      `select remaining, expires_at from point_lots where participant_id = $1 and remaining > 0 order by id`,
      [rich],
    );
    expect(after.rows).toEqual([
      { remaining: '20', expires_at: null },
      { remaining: '30', expires_at: null },
    ]);
  } finally {
    await db.end().catch(() => {});
    await orm.close(true);
  }
});
