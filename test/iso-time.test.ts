import { describe, expect, it } from 'vitest';
import { isoTime, isoTimeOrNull } from '../src/lib/iso-time.ts';

describe('isoTime', () => {
  it('prints what toISOString prints, including the years it leaves to it', () => {
    const samples = [
      0,
      1,
      999,
      1000,
      59_999,
      -1,
      Date.UTC(999, 11, 31, 23, 59, 59, 999),
      Date.UTC(1000, 0, 1),
    ];
    for (let i = 0; i < 20_000; i++) samples.push(Math.round((Math.random() - 0.3) * 2 ** 46));
    samples.push(Date.UTC(9999, 11, 31, 23, 59, 59, 999), Date.UTC(10000, 0, 1), -62198755200000);
    for (const t of samples) {
      const d = new Date(t);
      expect(isoTime(d)).toBe(d.toISOString());
      expect(isoTime(d.toISOString())).toBe(d.toISOString());
      expect(isoTime(t)).toBe(d.toISOString());
    }
    expect(isoTimeOrNull(null)).toBeNull();
    expect(() => isoTime(new Date(Number.NaN))).toThrow(RangeError);
  });
});
