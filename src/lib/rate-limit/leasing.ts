import type { RateLimitDecision, RateLimiter } from '../rate-limit.ts';

/** The shared counter: one atomic increment per call, in a fixed window per key. */
export interface LeaseStore {
  /** Adds `points` to `key`'s counter; the counter after the increment and ms until its window ends. */
  take(key: string, points: number): Promise<{ consumed: number; msBeforeNext: number }>;
  close(): Promise<void>;
}

/** The largest lease a process takes when nobody is waiting: 1 % of the limit (at least 1). */
export const maxLeaseFor = (limit: number): number => Math.max(1, Math.floor(limit / 100));

/** A lease never takes more than this fraction of what the counter says is left. */
const LEFT_DIVISOR = 10;

interface KeyState {
  /** Leased points not yet spent; all from the latest lease. */
  tokens: number;
  /** The limit minus the shared counter after this process's latest lease. */
  counterLeft: number;
  /** When the latest lease's window ends (measured from before the call, so never late). */
  windowEnd: number;
  /** The counter reached the limit: answer 429 from memory until `windowEnd`. */
  exhausted: boolean;
  /** The last `remaining` answered in this window; it never goes up. */
  shown: number;
  lease: Promise<void> | null;
  /** Requests waiting on `lease`, so the next lease covers them. */
  waiting: number;
}

export interface LeasingOptions {
  limit: number;
  windowMs: number;
  maxLease?: number;
}

/** Spends points leased in chunks from a shared `LeaseStore` (design: src/lib/rate-limit.ts). */
export class LeasingLimiter implements RateLimiter {
  readonly #store: LeaseStore;
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #maxLease: number;
  readonly #states = new Map<string, KeyState>();
  #lastSweep = Date.now();

  constructor(store: LeaseStore, opts: LeasingOptions) {
    this.#store = store;
    this.#limit = opts.limit;
    this.#windowMs = opts.windowMs;
    this.#maxLease = Math.max(1, opts.maxLease ?? maxLeaseFor(opts.limit));
  }

  async consume(keyId: string): Promise<RateLimitDecision> {
    for (;;) {
      const s = this.#stateFor(keyId);
      if (s.tokens > 0) {
        s.tokens--;
        s.shown = Math.min(s.shown, s.counterLeft + s.tokens);
        return this.#decision(s, true);
      }
      if (s.exhausted) {
        s.shown = 0;
        return this.#decision(s, false);
      }
      s.waiting++;
      s.lease ??= this.#lease(keyId, s).finally(() => {
        s.lease = null;
      });
      try {
        await s.lease;
      } finally {
        s.waiting--;
      }
    }
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.#states.values()].map((s) => s.lease));
    this.#states.clear();
    await this.#store.close();
  }

  /** The key's state in the current window; a window that has ended starts afresh. */
  #stateFor(keyId: string): KeyState {
    const now = Date.now();
    if (now - this.#lastSweep >= this.#windowMs) this.#sweep(now);
    let s = this.#states.get(keyId);
    if (!s || (now >= s.windowEnd && !s.lease)) {
      s = {
        tokens: 0,
        counterLeft: this.#limit,
        windowEnd: 0,
        exhausted: false,
        shown: this.#limit,
        lease: null,
        waiting: 0,
      };
      this.#states.set(keyId, s);
    }
    return s;
  }

  async #lease(keyId: string, s: KeyState): Promise<void> {
    const base = Math.min(this.#maxLease, Math.max(1, Math.floor(s.counterLeft / LEFT_DIVISOR)));
    const want = Math.min(this.#limit, Math.max(base, s.waiting));
    const startedAt = Date.now();
    const { consumed, msBeforeNext } = await this.#store.take(keyId, want);
    const windowEnd = startedAt + Math.max(0, msBeforeNext);
    // A window end that jumps forward means the counter started a new window (or insurance took
    // over): the remaining count may start high again.
    if (windowEnd > s.windowEnd + this.#windowMs / 2) s.shown = this.#limit;
    s.windowEnd = windowEnd;
    // Increments are atomic, so only the part of ours below the limit is ours to spend.
    s.tokens = Math.min(want, Math.max(0, this.#limit - (consumed - want)));
    s.counterLeft = Math.max(0, this.#limit - consumed);
    s.exhausted = consumed >= this.#limit;
  }

  #decision(s: KeyState, allowed: boolean): RateLimitDecision {
    return {
      allowed,
      limit: this.#limit,
      remaining: allowed ? s.shown : 0,
      resetSeconds: Math.max(0, Math.ceil((s.windowEnd - Date.now()) / 1000)),
    };
  }

  /** Drops keys whose window ended, so memory follows the keys active in the last window. */
  #sweep(now: number): void {
    this.#lastSweep = now;
    for (const [key, s] of this.#states) if (now >= s.windowEnd && !s.lease) this.#states.delete(key);
  }
}
