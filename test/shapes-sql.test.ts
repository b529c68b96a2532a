import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryJsonSql, presentEntry } from '../src/services/ledger/presenters.ts';
import { ledgerEntryShape } from '../src/services/ledger/shapes.ts';
import { startTestApp, type TestApp } from './helpers.ts';

/**
 * JSON built inside SQL (for results written in the same statement as the change, such as the
 * outbox body of `points.changed`) must be the public shape exactly: parsed in strict mode, so a
 * column added to or dropped from the SQL, or a renamed key, fails here.
 */
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

describe('SQL-built JSON matches the public shapes', () => {
  it('a ledger entry built by entryJsonSql is a LedgerEntry, equal to what presentEntry returns', async () => {
    const ws = await app.workspace();
    const credit = await ws.api('/v1/participants/sql/points', {
      body: { points: 7, reason: 'it "quotes" \\ and ünïcode', idempotency_key: 'k-1' },
    });
    const reversal = await ws.api(`/v1/participants/sql/ledger/${credit.body.id}/reversal`, { body: {} });
    const strict = ledgerEntryShape.strict();
    for (const id of [credit.body.id, reversal.body.id]) {
      const { rows } = await app.ctx.pool.query(
        `select ${entryJsonSql('e')} as json, e.* from ledger_entries e where e.id = $1`,
        [id],
      );
      const row = rows[0]!;
      const fromSql = JSON.parse(row.json);
      expect(strict.parse(fromSql)).toEqual(fromSql);
      expect(fromSql).toEqual(presentEntry(row));
    }
  });

  it('the strict check really fails on drift', () => {
    expect(() => ledgerEntryShape.strict().parse({ id: 1 })).toThrow();
  });
});
