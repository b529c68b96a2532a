/** Number and date formatting for tables and charts (pure; unit-tested in test/dashboard-format.unit.test.ts). */

const INTEGER = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** 1234567 → "1,234,567"; null/undefined → "—". */
export function formatNumber(n: number | null | undefined): string {
  return n === null || n === undefined || Number.isNaN(n) ? '—' : INTEGER.format(n);
}

/** A signed points amount: 120 → "+120", -30 → "−30" (a real minus sign), 0 → "0". */
export function formatPoints(n: number): string {
  if (n > 0) return `+${INTEGER.format(n)}`;
  if (n < 0) return `−${INTEGER.format(-n)}`;
  return '0';
}

/** A 0–1 ratio as a percentage with at most one decimal: 0.8 → "80%", 2/3 → "66.7%", null → "—". */
export function formatPercent(ratio: number | null | undefined): string {
  if (ratio === null || ratio === undefined || Number.isNaN(ratio)) return '—';
  return `${Number((ratio * 100).toFixed(1))}%`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** An ISO day ("2026-11-05") as a short chart label: "Nov 5". */
export function formatDay(day: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(day);
  if (!m) return day;
  return `${MONTHS[Number(m[2]) - 1]} ${Number(m[3])}`;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO timestamp in UTC, compact and sortable: "2026-11-05 14:03:09 UTC"; null → "—". */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(
    d.getUTCMinutes(),
  )}:${pad(d.getUTCSeconds())} UTC`;
}

/** A long id shortened for a table cell: "01a21302-62db-71c4-…" keeps the first 18 characters. */
export function shortId(id: string, keep = 13): string {
  return id.length > keep + 1 ? `${id.slice(0, keep)}…` : id;
}
