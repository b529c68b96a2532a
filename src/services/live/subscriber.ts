import { DomainError } from '../../errors.ts';

/**
 * A live subscription: an async iterator of its participant's changes, in commit order. A
 * subscription the hub ends (its client fell too far behind) yields one `LiveEnded` error as its
 * last value, so a GraphQL door can answer it as an error payload before completing.
 */
export interface LiveSubscription<T> extends AsyncIterableIterator<T | LiveEnded> {
  return(): Promise<IteratorResult<T | LiveEnded>>;
}

/** The last value of a subscription the hub ended; its message says why. */
export class LiveEnded extends DomainError {}

/**
 * One subscriber's bounded buffer: what the hub read for it and its client has not taken yet.
 * A subscriber that falls `limit` updates behind is ended with an error (it may resubscribe),
 * so a socket that never reads cannot grow memory, and it holds back no other subscriber.
 */
export class Subscriber<T> {
  /** Id of the last row sent (ledger entry or badge award); null until the starting point is read. */
  after: number | null = null;
  ended = false;
  private readonly queue: T[] = [];
  private wake: (() => void) | null = null;
  private error: LiveEnded | null = null;
  private readonly limit: number;
  /** Called once the subscriber leaves (its client returned, or it was ended and drained). */
  private readonly detached: () => void;

  constructor(limit: number, detached: () => void) {
    this.limit = limit;
    this.detached = detached;
  }

  /** Updates read but not yet taken. */
  get backlog(): number {
    return this.queue.length;
  }

  /** Hands the client row `id`; a client `limit` updates behind is ended instead. */
  push(id: number, item: T): void {
    if (this.ended) return;
    this.after = id;
    if (this.queue.length >= this.limit) {
      this.error = new LiveEnded(
        'rate_limit_error',
        `This subscription fell more than ${this.limit} updates behind (the client is not reading); subscribe again`,
      );
      this.queue.length = 0;
      this.end();
      return;
    }
    this.queue.push(item);
    this.wake?.();
  }

  /** Ends the subscription: its client gets what is buffered, then (when ended for falling behind) the error. */
  end(): void {
    this.ended = true;
    this.wake?.();
  }

  iterator(): LiveSubscription<T> {
    const detach = () => {
      this.ended = true;
      this.detached();
    };
    const it: LiveSubscription<T> = {
      [Symbol.asyncIterator]() {
        return it;
      },
      next: async (): Promise<IteratorResult<T | LiveEnded>> => {
        while (this.queue.length === 0 && !this.ended) {
          await new Promise<void>((resolve) => {
            this.wake = resolve;
          });
          this.wake = null;
        }
        if (this.queue.length) return { value: this.queue.shift() as T, done: false };
        detach();
        const ended = this.error;
        this.error = null;
        return ended ? { value: ended, done: false } : { value: undefined, done: true };
      },
      return: async (): Promise<IteratorResult<T | LiveEnded>> => {
        detach();
        this.wake?.();
        return { value: undefined, done: true };
      },
    };
    return it;
  }
}
