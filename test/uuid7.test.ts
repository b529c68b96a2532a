import { validate, version } from 'uuid';
import { describe, expect, it } from 'vitest';
import { uuidv7, uuidv7Floor, uuidv7Time } from '../src/lib/uuid7.ts';

describe('uuidv7 (pooled randomness)', () => {
  it('makes valid version-7 UUIDs, strictly increasing within the process', () => {
    let previous = '';
    for (let i = 0; i < 200_000; i++) {
      const id = uuidv7();
      expect(id > previous).toBe(true);
      previous = id;
    }
    expect(validate(previous)).toBe(true);
    expect(version(previous)).toBe(7);
    expect(previous[19]).toMatch(/[89ab]/); // RFC 9562 variant
  });

  it('carries the current time in its first 48 bits', () => {
    const before = Date.now();
    const id = uuidv7();
    const ms = Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16);
    // Within one millisecond the counter may carry into the next one; never more than a little.
    expect(ms).toBeGreaterThanOrEqual(before);
    expect(ms).toBeLessThanOrEqual(Date.now() + 5);
  });

  it('reads back the millisecond an id or a floor was made for', () => {
    const at = new Date(Date.UTC(2026, 10, 26, 12, 0, 0, 7));
    expect(uuidv7Time(uuidv7Floor(at))).toEqual(at);
    const before = Date.now();
    const ms = uuidv7Time(uuidv7()).getTime();
    expect(ms).toBeGreaterThanOrEqual(before);
    expect(ms).toBeLessThanOrEqual(Date.now() + 5);
  });

  it('draws fresh random bits for every id (no two ids share their random tail)', () => {
    const tails = new Set(Array.from({ length: 10_000 }, () => uuidv7().slice(24)));
    expect(tails.size).toBe(10_000);
  });
});
