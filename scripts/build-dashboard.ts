/**
 * Keeps the dashboard's build (web/dashboard → web/dashboard/dist, served at /dashboard) fresh,
 * so `npm ci && npm start` shows it with no other step (docs/dashboard.md#building):
 *
 * - `ensureDashboardBuilt()` builds with Vite's JS API only when dist/index.html is missing or
 *   older than any input: web/dashboard/src, public/, index.html and vite.config.ts, the tRPC
 *   router the client's types come from (src/trpc) and package-lock.json (a dependency changed).
 *   `npm start` (src/start.ts) and the test run (test/global-setup.ts) call it first.
 * - `node scripts/build-dashboard.ts` does the same (npm's `prepare`, so `npm ci` builds);
 *   `--force` always builds (`npm run build:dashboard`).
 * - Every build writes `<file>.br` and `<file>.gz` beside each script, stylesheet and page
 *   (src/lib/compression.ts), so the server sends the smallest encoding a browser takes without
 *   compressing anything per request; a build made before that is stale.
 *
 * Without web/dashboard, or without Vite (a production install without dev dependencies), it
 * builds nothing and says so; the server then answers /dashboard with a 503 page saying how to
 * build. Processes starting together build once: a lock directory makes the others wait.
 */
import { mkdirSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { precompressDir, VARIANTS } from '../src/lib/compression.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface BuildOptions {
  /** The repository root (tests point it at a scratch copy). */
  root?: string;
  /** Build even when the output is fresh. */
  force?: boolean;
  log?: (line: string) => void;
}

export type BuildOutcome = 'built' | 'fresh' | 'skipped';

/** Newest modification time (ms) of a file or of every file under a directory; 0 when absent. */
function newest(target: string): number {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(target);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let max = stat.mtimeMs;
  for (const entry of readdirSync(target)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    max = Math.max(max, newest(path.join(target, entry)));
  }
  return max;
}

/** The newest modification time of everything the build depends on. */
export function inputsMtime(root: string): number {
  const web = path.join(root, 'web/dashboard');
  return Math.max(
    ...['src', 'public', 'index.html', 'vite.config.ts'].map((p) => newest(path.join(web, p))),
    newest(path.join(root, 'src/trpc')),
    newest(path.join(root, 'package-lock.json')),
  );
}

/** Why the build must run, or null when dist/index.html is newer than every input. */
export function staleReason(root: string): string | null {
  const index = path.join(root, 'web/dashboard/dist/index.html');
  const built = newest(index);
  if (!built) return 'no build yet';
  if (inputsMtime(root) > built) return 'sources changed since the last build';
  return newest(index + VARIANTS.br) ? null : 'the build has no precompressed files';
}

const LOCK_STALE_MS = 10 * 60_000;

/** Runs `fn` holding web/dashboard/.build-lock (mkdir is atomic); waits while another process holds it. */
async function withLock<T>(web: string, fn: () => Promise<T>): Promise<T> {
  const lock = path.join(web, '.build-lock');
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const age = Date.now() - newest(lock);
      if (age > LOCK_STALE_MS) rmSync(lock, { recursive: true, force: true });
      else await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export async function ensureDashboardBuilt(opts: BuildOptions = {}): Promise<BuildOutcome> {
  const root = opts.root ?? ROOT;
  const log = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const web = path.join(root, 'web/dashboard');
  const configFile = path.join(web, 'vite.config.ts');
  if (!newest(configFile)) {
    log('dashboard: web/dashboard/vite.config.ts not found, nothing to build');
    return 'skipped';
  }
  if (!opts.force && !staleReason(root)) return 'fresh';
  let vite: typeof import('vite');
  try {
    vite = await import('vite');
  } catch {
    log('dashboard: Vite is not installed (dev dependencies omitted?), so the dashboard is not built');
    return 'skipped';
  }
  return withLock(web, async () => {
    // Another process may have built it while this one waited for the lock.
    const reason = opts.force ? 'forced' : staleReason(root);
    if (!reason) return 'fresh';
    log(`dashboard: building web/dashboard (${reason}) …`);
    const started = Date.now();
    const inputs = inputsMtime(root);
    // Always React's production build: Vite builds for NODE_ENV when it is set, and the test run
    // builds from inside vitest (NODE_ENV=test), which gave a development build, 200 KB larger.
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await vite.build({ configFile, logLevel: 'warn', mode: 'production' });
    } finally {
      if (nodeEnv === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = nodeEnv;
    }
    const dist = path.join(web, 'dist');
    const packed = await precompressDir(dist);
    const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
    const sum = (pick: (p: (typeof packed)[number]) => number | null) =>
      packed.reduce((total, p) => total + (pick(p) ?? p.bytes), 0);
    log(
      `dashboard: ${packed.length} files precompressed: ${kb(sum((p) => p.bytes))} → ` +
        `${kb(sum((p) => p.br))} brotli, ${kb(sum((p) => p.gzip))} gzip`,
    );
    // An input dated in the future (clock skew, an archive's times) would make every later run
    // rebuild: the build is dated no earlier than the inputs it was made from.
    const index = path.join(web, 'dist/index.html');
    if (newest(index) && newest(index) < inputs) utimesSync(index, new Date(inputs), new Date(inputs));
    log(`dashboard: built in ${((Date.now() - started) / 1000).toFixed(1)} s → web/dashboard/dist`);
    return 'built';
  });
}

const invokedDirectly = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  try {
    await ensureDashboardBuilt({ force: process.argv.includes('--force') });
  } catch (err) {
    process.stderr.write(`dashboard: build failed: ${(err as Error).stack ?? err}\n`);
    process.exitCode = 1;
  }
}
