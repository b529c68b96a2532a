/**
 * Suite `exports`: a CSV export of BENCH_EXPORT_ROWS (1,000,000) ledger entries, and its download.
 *
 * Load: BENCH_EXPORT_ROWS entries over 10,000 participants of the bench workspace's test mode, in
 * bulk SQL. Then:
 *   - the export through the running service: `POST /v1/exports` → polled until completed; the
 *     time from the request to `completed` and the service process's RSS growth meanwhile
 *     (targets: < 15 s and < 100 MB at 1M rows);
 *   - baseline in the same run: `COPY (SELECT … the same columns …) TO STDOUT WITH CSV` by psql into
 *     /dev/null (skipped when psql is not installed); the ratio baseline time / export time
 *     (target ≥ 0.3);
 *   - the download of the file with the key over loopback, counted and dropped as it streams
 *     (target ≥ 50 MB/s).
 * Correctness: the export's row_count is the number of entries, and the download has its
 * size_bytes and one line per entry plus the header.
 */
import { spawn } from 'node:child_process';
import pg from 'pg';
import { RssSampler } from './processes.ts';
import type { Suite, SuiteContext } from './suites.ts';

const N = Number(process.env.BENCH_EXPORT_ROWS ?? 1_000_000);
const TARGET = { seconds: 15, rssGrowthMb: 100, copyRatio: 0.3, downloadMbPerSec: 50 };

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/** The export's columns, as COPY would write them (same order as the CSV's header). */
const COPY_SQL = (workspaceId: string) =>
  `COPY (SELECT e.id, e.points, e.balance_after, e.reason, e.source, e.reference, e.reverses_entry_id,
    e.idempotency_key, e.created_at, p.external_id
    FROM ledger_entries e JOIN participants p ON p.id = e.participant_id
   WHERE e.workspace_id = '${workspaceId}' AND e.mode = 'test' ORDER BY e.id) TO STDOUT WITH CSV HEADER`;

/** Seconds psql takes to COPY the same rows to stdout into /dev/null; null without psql. */
function copyBaseline(url: string, workspaceId: string): Promise<number | null> {
  return new Promise((resolve) => {
    const start = performance.now();
    const psql = spawn('psql', [url, '-v', 'ON_ERROR_STOP=1', '-c', COPY_SQL(workspaceId)], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    psql.once('error', () => resolve(null));
    psql.once('exit', (code) => resolve(code === 0 ? (performance.now() - start) / 1000 : null));
  });
}

async function api(ctx: SuiteContext, path: string, body?: unknown) {
  const res = await fetch(`${ctx.service.url}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { authorization: `Bearer ${ctx.apiKey}`, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

export const exportsSuite: Suite = {
  name: 'exports',
  async run(ctx) {
    const pool = new pg.Pool({ connectionString: ctx.db.url, max: 2 });
    try {
      const { rows } = await pool.query<{ id: string }>('select id from workspaces where slug = $1', [
        ctx.workspaceSlug,
      ]);
      const workspaceId = rows[0]!.id;
      const loadStart = performance.now();
      const prefix = `exp-${ctx.runId}-`;
      await pool.query(
        `insert into participants (workspace_id, mode, external_id) select $1, 'test', $2 || g from generate_series(1, 10000) g`,
        [workspaceId, prefix],
      );
      await pool.query(
        `insert into ledger_entries (workspace_id, mode, participant_id, points, balance_after, reason, source, reference)
         select $1, 'test', p.id, 1 + g % 50, g / 10000 + 1, 'order #' || g, 'flow', 'run-' || g
           from generate_series(0, $2::int - 1) g
           join participants p on p.workspace_id = $1 and p.mode = 'test' and p.external_id = $3 || (1 + g % 10000)`,
        [workspaceId, N, prefix],
      );
      await pool.query('analyze ledger_entries, participants');
      const [{ total }] = (
        await pool.query<{ total: string }>(
          `select count(*) total from ledger_entries where workspace_id = $1 and mode = 'test'`,
          [workspaceId],
        )
      ).rows as [{ total: string }];
      ctx.note(
        `exports: ${total} ledger entries loaded in ${round((performance.now() - loadStart) / 1000)} s`,
      );

      const baselineS = await copyBaseline(ctx.db.url, workspaceId);
      if (baselineS === null) ctx.note('exports: psql not found or failed: no COPY baseline');

      const rss = new RssSampler(ctx.service.pid);
      rss.start();
      const rssBefore = rss.stop();
      rss.start(100);
      const start = performance.now();
      const created = await api(ctx, '/v1/exports', { resource: 'ledger', format: 'csv' });
      if (created.status !== 202) throw new Error(`POST /v1/exports: ${created.status}`);
      let done: Record<string, any> | null = null;
      while (!done) {
        await new Promise((r) => setTimeout(r, 100));
        const res = await api(ctx, `/v1/exports/${created.body.id}`);
        if (res.body.status === 'failed') throw new Error(`export failed: ${res.body.error}`);
        if (res.body.status === 'completed') done = res.body;
        if (performance.now() - start > 300_000) throw new Error('export not completed within 300 s');
      }
      const exportS = (performance.now() - start) / 1000;
      const rssPeak = rss.stop();
      const growth = rssBefore !== null && rssPeak !== null ? round(rssPeak - rssBefore) : null;

      const dlStart = performance.now();
      const res = await fetch(done.download_url);
      let bytes = 0;
      let lines = 0;
      for await (const chunk of res.body!) {
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      }
      const dlS = (performance.now() - dlStart) / 1000;
      const mbPerSec = round(bytes / 1e6 / dlS);

      const ratio = baselineS === null ? null : round(baselineS / exportS, 2);
      const correct =
        done.row_count === Number(total) && bytes === done.size_bytes && lines === Number(total) + 1;
      ctx.print({
        suite: 'exports',
        scenario: 'ledger-csv',
        rows: Number(total),
        size_mb: round(done.size_bytes / 1e6),
        export_s: round(exportS, 2),
        copy_baseline_s: baselineS === null ? null : round(baselineS, 2),
        ratio_vs_copy: ratio,
        rss_before_mb: rssBefore,
        rss_growth_mb: growth,
        download_s: round(dlS, 2),
        download_mb_per_s: mbPerSec,
        targets: TARGET,
        meets_target:
          exportS < TARGET.seconds &&
          (growth === null || growth < TARGET.rssGrowthMb) &&
          (ratio === null || ratio >= TARGET.copyRatio) &&
          mbPerSec >= TARGET.downloadMbPerSec,
        correct,
      });
      return correct;
    } finally {
      await pool.end();
    }
  },
};
