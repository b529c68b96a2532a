import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipBrowser } from './browser.ts';
import { type Dashboard, openDashboard } from './dashboard-browser.ts';

/**
 * What the dashboard costs a person on the wire: the JavaScript a cold browser (empty cache)
 * downloads to show the first route, counted by Chromium itself (CDP `Network.loadingFinished`'s
 * `encodedDataLength`: bytes as transferred, headers included, after Content-Encoding).
 *
 * The first route is the signed-in overview: the shell, React, Mantine, the tRPC client and the
 * page. Its chart library is a chunk of its own that the page asks for once its numbers are
 * there (docs/dashboard.md#performance); it is measured and printed, not counted in the budget.
 */
const BUDGET_KB = 160;

let d: Dashboard;
beforeAll(async () => {
  if (skipBrowser) return;
  d = await openDashboard();
  // Activity in test mode (the dashboard's default), so the overview draws its charts.
  await d.ws.api('/v1/participants/wire/points', { body: { points: 10, reason: 'wire' } });
});
afterAll(() => d?.close());

interface Transfer {
  url: string;
  bytes: number;
  encoding: string | null;
}

/** Opens `route` in a fresh context (empty cache) signed in as `d`, and lists the JS it fetched. */
/** Every URL the loads asked for that answered 404 (the icon was one before the service served it). */
const missing: string[] = [];

async function coldLoad(route: string, signedIn: boolean): Promise<Transfer[]> {
  const context: BrowserContext = await d.browser.newContext({
    viewport: { width: 1400, height: 900 },
    storageState: signedIn ? await d.context.storageState() : undefined,
  });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const scripts = new Map<string, { url: string; encoding: string | null }>();
    const transfers: Transfer[] = [];
    cdp.on('Network.responseReceived', (e) => {
      if (e.response.status === 404) missing.push(e.response.url);
      if (e.type === 'Script' || /javascript/.test(e.response.mimeType)) {
        const headers = Object.fromEntries(
          Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), v]),
        );
        scripts.set(e.requestId, { url: e.response.url, encoding: headers['content-encoding'] ?? null });
      }
    });
    cdp.on('Network.loadingFinished', (e) => {
      const script = scripts.get(e.requestId);
      if (script) transfers.push({ ...script, bytes: e.encodedDataLength });
    });
    await page.goto(`${d.app.url}/dashboard${route}`);
    await page.waitForLoadState('networkidle');
    if (signedIn) {
      await page.getByTestId('workspace-name').waitFor();
      // The chart chunk, which the overview asks for once its numbers are in, is fetched too.
      await page.locator('.recharts-wrapper').first().waitFor({ timeout: 15_000 });
    } else await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.waitForLoadState('networkidle');
    return transfers;
  } finally {
    await context.close();
  }
}

const CHARTS = /\/assets\/charts-[\w-]+\.js$/;
const kb = (transfers: Transfer[]) => transfers.reduce((sum, t) => sum + t.bytes, 0) / 1024;
const report = (name: string, transfers: Transfer[]) =>
  console.log(
    `${name}: ${kb(transfers).toFixed(1)} KB of JavaScript in ${transfers.length} responses\n${transfers
      .map((t) => `  ${(t.bytes / 1024).toFixed(1).padStart(7)} KB ${t.encoding ?? 'identity'} ${t.url}`)
      .join('\n')}`,
  );

describe.skipIf(skipBrowser)('the dashboard on the wire (Chromium, empty cache)', () => {
  it(`loads the signed-in first route (the overview) in ≤ ${BUDGET_KB} KB of JavaScript, brotli-encoded`, async () => {
    const transfers = await coldLoad('/', true);
    report('overview', transfers);
    const charts = transfers.filter((t) => CHARTS.test(t.url));
    const route = transfers.filter((t) => !CHARTS.test(t.url));
    console.log(`first route ${kb(route).toFixed(1)} KB + chart chunk ${kb(charts).toFixed(1)} KB`);
    expect(charts).toHaveLength(1);
    expect(route.length).toBeGreaterThan(0);
    expect(transfers.map((t) => t.encoding)).toEqual(transfers.map(() => 'br'));
    expect(kb(route)).toBeLessThanOrEqual(BUDGET_KB);
  });

  it(`loads the sign-in page in ≤ ${BUDGET_KB} KB of JavaScript`, async () => {
    const transfers = await coldLoad('/', false);
    report('sign-in', transfers);
    expect(kb(transfers)).toBeLessThanOrEqual(BUDGET_KB);
  });

  it('asks for nothing that is not there (its icon included)', () => {
    expect(missing).toEqual([]);
  });
});
