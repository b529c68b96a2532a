import type { Sql } from '../../db/tx.ts';
import type { Scope } from '../keys/principal.ts';
import type { StatSource } from './sources.sql.ts';

// Raw SQL: the rollup's aggregates are INSERT … SELECT with `on conflict … do update` over id ranges,
// and the overview reads the rollup and the rows after its watermarks in one repeatable-read snapshot.

/** One number of a day: a metric and key (a reward id for `redemptions`, '' otherwise). */
export interface StatRow {
  day: string;
  metric: string;
  key: string;
  value: string;
}

/** The rolled-up numbers of a workspace and mode for the days in [from, to]. */
export async function rolledUpStats(sql: Sql, who: Scope, from: string, to: string): Promise<StatRow[]> {
  const { rows } = await sql.query<StatRow>(
    `select day::text as day, metric, key, value::text as value from daily_stats
          where workspace_id = $1 and mode = $2 and day between $3::date and $4::date`,
    [who.workspaceId, who.mode, from, to],
  );
  return rows;
}

/** Every source's watermark: the last id the rollup counted (null: none yet). */
export async function watermarks(sql: Sql): Promise<Map<string, string | null>> {
  const { rows } = await sql.query<{ source: string; last_id: string | null }>(
    `select source, last_id from daily_stats_watermarks`,
  );
  return new Map(rows.map((m) => [m.source, m.last_id]));
}

/** The source's numbers for a workspace and mode from the rows after `after`, for the days in [from, to]. */
export async function tailStats(
  sql: Sql,
  s: StatSource,
  who: Scope,
  after: string,
  from: string,
  to: string,
): Promise<StatRow[]> {
  const a = scopeAlias(s);
  const where = `${a}.workspace_id = $1 and ${a}.mode = $2 and x.id > $3::${s.idType} and x.${s.time} >= ($4::date)::timestamp at time zone 'UTC'`;
  const { rows } = await sql.query<StatRow>(
    `select day::text as day, metric, key, value::text as value from (${s.sql.replace('$where', where)}) t
            where day <= $5::date`,
    [who.workspaceId, who.mode, after, from, to],
  );
  return rows;
}

/** The alias holding a source's workspace_id and mode columns. */
const scopeAlias = (s: StatSource) => (s.name === 'webhook_attempts' ? 'd' : 'x');

/** The names of rewards by id (as text), of a workspace and mode. */
export async function rewardNamesById(sql: Sql, who: Scope, ids: string[]): Promise<Map<string, string>> {
  const { rows } = await sql.query<{ id: string; name: string }>(
    `select id::text as id, name from rewards where workspace_id = $1 and mode = $2 and id = any($3::bigint[])`,
    [who.workspaceId, who.mode, ids],
  );
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Reads the source's watermark, locking it so two rollups never fold the same rows. */
export async function lockWatermark(sql: Sql, s: StatSource): Promise<string> {
  await sql.query(
    `insert into daily_stats_watermarks (source, last_id) values ($1, null) on conflict (source) do nothing`,
    [s.name],
  );
  const { rows } = await sql.query<{ last_id: string | null }>(
    `select last_id from daily_stats_watermarks where source = $1 for update`,
    [s.name],
  );
  return rows[0]?.last_id ?? s.floor;
}

/** The highest id of the next batch after `lo` among rows older than the settle time, and its size. */
export async function nextBatch(
  sql: Sql,
  s: StatSource,
  lo: string,
  settleSeconds: number,
  batchRows: number,
): Promise<{ hi: string | null; n: number }> {
  const { rows } = await sql.query<{ hi: string | null; n: string }>(
    `with b as (
       select id from ${s.table}
        where id > $1::${s.idType} and ${s.time} < now() - make_interval(secs => $2)
        order by id limit $3)
     select (select id::text from b order by id desc limit 1) as hi, (select count(*) from b) as n`,
    [lo, settleSeconds, batchRows],
  );
  return { hi: rows[0]?.hi ?? null, n: Number(rows[0]?.n ?? 0) };
}

/** Adds the source's numbers of the rows in (lo, hi] to `daily_stats`, and moves its watermark to `hi`. */
export async function foldBatch(sql: Sql, s: StatSource, lo: string, hi: string): Promise<void> {
  await sql.query(
    `insert into daily_stats (workspace_id, mode, day, metric, key, value)
     ${s.sql.replace('$where', `x.id > $1::${s.idType} and x.id <= $2::${s.idType}`)}
     on conflict (workspace_id, mode, day, metric, key) do update set value = daily_stats.value + excluded.value`,
    [lo, hi],
  );
  await sql.query(`update daily_stats_watermarks set last_id = $2, updated_at = now() where source = $1`, [
    s.name,
    hi,
  ]);
}
