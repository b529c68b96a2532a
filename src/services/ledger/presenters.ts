import { isoJsonSql, jsonObjectSql, jsonSql } from '../../db/sql-json.ts';
import { isoTime } from '../../lib/iso-time.ts';
import type { RawEntry } from './repository.ts';
import type { LedgerEntryDto, LedgerSource, PointsChangedData } from './shapes.ts';

/** A ledger entry as every door shows it. */
export function presentEntry(r: RawEntry): LedgerEntryDto {
  return {
    id: Number(r.id),
    points: Number(r.points),
    balance_after: Number(r.balance_after),
    reason: r.reason,
    source: r.source as LedgerSource,
    reference: r.reference,
    reverses_entry_id: r.reverses_entry_id === null ? null : Number(r.reverses_entry_id),
    idempotency_key: r.idempotency_key,
    expires_at: r.expires_at ? isoTime(r.expires_at) : null,
    capped_points: Number(r.capped_points),
    created_at: isoTime(r.created_at),
  };
}

/**
 * {@link presentEntry} in SQL: the compact JSON text of the entry row `alias` (the columns of
 * `ledger_entries`), for results built inside the statement that posts the entry (see
 * debit.sql.ts). Same keys in the same order; timestamps as `toISOString()` prints them.
 */
export function entryJsonSql(alias: string): string {
  const text = (col: string) => jsonSql(`${alias}.${col}::text`);
  return jsonObjectSql<LedgerEntryDto>({
    id: `${alias}.id`,
    points: `${alias}.points`,
    balance_after: `${alias}.balance_after`,
    reason: text('reason'),
    source: text('source'),
    reference: text('reference'),
    reverses_entry_id: `coalesce(${alias}.reverses_entry_id::text, 'null')`,
    idempotency_key: text('idempotency_key'),
    expires_at: `coalesce(${isoJsonSql(`${alias}.expires_at`)}, 'null')`,
    capped_points: `${alias}.capped_points`,
    created_at: isoJsonSql(`${alias}.created_at`),
  });
}

/**
 * A `points.changed` result's `data` in SQL (as post-entry.ts' `pointsChanged` builds it): the
 * entry row `alias`, its participant's external id (`externalId`, a text expression) and the
 * balance the entry left.
 */
export function pointsChangedJsonSql(alias: string, externalId: string): string {
  return jsonObjectSql<PointsChangedData>({
    participant: jsonObjectSql<PointsChangedData['participant']>({ external_id: jsonSql(externalId) }),
    entry: entryJsonSql(alias),
    balance: `${alias}.balance_after`,
  });
}
