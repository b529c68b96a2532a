import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../../../src/trpc/router.ts';

export type ExportItem = inferRouterOutputs<AppRouter>['exports']['list']['data'][number];
export type ExportRequest = Omit<inferRouterInputs<AppRouter>['exports']['create'], 'mode'>;
type Resource = ExportRequest['resource'];
type Format = ExportRequest['format'];

/** Every resource an export can hold (docs/exports.md#api), in words: a `Record`, so a resource the service adds fails the typecheck here. */
export const RESOURCE_LABELS: Record<Resource, string> = {
  participants: 'Participants',
  ledger: 'Ledger entries',
  events: 'Events',
  redemptions: 'Redemptions',
  badges: 'Badge awards',
  messages: 'Messages',
  webhook_deliveries: 'Webhook deliveries',
  lots: 'Point lots',
  tiers: 'Tier moves',
  streaks: 'Streak states',
  achievements: 'Achievement awards',
  referrals: 'Referrals',
};
export const RESOURCES = Object.keys(RESOURCE_LABELS) as Resource[];

export const FORMAT_LABELS: Record<Format, string> = { csv: 'CSV', jsonl: 'JSON Lines' };
export const FORMATS = Object.keys(FORMAT_LABELS) as Format[];

export const STATUS_COLORS: Record<ExportItem['status'], string> = {
  pending: 'gray',
  running: 'blue',
  completed: 'teal',
  failed: 'red',
};

/** An export still being written: the list keeps polling while one is shown. */
export const isActive = (e: Pick<ExportItem, 'status'>) => e.status === 'pending' || e.status === 'running';

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

/** 0 → "0 B", 1536 → "1.5 KiB", 45_400_000 → "43.3 MiB"; null → "—". */
export function formatBytes(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n) || n < 0) return '—';
  let unit = 0;
  let v = n;
  while (v >= 1024 && unit < UNITS.length - 1) {
    v /= 1024;
    unit++;
  }
  return unit === 0 ? `${v} B` : `${v < 10 ? v.toFixed(1) : Math.round(v)} ${UNITS[unit]}`;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const startOfDay = (day: string) => Date.parse(`${day}T00:00:00Z`);

export interface ExportForm {
  resource: Resource | null;
  format: Format;
  /** UTC days from date inputs ("2026-11-05"), '' for none. */
  since: string;
  until: string;
}

/**
 * The form as the service's input: `since` is the start of its (UTC) day, `until` the end of its
 * day (the next midnight), left out when that is still ahead, so the service's default, the time
 * of the request, applies. A malformed day is left out rather than sent.
 */
export function exportRequest(f: ExportForm, now = Date.now()): ExportRequest | null {
  if (!f.resource) return null;
  const out: ExportRequest = { resource: f.resource, format: f.format };
  if (DAY.test(f.since) && !Number.isNaN(startOfDay(f.since)))
    out.since = new Date(startOfDay(f.since)).toISOString();
  if (DAY.test(f.until) && !Number.isNaN(startOfDay(f.until))) {
    const end = startOfDay(f.until) + 86_400_000;
    if (end <= now) out.until = new Date(end).toISOString();
  }
  return out;
}

/** "Until" before "since": told beside the field before anything is sent. */
export const rangeError = (f: ExportForm): string | undefined =>
  DAY.test(f.since) && DAY.test(f.until) && f.until < f.since ? 'must be on or after since' : undefined;

/** A "since" day after today (UTC) would select nothing that exists yet: the service refuses it. */
export const sinceError = (f: ExportForm, now = Date.now()): string | undefined =>
  DAY.test(f.since) && f.since > new Date(now).toISOString().slice(0, 10)
    ? 'must not be in the future'
    : undefined;
