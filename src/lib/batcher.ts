/**
 * Coalesces calls made close together into one batch: the first call of a batch schedules a
 * flush on the next turn of the event loop, and up to `concurrency` flushes run at once while
 * further calls queue for the next one. Under light load a batch is one call (no added
 * latency); under heavy load batches grow, which is what lets one SQL statement serve many
 * requests.
 */
/** A per-item failure inside an otherwise successful batch: only that caller's promise rejects. */
export class ItemFailure {
  readonly error: unknown;
  constructor(error: unknown) {
    this.error = error;
  }
}

export interface BatcherOptions {
  maxBatch: number;
  /** Batches running at once. */
  concurrency: number;
  /**
   * While a batch runs, another starts only once this many calls wait (else they wait for a
   * running batch to finish): under load batches stay large enough to amortise their fixed cost,
   * and an idle batcher still starts the first call at once. Default 1.
   */
  overlapAt?: number;
}

interface Queued<In, Out> {
  input: In;
  resolve: (v: Out) => void;
  reject: (e: unknown) => void;
}

export class Batcher<In, Out> {
  private queue: Queued<In, Out>[] = [];
  private running = 0;
  private scheduled = false;
  private idleWaiters: (() => void)[] = [];

  private readonly run: (inputs: In[]) => Promise<(Out | ItemFailure)[]>;
  private readonly options: BatcherOptions;

  constructor(run: (inputs: In[]) => Promise<(Out | ItemFailure)[]>, options: BatcherOptions) {
    this.run = run;
    this.options = options;
  }

  submit(input: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.queue.push({ input, resolve, reject });
      this.schedule();
    });
  }

  /** Resolves when nothing is queued or running (used by graceful shutdown). */
  idle(): Promise<void> {
    if (this.queue.length === 0 && this.running === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Whether a batch may start now. */
  private mayStart(): boolean {
    if (this.queue.length === 0 || this.running >= this.options.concurrency) return false;
    return this.running === 0 || this.queue.length >= (this.options.overlapAt ?? 1);
  }

  private schedule(): void {
    if (this.scheduled || !this.mayStart()) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    while (this.mayStart()) {
      const batch = this.queue.splice(0, this.options.maxBatch);
      this.running++;
      this.run(batch.map((b) => b.input)).then(
        (outs) =>
          this.finish(batch, (b, i) => {
            const out = outs[i];
            if (out instanceof ItemFailure) b.reject(out.error);
            else b.resolve(out as Out);
          }),
        (err) => this.finish(batch, (b) => b.reject(err)),
      );
    }
  }

  /**
   * Frees the batch's slot and starts the next batch (the calls queued meanwhile) BEFORE
   * answering this one's callers: their work (an HTTP response each) then overlaps the next
   * batch's round trip instead of delaying it.
   */
  private finish(batch: Queued<In, Out>[], answer: (b: Queued<In, Out>, i: number) => void): void {
    this.running--;
    this.flush();
    batch.forEach(answer);
    if (this.queue.length === 0 && this.running === 0) for (const w of this.idleWaiters.splice(0)) w();
  }
}
