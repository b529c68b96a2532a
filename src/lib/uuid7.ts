import { randomFillSync } from 'node:crypto';
import { v7 } from 'uuid';

const POOL_BYTES = 16 * 256;
const pool = new Uint8Array(POOL_BYTES);
let taken = POOL_BYTES;
const state = { msecs: Number.NEGATIVE_INFINITY, seq: 0 };

/**
 * A UUIDv7 as uuid's own `v7()` makes it, monotonic within the process (a counter seeded at
 * random each millisecond, carried over when the clock stands still), but its random bytes come
 * from a pooled buffer: `v7()` asks the OS for 16 bytes per id, which cost the ingest path a
 * system call per event. The ordering matters: the engine takes a participant's events in id
 * order.
 */
export function uuidv7(): string {
  if (taken === POOL_BYTES) {
    randomFillSync(pool);
    taken = 0;
  }
  const random = pool.subarray(taken, taken + 16);
  taken += 16;
  const now = Date.now();
  if (now > state.msecs) {
    state.msecs = now;
    state.seq = ((random[6]! & 0x7f) << 24) | (random[7]! << 16) | (random[8]! << 8) | random[9]!;
  } else {
    state.seq = (state.seq + 1) | 0;
    if (state.seq === 0) state.msecs++;
  }
  return v7({ random, msecs: state.msecs, seq: state.seq });
}

/**
 * The smallest UUIDv7 of the millisecond `at`: every UUIDv7 made before `at` sorts below it (the
 * timestamp leads, and Postgres compares uuids bytewise), so `id < uuidv7Floor(t)` walks a
 * time-ordered primary key instead of an index on a timestamp column.
 */
export function uuidv7Floor(at: Date): string {
  const hex = Math.max(0, Math.floor(at.getTime())).toString(16).padStart(12, '0').slice(-12);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-0000-0000-000000000000`;
}

/** The millisecond a UUIDv7 was made at: its leading 48 bits (the inverse of uuidv7Floor). */
export function uuidv7Time(id: string): Date {
  return new Date(Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16));
}
