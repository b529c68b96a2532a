// Raw SQL: one aggregate per source table, run by the rollup over every workspace and by the overview
// over one workspace's tail; `cross join lateral (values …)` counts several metrics in one pass.

/**
 * What the overview counts, per source table: how to aggregate a set of its rows into
 * `(workspace_id, mode, day, metric, key, value)` tuples. The rollup job (rollup.ts) runs it over
 * the rows between two watermarks, for every workspace; the overview (overview.ts) over the rows
 * after the watermark, for one workspace and mode. Same SQL both ways, so rollup + tail = recount.
 *
 * Every metric is fixed when its row is inserted (a quarantined event is quarantined at ingest,
 * ledger entries and webhook attempts are never updated, a redemption's reward never changes), so
 * a row counted once never needs recounting.
 */
export interface StatSource {
  /** The watermark row's name. */
  name: string;
  /** The table whose primary key the watermark follows. */
  table: string;
  /** `bigint` or `uuid`: how the watermark (text) is cast. */
  idType: 'bigint' | 'uuid';
  /** The lowest possible id, for a watermark that has counted nothing yet. */
  floor: string;
  /** The row's time column (its UTC day is the stat's day). */
  time: string;
  /**
   * The aggregate; `$where` is replaced by the caller's conditions on alias `x` (and `w` for the
   * row's workspace and mode columns).
   */
  sql: string;
}

const day = (column: string) => `(${column} at time zone 'UTC')::date`;

export const SOURCES: StatSource[] = [
  {
    name: 'events',
    table: 'events',
    idType: 'uuid',
    floor: '00000000-0000-0000-0000-000000000000',
    time: 'received_at',
    sql: `select x.workspace_id, x.mode, ${day('x.received_at')} as day, m.metric, '' as key, sum(m.v)::bigint as value
            from events x
            cross join lateral (values ('events', 1), ('quarantined', case when x.status = 'quarantined' then 1 else 0 end)) m(metric, v)
           where $where
           group by 1, 2, 3, 4, 5 having sum(m.v) <> 0`,
  },
  {
    name: 'ledger_entries',
    table: 'ledger_entries',
    idType: 'bigint',
    floor: '0',
    time: 'created_at',
    sql: `select x.workspace_id, x.mode, ${day('x.created_at')} as day, m.metric, '' as key, sum(m.v)::bigint as value
            from ledger_entries x
            cross join lateral (values
              ('points_issued', case when x.source in ('flow', 'adjustment') and x.points > 0 then x.points else 0 end),
              ('points_redeemed', case when x.source = 'redemption' then -x.points else 0 end)) m(metric, v)
           where $where
           group by 1, 2, 3, 4, 5 having sum(m.v) <> 0`,
  },
  {
    name: 'redemptions',
    table: 'redemptions',
    idType: 'bigint',
    floor: '0',
    time: 'created_at',
    sql: `select x.workspace_id, x.mode, ${day('x.created_at')} as day, 'redemptions' as metric, x.reward_id::text as key, count(*)::bigint as value
            from redemptions x
           where $where
           group by 1, 2, 3, 4, 5`,
  },
  {
    name: 'webhook_attempts',
    table: 'webhook_attempts',
    idType: 'bigint',
    floor: '0',
    time: 'attempted_at',
    sql: `select d.workspace_id, d.mode, ${day('x.attempted_at')} as day, m.metric, '' as key, sum(m.v)::bigint as value
            from webhook_attempts x
            join webhook_deliveries d on d.id = x.delivery_id
            cross join lateral (values ('webhook_attempts', 1),
              ('webhook_succeeded', case when x.status_code between 200 and 299 then 1 else 0 end)) m(metric, v)
           where $where
           group by 1, 2, 3, 4, 5 having sum(m.v) <> 0`,
  },
];
