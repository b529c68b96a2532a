import { describe, expect, it } from 'vitest';
import { EVENT_STATUSES } from '../src/services/events/shapes.ts';
import {
  EMPTY_EVENT_FILTERS,
  EVENT_STATUS_OPTIONS,
  eventFiltersFromSearch,
  eventFiltersToInput,
  eventFiltersToSearch,
} from '../web/dashboard/src/lib/event-filters.ts';
import {
  formatDateTime,
  formatDay,
  formatNumber,
  formatPercent,
  formatPoints,
  shortId,
} from '../web/dashboard/src/lib/format.ts';
import { errorsByField, parseJsonField, prettyJson } from '../web/dashboard/src/lib/json-logic.ts';

describe('number and date formatting', () => {
  it('groups thousands and shows a dash for missing numbers', () => {
    expect(formatNumber(0)).toBe('0');
    expect(formatNumber(1234567)).toBe('1,234,567');
    expect(formatNumber(-4200)).toBe('-4,200');
    expect(formatNumber(null)).toBe('—');
    expect(formatNumber(undefined)).toBe('—');
    expect(formatNumber(Number.NaN)).toBe('—');
  });

  it('signs points with a plus or a real minus sign', () => {
    expect(formatPoints(120)).toBe('+120');
    expect(formatPoints(-30)).toBe('−30');
    expect(formatPoints(-1500)).toBe('−1,500');
    expect(formatPoints(0)).toBe('0');
  });

  it('shows ratios as percentages with at most one decimal', () => {
    expect(formatPercent(0.8)).toBe('80%');
    expect(formatPercent(2 / 3)).toBe('66.7%');
    expect(formatPercent(1)).toBe('100%');
    expect(formatPercent(0)).toBe('0%');
    expect(formatPercent(null)).toBe('—');
  });

  it('labels chart days and prints timestamps in UTC', () => {
    expect(formatDay('2026-11-05')).toBe('Nov 5');
    expect(formatDay('2026-01-31')).toBe('Jan 31');
    expect(formatDay('not a day')).toBe('not a day');
    expect(formatDateTime('2026-11-05T14:03:09.123Z')).toBe('2026-11-05 14:03:09 UTC');
    expect(formatDateTime('2026-11-05T23:30:00+02:00')).toBe('2026-11-05 21:30:00 UTC');
    expect(formatDateTime(null)).toBe('—');
    expect(formatDateTime('garbage')).toBe('garbage');
  });

  it('shortens long ids only', () => {
    expect(shortId('01a21302-62db-71c4-ab85-3006f674c679')).toBe('01a21302-62db…');
    expect(shortId('short')).toBe('short');
  });
});

describe('event filters ↔ events.list input', () => {
  it('sends only the filters that are set, trimmed, in the service’s names', () => {
    expect(eventFiltersToInput(EMPTY_EVENT_FILTERS)).toEqual({});
    expect(
      eventFiltersToInput({
        status: 'quarantined',
        eventType: ' order.completed ',
        participant: ' ada ',
        since: '2026-11-01',
      }),
    ).toEqual({
      status: 'quarantined',
      event_type: 'order.completed',
      participant: 'ada',
      since: '2026-11-01',
    });
    expect(eventFiltersToInput({ ...EMPTY_EVENT_FILTERS, eventType: '   ', since: '11/01/2026' })).toEqual(
      {},
    );
  });

  it('round-trips through the URL and ignores unknown statuses', () => {
    const f = { status: 'failed' as const, eventType: 'a.b', participant: 'x y', since: '2026-10-01' };
    expect(eventFiltersFromSearch(eventFiltersToSearch(f))).toEqual(f);
    expect(eventFiltersToSearch(EMPTY_EVENT_FILTERS)).toBe('');
    expect(eventFiltersFromSearch('status=bogus&participant=p')).toEqual({
      ...EMPTY_EVENT_FILTERS,
      participant: 'p',
    });
    expect(eventFiltersFromSearch('status=constructor').status).toBe('');
  });

  it('offers exactly the service’s event statuses', () => {
    expect(EVENT_STATUS_OPTIONS).toEqual([...EVENT_STATUSES]);
  });
});

describe('the flow editor’s JSON fields', () => {
  it('parses JSON Logic objects and action arrays, blank conditions meaning always', () => {
    expect(parseJsonField('', { allowBlank: true, expect: 'object' })).toEqual({ ok: true, value: null });
    expect(parseJsonField('  ', { expect: 'array' })).toEqual({ ok: false, error: 'Required' });
    expect(parseJsonField('{"==":[1,1]}', { expect: 'object' })).toEqual({
      ok: true,
      value: { '==': [1, 1] },
    });
    expect(parseJsonField('[{"type":"award_points","points":1}]', { expect: 'array' })).toMatchObject({
      ok: true,
    });
  });

  it('refuses text that is not JSON, and JSON of the wrong shape', () => {
    const bad = parseJsonField('{ ">=": [ ', { expect: 'object' });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toMatch(/^Invalid JSON: /);
    expect(parseJsonField('[1]', { expect: 'object' })).toEqual({
      ok: false,
      error: 'Must be a JSON object (a JSON Logic expression)',
    });
    expect(parseJsonField('null', { expect: 'object' })).toMatchObject({ ok: false });
    expect(parseJsonField('{}', { expect: 'array' })).toEqual({ ok: false, error: 'Must be a JSON array' });
  });

  it('groups the service’s field errors by top-level field', () => {
    expect(
      errorsByField([
        { field: 'conditions', message: 'expression: unknown operation "x"' },
        { field: 'actions.0.points', message: 'Too small' },
        { field: 'actions.1.type', message: 'Invalid input' },
      ]),
    ).toEqual({
      conditions: 'expression: unknown operation "x"',
      actions: 'actions.0.points: Too small; actions.1.type: Invalid input',
    });
    expect(prettyJson(null)).toBe('');
    expect(prettyJson({ a: 1 })).toBe('{\n  "a": 1\n}');
  });
});
