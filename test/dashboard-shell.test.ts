import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipBrowser } from './browser.ts';
import { type Dashboard, openDashboard } from './dashboard-browser.ts';
import { request } from './helpers.ts';

let d: Dashboard;
beforeAll(async () => {
  if (!skipBrowser) d = await openDashboard({ signedIn: false });
});
afterAll(() => d?.close());

describe.skipIf(skipBrowser)('the dashboard shell in a real browser (Chromium)', () => {
  it('refuses a wrong password, then signs in and shows the workspace', async () => {
    const { page } = d;
    await d.goto('/');
    await d.shot('sign-in');
    await d.checkA11y();
    await page.getByLabel('Workspace').fill(d.login.workspace);
    await page.getByLabel('E-mail').fill(d.login.email);
    await page.getByLabel(/^Password/).fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent(), { timeout: 10_000 })
      .toContain('Sign-in failed');
    await page.getByLabel(/^Password/).fill(d.login.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect
      .poll(() => page.getByTestId('workspace-name').textContent(), { timeout: 10_000 })
      .toBe(d.ws.slug);
  });

  it('marks test mode with an orange bar that live mode does not have', async () => {
    const { page } = d;
    await d.setMode('test');
    await d.setMode('live');
    // The switch is remembered across a reload.
    await page.reload();
    await page.getByTestId('workspace-name').waitFor();
    expect(await page.getByTestId('test-mode-bar').count()).toBe(0);
    await d.setMode('test');
  });

  it('opens a deep link directly and navigates between sections', async () => {
    const { page } = d;
    await d.goto('/settings');
    await page.getByRole('heading', { name: 'Settings', level: 2 }).waitFor();
    await page.getByRole('link', { name: 'Participants' }).click();
    await page.getByRole('heading', { name: 'Participants', level: 2 }).waitFor();
    expect(page.url()).toBe(`${d.app.url}/dashboard/participants`);
  });

  it('signs out, and the old cookie is refused afterwards', async () => {
    const { page, context } = d;
    const cookie = (await context.cookies()).find((c) => c.name === 'svc_session');
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Lax');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    const me = await request(d.app.url, '/trpc/auth.me', {
      key: null,
      unchecked: true,
      headers: { cookie: `svc_session=${cookie?.value}` },
    });
    expect(me.status).toBe(401);
    expect(d.problems).toEqual([]);
  });
});
