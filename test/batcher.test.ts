import { describe, expect, it } from 'vitest';
import { Batcher, ItemFailure } from '../src/lib/batcher.ts';

/** A batcher whose runs finish only when the test says so; records each run's inputs. */
function controlled(options: ConstructorParameters<typeof Batcher<number, number>>[1]) {
  const runs: { inputs: number[]; finish: () => void }[] = [];
  const batcher = new Batcher<number, number>(
    (inputs) =>
      new Promise((resolve) => {
        runs.push({
          inputs,
          finish: () => resolve(inputs.map((n) => (n < 0 ? new ItemFailure(n) : n * 10))),
        });
      }),
    options,
  );
  return { batcher, runs };
}

const turn = () => new Promise((r) => setImmediate(r));

describe('Batcher', () => {
  it('coalesces calls of one turn into one run and answers each caller with its own result', async () => {
    const { batcher, runs } = controlled({ maxBatch: 10, concurrency: 1 });
    const answers = [1, 2, -3].map((n) => batcher.submit(n).catch((e) => `failed ${e}`));
    await turn();
    expect(runs.map((r) => r.inputs)).toEqual([[1, 2, -3]]);
    runs[0]!.finish();
    expect(await Promise.all(answers)).toEqual([10, 20, 'failed -3']);
  });

  it('starts a second run while one runs only once `overlapAt` calls wait', async () => {
    const { batcher, runs } = controlled({ maxBatch: 100, concurrency: 3, overlapAt: 4 });
    void batcher.submit(1);
    await turn();
    expect(runs).toHaveLength(1); // idle: the first call starts at once
    for (const n of [2, 3, 4]) void batcher.submit(n);
    await turn();
    expect(runs).toHaveLength(1); // three waiting, fewer than overlapAt
    void batcher.submit(5);
    await turn();
    expect(runs.map((r) => r.inputs)).toEqual([[1], [2, 3, 4, 5]]);
    void batcher.submit(6);
    await turn();
    expect(runs).toHaveLength(2);
    runs[0]!.finish(); // one run still runs, and one call waits: it keeps waiting
    await turn();
    expect(runs).toHaveLength(2);
    runs[1]!.finish(); // idle again: whatever waits goes, however few
    await turn();
    expect(runs.map((r) => r.inputs)).toEqual([[1], [2, 3, 4, 5], [6]]);
  });

  it('starts the next run before answering the finished run’s callers', async () => {
    const { batcher, runs } = controlled({ maxBatch: 10, concurrency: 1 });
    const first = batcher.submit(1);
    await turn();
    void batcher.submit(2);
    let runsWhenAnswered = 0;
    const answered = first.then(() => {
      runsWhenAnswered = runs.length;
    });
    runs[0]!.finish();
    await answered;
    expect(runsWhenAnswered).toBe(2);
  });

  it('resolves idle() once nothing is queued or running', async () => {
    const { batcher, runs } = controlled({ maxBatch: 10, concurrency: 2 });
    void batcher.submit(1);
    await turn();
    let idle = false;
    const waiting = batcher.idle().then(() => {
      idle = true;
    });
    await turn();
    expect(idle).toBe(false);
    runs[0]!.finish();
    await waiting;
    expect(idle).toBe(true);
  });
});
