import { describe, expect, it } from 'vitest';
import { RESULT_TYPES as SERVICE_TYPES } from '../src/services/outbox/emit.ts';
import {
  canReplay,
  describeOutcome,
  eventTypesToSend,
  formatDuration,
  RESULT_TYPES,
} from '../web/dashboard/src/pages/webhooks/logic.ts';

describe('the subscription form: event types to send', () => {
  it('offers exactly the result types the service emits', () => {
    expect([...RESULT_TYPES].sort()).toEqual([...SERVICE_TYPES].sort());
  });
  it('sends * for "All events" or when every type is ticked', () => {
    expect(eventTypesToSend(true, [])).toEqual(['*']);
    expect(eventTypesToSend(false, [...RESULT_TYPES])).toEqual(['*']);
  });
  it('sends the ticked types, and nothing when none is ticked', () => {
    expect(eventTypesToSend(false, ['badge.awarded', 'points.changed'])).toEqual([
      'points.changed',
      'badge.awarded',
    ]);
    expect(eventTypesToSend(false, [])).toBeNull();
    expect(eventTypesToSend(false, ['webhook.test'])).toBeNull();
  });
});

describe('the delivery log', () => {
  it('offers replay for dead and succeeded deliveries only (CONTRACT 10)', () => {
    expect(canReplay('dead')).toBe(true);
    expect(canReplay('succeeded')).toBe(true);
    expect(canReplay('pending')).toBe(false);
    expect(canReplay('simulated')).toBe(false);
  });
  it('formats durations', () => {
    expect(formatDuration(0)).toBe('0 ms');
    expect(formatDuration(87.4)).toBe('87 ms');
    expect(formatDuration(1250)).toBe('1.3 s');
    expect(formatDuration(12_400)).toBe('12 s');
    expect(formatDuration(125_000)).toBe('2 min 5 s');
  });
  it('describes an attempt by its status code, else its error', () => {
    expect(describeOutcome(200, null)).toBe('HTTP 200');
    expect(describeOutcome(500, 'receiver answered 500')).toBe('HTTP 500: receiver answered 500');
    expect(describeOutcome(null, 'timed out after 10000 ms')).toBe('timed out after 10000 ms');
    expect(describeOutcome(null, null)).toBe('No response');
  });
});
