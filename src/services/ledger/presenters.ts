import { isoJsonSql, jsonSql } from '../../db/sql-json.ts';
import { isoTime } from '../../lib/iso-time.ts';
import type { RawEntry } from './post-entry.ts';
import type { LedgerEntryDto } from './shapes.ts';

/** A ledger entry as every door shows it: the shape's output type. */
export type LedgerEntryRow = LedgerEntryDto;

export function presentEntry(r: RawEntry): LedgerEntryRow {
  return {
    id: Number(r.id),
    points: Number(r.points),
    balance_after: Number(r.balance_after),
    reason: r.reason,
    source: r.source as LedgerEntryDto['source'],
    reference: r.reference,
    reverses_entry_id: r.reverses_entry_id === null ? null : Number(r.reverses_entry_id),
    idempotency_key: r.idempotency_key,
    created_at: isoTime(r.created_at),
  };
}

/**
 * {@link presentEntry} in SQL: the compact JSON text of an entry row `alias` (the columns of
 * `ledger_entries`), same keys in the same order, for results built inside one statement
 * (see `debitCtes`). Timestamps as `toISOString()` prints them (UTC, milliseconds, `Z`).
 */
export function entryJsonSql(alias: string): string {
  const str = (col: string) => jsonSql(`${alias}.${col}::text`);
  return `'{"id":' || ${alias}.id || ',"points":' || ${alias}.points || ',"balance_after":' || ${alias}.balance_after
    || ',"reason":' || ${str('reason')} || ',"source":' || ${str('source')} || ',"reference":' || ${str('reference')}
    || ',"reverses_entry_id":' || coalesce(${alias}.reverses_entry_id::text, 'null')
    || ',"idempotency_key":' || ${str('idempotency_key')}
    || ',"created_at":' || ${isoJsonSql(`${alias}.created_at`)} || '}'`;
}
