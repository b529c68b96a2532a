import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyBytea, copyRows } from '../src/db/copy-rows.ts';
import { freshDatabase } from './helpers.ts';

// copyRows (the exports' reader) must answer exactly what `pool.query` answers for the same
// select: every type through node-pg's parsers, COPY's escapes undone, timestamps to the
// millisecond in any session time zone, and multi-byte text cut anywhere by the stream's chunks.

let url: string;
const pools: pg.Pool[] = [];
const poolIn = (timezone: string) => {
  const pool = new pg.Pool({ connectionString: url, max: 2, options: `-c timezone=${timezone}` });
  pools.push(pool);
  return pool;
};
beforeAll(async () => {
  url = await freshDatabase();
});
afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
});

const all = async (pool: pg.Pool, select: string) => {
  const rows: Record<string, unknown>[] = [];
  for await (const batch of copyRows(pool, select)) rows.push(...batch);
  return rows;
};

const TYPES = `select g as n, g::bigint * 1000000000000 as big, (g / 7.0)::numeric(12, 4) as num, g % 2 = 0 as flag,
    case g % 5 when 0 then null when 1 then E'tab\\there, line\\nbreak, cr\\r, back\\\\slash'
      when 2 then 'Zoë 🎉 "quoted", ＝1+1' when 3 then E'\\\\N' else '' end as txt,
    jsonb_build_object('k', g, 'nested', jsonb_build_array(E'a\\tb', 'ü')) as doc,
    array['x', E'y\\nz', null] as arr,
    timestamptz '2026-11-26 06:35:30.123456+00' + g * interval '1 second 1 microsecond' as at,
    timestamptz '2026-01-01 00:00:00+00' + g * interval '1 hour 10 milliseconds' as whole_at,
    case g % 4 when 0 then timestamptz 'infinity' when 1 then timestamptz '0044-03-15 12:00:00+00 BC'
      when 2 then timestamptz '1850-01-01 00:00:00+00' else null end as odd_at
  from generate_series(1, 300) g order by g`;

describe('copyRows', () => {
  for (const zone of ['UTC', 'Asia/Kathmandu', 'America/St_Johns', 'Europe/Amsterdam']) {
    it(`answers what pool.query answers, every type, in time zone ${zone}`, async () => {
      const pool = poolIn(zone);
      const expected = (await pool.query(TYPES)).rows;
      expect(await all(pool, TYPES)).toEqual(expected);
    });
  }

  it('reads multi-byte text cut anywhere by the stream, in order, one batch per chunk', async () => {
    const pool = poolIn('UTC');
    const select = `select g as n, repeat('é🎉ü', 1 + g % 37) || g as txt from generate_series(1, 20000) g order by g`;
    const batches: number[] = [];
    const rows: Record<string, unknown>[] = [];
    for await (const batch of copyRows(pool, select)) {
      batches.push(batch.length);
      rows.push(...batch);
    }
    expect(batches.length).toBeGreaterThan(10);
    expect(rows).toEqual((await pool.query(select)).rows);
  });

  it('discards its connection when the caller stops early; the pool carries on', async () => {
    const pool = poolIn('UTC');
    for await (const batch of copyRows(pool, 'select g from generate_series(1, 200000) g')) {
      expect(batch.length).toBeGreaterThan(0);
      break;
    }
    expect(pool.totalCount).toBe(0);
    expect((await pool.query('select 41 + 1 as answer')).rows).toEqual([{ answer: 42 }]);
  });

  it('fails on a bad select and leaves the pool usable', async () => {
    const pool = poolIn('UTC');
    await expect(all(pool, 'select no_such_column from generate_series(1, 3) g')).rejects.toThrow(
      /no_such_column/,
    );
    expect((await pool.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });
});

describe('copyBytea', () => {
  it('reads a bytea as stored: every byte value, and a megabyte of random bytes', async () => {
    const pool = poolIn('UTC');
    const every = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const random = randomBytes(1024 * 1024 + 7);
    await pool.query('create table blobs (id int primary key, bytes bytea)');
    await pool.query('insert into blobs values (1, $1), (2, $2), (3, null), (4, $3)', [
      every,
      random,
      Buffer.alloc(0),
    ]);
    expect((await copyBytea(pool, 'select bytes from blobs where id = 1'))!.equals(every)).toBe(true);
    expect((await copyBytea(pool, 'select bytes from blobs where id = 2'))!.equals(random)).toBe(true);
    expect(await copyBytea(pool, 'select bytes from blobs where id = 3')).toBeNull();
    expect((await copyBytea(pool, 'select bytes from blobs where id = 4'))!.length).toBe(0);
    expect(await copyBytea(pool, 'select bytes from blobs where id = 5')).toBeNull();
    await expect(copyBytea(pool, 'select bytes from blobs where id < 3')).rejects.toThrow(
      /more than one row/,
    );
    await expect(copyBytea(pool, 'select id, bytes from blobs where id = 1')).rejects.toThrow(/2 columns/);
    expect((await pool.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });
});
