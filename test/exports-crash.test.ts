import type { ChildProcess } from 'node:child_process';
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUN_EXPORT_QUEUE } from '../src/jobs/queues.ts';
import { requestExport } from '../src/services/exports/request-export.ts';
import { runExport } from '../src/services/exports/run-export.ts';
import { CHUNK_BYTES } from '../src/services/exports/storage.ts';
import { workerProcesses } from './factories.ts';
import { eventually, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

// Exports run by real worker processes (`svc serve --role worker`); the app serves the API only.
// One large ledger (ROWS entries) is exported while a worker is SIGKILLed mid-run, then finished
// by another worker, whose memory is watched while it streams the whole file.
const ROWS = 200_000;

let app: TestApp;
let ws: TestWorkspace;
const { start: startWorker, kill, killAll } = workerProcesses(() => app.databaseUrl);

const q = async <T = Record<string, any>>(sql: string, params: unknown[] = []) =>
  (await app.ctx.pool.query(sql, params)).rows as T[];

beforeAll(async () => {
  app = await startTestApp({ role: 'api' });
  ws = await app.workspace();
  // Straight into the tables: the ledger's own path would take minutes for this many entries.
  await q(
    `insert into participants (workspace_id, mode, external_id, balance, lifetime_points)
     select $1, 'test', 'p' || g, 0, 0 from generate_series(1, 1000) g`,
    [ws.id],
  );
  await q(
    `insert into ledger_entries (workspace_id, mode, participant_id, points, balance_after, reason, source)
     select $1, 'test', first.id + g % 1000, 1, g / 1000 + 1, 'bulk "row" ' || g, 'adjustment'
       from generate_series(0, $2 - 1) g,
            (select min(id) id from participants where workspace_id = $1) first`,
    [ws.id, ROWS],
  );
}, 120_000);
afterAll(async () => {
  killAll();
  await app?.close();
});

/** An export's status and run number, and how many chunks its file has in storage. */
const exportState = (id: string) =>
  q<{ status: string; attempt: number; chunks: number }>(
    `select status, attempt, (select count(*)::int from export_chunks where export_id = $1) chunks
       from exports where id = $1`,
    [id],
  ).then((r) => r[0]!);

/**
 * Waits until a run of the export is going and has written `chunks` chunks, and freezes `worker`
 * there (SIGSTOP): a run of these rows takes a second or two, and must not finish between this
 * check and the test's SIGKILL.
 */
const frozenMidRun = (id: string, chunks: number, worker: ChildProcess) =>
  eventually(async () => {
    const s = await exportState(id);
    if (s.status === 'completed') throw new Error('the run finished before it could be killed');
    if (s.status !== 'running' || s.chunks < chunks) return null;
    worker.kill('SIGSTOP');
    return s;
  }, 30_000);

/** The export as GET shows it once it is `status`; fails at once if it ends the other way. */
const settles = (id: string, status: 'completed' | 'failed') =>
  eventually(async () => {
    const res = await ws.api(`/v1/exports/${id}`);
    expect(res.body.status).not.toBe(status === 'completed' ? 'failed' : 'completed');
    return res.body.status === status ? res.body : null;
  }, 90_000);

describe('an export survives a worker SIGKILL mid-run', () => {
  it('is never completed half-written: a restarted run discards the partial file and writes it whole', async () => {
    const first = await startWorker();
    const created = await ws.api('/v1/exports', { body: { resource: 'ledger', format: 'csv' } });
    expect(created.status).toBe(202);
    const id = created.body.id as string;

    // Kill the worker once the run has written some chunks but not finished.
    const midRun = await frozenMidRun(id, 2, first);
    await kill(first);
    const afterKill = await exportState(id);
    expect(afterKill.status).toBe('running');
    expect(afterKill.attempt).toBe(1);
    expect(afterKill.chunks).toBeGreaterThanOrEqual(midRun.chunks);
    const partial = await ws.api(`/v1/exports/${id}`);
    expect(partial.body).toMatchObject({ status: 'running', download_url: null, row_count: null });
    expect((await ws.api(`/v1/exports/${id}/download`)).status).toBe(409);

    // Another worker picks the job up once the dead one's heartbeat is missed, and starts over.
    const second = await startWorker();
    const done = await settles(id, 'completed');
    expect(done.row_count).toBe(ROWS);
    const [s] = await q<{ attempt: number }>(`select attempt from exports where id = $1`, [id]);
    expect(s!.attempt).toBe(2);
    // Only the completed run's chunks are left, each at most CHUNK_BYTES, numbered without gaps.
    const chunks = await q<{ attempt: number; seq: number; size: number }>(
      `select attempt, seq, length(bytes) size from export_chunks where export_id = $1 order by seq`,
      [id],
    );
    expect(new Set(chunks.map((c) => c.attempt))).toEqual(new Set([2]));
    expect(chunks.map((c) => c.seq)).toEqual(chunks.map((_, i) => i));
    expect(chunks.every((c) => c.size <= CHUNK_BYTES)).toBe(true);
    expect(chunks.reduce((n, c) => n + c.size, 0)).toBe(done.size_bytes);
    expect(done.size_bytes).toBeGreaterThan(10 * CHUNK_BYTES);

    // The file is whole: every entry once, in id order, read as a stream.
    const res = await fetch(`${app.url}/v1/exports/${id}/download`, {
      headers: { authorization: `Bearer ${ws.keys.test}` },
    });
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('content-length'))).toBe(done.size_bytes);
    const decoder = new TextDecoder();
    let rest = '';
    let lines = 0;
    let bytes = 0;
    let previousId = 0;
    for await (const chunk of res.body!) {
      bytes += chunk.length;
      const text = rest + decoder.decode(chunk, { stream: true });
      const records = text.split('\r\n');
      rest = records.pop()!;
      for (const record of records) {
        lines++;
        if (lines === 1) {
          expect(record).toBe(
            'id,points,balance_after,reason,source,reference,reverses_entry_id,idempotency_key,expires_at,capped_points,created_at,participant.external_id',
          );
          continue;
        }
        const [entryId, points, , reason] = record.split(',');
        expect(Number(entryId)).toBeGreaterThan(previousId);
        previousId = Number(entryId);
        expect(points).toBe('1');
        expect(reason).toMatch(/^"bulk ""row"" \d+"$/);
      }
    }
    expect(rest).toBe('');
    expect(lines).toBe(ROWS + 1);
    expect(bytes).toBe(done.size_bytes);
    await kill(second);
  }, 180_000);

  it('is marked failed, its partial file gone, when every attempt dies: never left running', async () => {
    const created = await ws.api('/v1/exports', { body: { resource: 'ledger', format: 'csv' } });
    expect(created.status).toBe(202);
    const id = created.body.id as string;
    // Its job is on its last attempt, as if every earlier run had been killed too.
    const [job] = await q<{ id: string }>(
      `update pgboss.job set retry_count = retry_limit where name = $1 and data->>'exportId' = $2 returning id`,
      [RUN_EXPORT_QUEUE, id],
    );
    expect(job).toBeDefined();
    const first = await startWorker();
    await frozenMidRun(id, 1, first);
    await kill(first);

    // pg-boss fails the job once the dead run's heartbeat is missed; with no retry left it goes
    // to the dead letter queue, whose job (run by this worker) fails the export.
    const second = await startWorker();
    const failed = await settles(id, 'failed');
    expect(failed).toMatchObject({
      error: 'The export could not be written; request it again',
      download_url: null,
      row_count: null,
    });
    expect(failed.completed_at).not.toBeNull();
    // The status is committed first, then the file is deleted (storage may be another system).
    await eventually(async () => ((await exportState(id)).chunks === 0 ? true : null), 10_000);
    const download = await ws.api(`/v1/exports/${id}/download`);
    expect(download.status).toBe(409);
    expect(download.body.error.message).toContain('failed');
    await kill(second);
  }, 180_000);

  it('streams: live memory during a run stays a few chunks, whatever the size of the file', async () => {
    // In this process (its API role runs no jobs), with collections forced so that only what the
    // run holds is counted, not garbage waiting for the collector.
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const live = () => {
      gc();
      const m = process.memoryUsage();
      return m.heapUsed + m.arrayBuffers;
    };
    const who = { workspaceId: ws.id, mode: 'test' as const };
    const requested = await requestExport(app.ctx, who, { resource: 'ledger', format: 'jsonl' });
    const baseline = live();
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, live());
    }, 250);
    await runExport(app.ctx, requested.id, { finalAttempt: true }).finally(() => clearInterval(sampler));
    const [done] = await q<{ status: string; row_count: string; size_bytes: string }>(
      `select status, row_count, size_bytes from exports where id = $1`,
      [requested.id],
    );
    expect(done).toMatchObject({ status: 'completed', row_count: String(ROWS) });
    const size = Number(done!.size_bytes);
    const growth = peak - baseline;
    console.log(
      `jsonl export of ${ROWS} rows: ${(size / 2 ** 20).toFixed(1)} MiB; live memory +${(growth / 2 ** 20).toFixed(1)} MiB at most`,
    );
    expect(size).toBeGreaterThan(40 * CHUNK_BYTES);
    // A batch of rows, its encoded text and the writer's two chunks (plus pg's copy of the one it
    // sends): 3-15 MiB measured. Holding the file would take more than the file itself.
    expect(growth).toBeLessThan(24 * CHUNK_BYTES);
  }, 120_000);
});
