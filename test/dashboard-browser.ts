import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { createUser } from '../src/services/workspaces/create-user.ts';
import { launchBrowser } from './browser.ts';
import { startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

/** Screenshots of every dashboard page, for people to look at (git-ignored). */
export const SCREENSHOTS = path.resolve('artifacts/screenshots');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface Dashboard {
  app: TestApp;
  ws: TestWorkspace;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  login: { workspace: string; email: string; password: string };
  /** Problems the page reported: uncaught errors, failed requests, console errors. */
  problems: string[];
  /** Opens a dashboard path (e.g. `/participants`) and waits for the app to settle. */
  goto(route: string): Promise<void>;
  /** Signs in through the form. */
  signIn(): Promise<void>;
  /** Flips the live/test switch in the header. */
  setMode(mode: 'live' | 'test'): Promise<void>;
  /** Saves artifacts/screenshots/<name>.png at 1400×900. */
  shot(name: string): Promise<void>;
  /** axe-core on the current page: fails on serious or critical violations. */
  checkA11y(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real service (its own database), a workspace with a dashboard user, and Chromium at
 * 1400×900 on the dashboard. `signedIn` (default) signs in through the form first; `env` is
 * passed to the service (e.g. a short WEBHOOK_RETRY_SCHEDULE).
 */
export async function openDashboard(
  opts: { signedIn?: boolean; env?: Record<string, string> } = {},
): Promise<Dashboard> {
  const app = await startTestApp({ env: opts.env });
  const ws = await app.workspace();
  const login = {
    workspace: ws.slug,
    email: `owner-${ws.slug}@example.com`,
    password: 'correct horse battery staple',
  };
  await createUser(app.ctx, login);
  const browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e}`));
  page.on('console', (m) => {
    // A refused call is shown to the user; the browser also logs the HTTP status, which is expected.
    if (
      m.type() === 'error' &&
      !/Failed to load resource: the server responded with a status of 4\d\d/.test(m.text())
    )
      problems.push(`console: ${m.text()}`);
  });
  const d: Dashboard = {
    app,
    ws,
    browser,
    context,
    page,
    login,
    problems,
    async goto(route) {
      await page.goto(`${app.url}/dashboard${route === '/' ? '' : route}`);
      await page.waitForLoadState('networkidle');
    },
    async signIn() {
      await d.goto('/');
      await page.getByLabel('Workspace').fill(login.workspace);
      await page.getByLabel('E-mail').fill(login.email);
      await page.getByLabel(/^Password/).fill(login.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByTestId('workspace-name').waitFor();
    },
    async setMode(mode) {
      await page
        .locator('.mantine-SegmentedControl-label', { hasText: mode === 'live' ? 'Live' : 'Test' })
        .click();
      await page.getByTestId('test-mode-bar').waitFor({ state: mode === 'test' ? 'visible' : 'detached' });
    },
    async shot(name) {
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
    },
    async checkA11y() {
      // Not mid-transition: a dialog fading in or out has blended colours and, closing, no name yet.
      await page.waitForFunction(
        () =>
          document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== 'running'),
        undefined,
        { timeout: 5000 },
      );
      await page.evaluate(AXE);
      const violations = await page.evaluate(async () => {
        const result = await (window as any).axe.run(document, { resultTypes: ['violations'] });
        return (
          result.violations as { id: string; impact: string; help: string; nodes: { target: string[] }[] }[]
        )
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map(
            (v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
          );
      });
      expect(violations).toEqual([]);
    },
    async close() {
      await browser.close();
      await app.close();
    },
  };
  if (opts.signedIn !== false) await d.signIn();
  return d;
}
