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

export class Batcher<In, Out> {
  private queue: { input: In; resolve: (v: Out) => void; reject: (e: unknown) => void }[] = [];
  private running = 0;
  private scheduled = false;
  private idleWaiters: (() => void)[] = [];

  private readonly run: (inputs: In[]) => Promise<(Out | ItemFailure)[]>;
  private readonly options: { maxBatch: number; concurrency: number };

  constructor(
    run: (inputs: In[]) => Promise<(Out | ItemFailure)[]>,
    options: { maxBatch: number; concurrency: number },
  ) {
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

  private schedule(): void {
    if (this.scheduled || this.running >= this.options.concurrency) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    while (this.queue.length > 0 && this.running < this.options.concurrency) {
      const batch = this.queue.splice(0, this.options.maxBatch);
      this.running++;
      this.run(batch.map((b) => b.input))
        .then(
          (outs) =>
            batch.forEach((b, i) => {
              const out = outs[i];
              if (out instanceof ItemFailure) b.reject(out.error);
              else b.resolve(out as Out);
            }),
          (err) => {
            for (const b of batch) b.reject(err);
          },
        )
        .finally(() => {
          this.running--;
          if (this.queue.length > 0) this.schedule();
          else if (this.running === 0) for (const w of this.idleWaiters.splice(0)) w();
        });
    }
  }
}
