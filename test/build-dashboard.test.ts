import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDashboardBuilt, staleReason } from '../scripts/build-dashboard.ts';

/**
 * The dashboard build's freshness rule (scripts/build-dashboard.ts), on a scratch repository
 * with a tiny Vite project: real Vite builds, real file times.
 */
let root: string;
const lines: string[] = [];
const log = (line: string) => lines.push(line);
const file = (rel: string, content: string) => {
  const p = path.join(root, rel);
  mkdirSync(path.dirname(p), { recursive: true });
  writeFileSync(p, content);
  return p;
};
/** Moves a file's modification time `seconds` into the future (file systems keep whole-ish seconds). */
const touchLater = (p: string, seconds: number) => {
  const t = new Date(Date.now() + seconds * 1000);
  utimesSync(p, t, t);
};

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'svc-build-dashboard-'));
  file('package.json', '{"type":"module"}');
  file('package-lock.json', '{}');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('ensureDashboardBuilt', () => {
  it('skips, saying so, while there is no web/dashboard', async () => {
    expect(await ensureDashboardBuilt({ root, log })).toBe('skipped');
    expect(lines.at(-1)).toMatch(/web\/dashboard\/vite\.config\.ts not found/);
  });

  it('builds when there is no build, then only when an input is newer than the build', async () => {
    file(
      'web/dashboard/vite.config.ts',
      `import path from 'node:path';
const here = path.dirname(new URL(import.meta.url).pathname);
export default { root: here, base: '/dashboard/', logLevel: 'silent', build: { outDir: path.join(here, 'dist'), emptyOutDir: true } };
`,
    );
    file(
      'web/dashboard/index.html',
      '<!doctype html><html><body><div id="root"></div><script type="module" src="./src/main.ts"></script></body></html>',
    );
    const main = file('web/dashboard/src/main.ts', 'document.getElementById("root")!.textContent = "v1";\n');
    const router = file('src/trpc/router.ts', 'export const x = 1;\n');

    expect(staleReason(root)).toBe('no build yet');
    expect(await ensureDashboardBuilt({ root, log })).toBe('built');
    const index = path.join(root, 'web/dashboard/dist/index.html');
    const html = readFileSync(index, 'utf8');
    expect(html).toMatch(
      /<script type="module" crossorigin src="\/dashboard\/assets\/index-[\w-]+\.js"><\/script>/,
    );
    expect(existsSync(path.join(root, 'web/dashboard/.build-lock'))).toBe(false);
    // Every script and page has its brotli and gzip variants beside it, decoding to the file.
    const script = path.join(root, 'web/dashboard/dist', /src="\/dashboard\/([^"]+)"/.exec(html)![1]!);
    for (const file of [index, script]) {
      const body = readFileSync(file);
      expect(zlib.brotliDecompressSync(readFileSync(`${file}.br`))).toEqual(body);
      expect(zlib.gunzipSync(readFileSync(`${file}.gz`))).toEqual(body);
    }
    expect(lines.some((l) => /files precompressed: .* brotli, .* gzip/.test(l))).toBe(true);

    expect(staleReason(root)).toBeNull();
    expect(await ensureDashboardBuilt({ root, log })).toBe('fresh');

    // A build from before precompression (no .br beside index.html) is made again.
    rmSync(`${index}.br`);
    expect(staleReason(root)).toBe('the build has no precompressed files');
    expect(await ensureDashboardBuilt({ root, log })).toBe('built');
    expect(existsSync(`${index}.br`)).toBe(true);

    // A page changed: rebuilt, with the change in the output.
    writeFileSync(main, 'document.getElementById("root")!.textContent = "v2";\n');
    touchLater(main, 5);
    expect(staleReason(root)).toBe('sources changed since the last build');
    expect(await ensureDashboardBuilt({ root, log })).toBe('built');
    const js = readFileSync(
      path.join(
        root,
        'web/dashboard/dist',
        /src="\/dashboard\/([^"]+)"/.exec(readFileSync(index, 'utf8'))![1]!,
      ),
      'utf8',
    );
    expect(js).toContain('v2');
    expect(staleReason(root)).toBeNull();

    // The server's router (the client's types) and the lockfile count too.
    touchLater(router, 60);
    expect(staleReason(root)).toBe('sources changed since the last build');
    touchLater(index, 120);
    expect(staleReason(root)).toBeNull();
    touchLater(path.join(root, 'package-lock.json'), 180);
    expect(staleReason(root)).toBe('sources changed since the last build');
  });

  it('builds a fresh build again with force', async () => {
    touchLater(path.join(root, 'web/dashboard/dist/index.html'), 600);
    expect(staleReason(root)).toBeNull();
    expect(await ensureDashboardBuilt({ root, log, force: true })).toBe('built');
    expect(lines.at(-3)).toMatch(/building web\/dashboard \(forced\)/);
  });
});
