import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, skipBrowser } from './browser.ts';
import { startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

let app: TestApp;
let ws: TestWorkspace;
let browser: Browser;

beforeAll(async () => {
  if (skipBrowser) return;
  app = await startTestApp();
  ws = await app.workspace();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe.skipIf(skipBrowser)('the live widget in a real browser (Chromium)', () => {
  it('shows the balance and follows a REST adjustment within 1 s', async () => {
    await ws.api('/v1/participants/alice/points', { body: { points: 40, reason: 'seed' } });
    const token = (await ws.api('/v1/participants/alice/tokens', { body: {} })).body.token;
    const page = await browser.newPage({ viewport: { width: 900, height: 500 } });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(String(e)));
    page.on('requestfailed', (r) => problems.push(`${r.url()} ${r.failure()?.errorText}`));
    // What the widget's socket did, for the failure message: graphql-ws message types and closes.
    const socketLog: string[] = [];
    const t0 = Date.now();
    page.on('websocket', (socket) => {
      const at = () => `${Date.now() - t0} ms`;
      socketLog.push(`${at()} open`);
      const type = (p: string | Buffer) => String(p).match(/"type":"(\w+)"/)?.[1] ?? '?';
      socket.on('framesent', (f) => socketLog.push(`${at()} sent ${type(f.payload)}`));
      socket.on('framereceived', (f) => socketLog.push(`${at()} received ${type(f.payload)}`));
      socket.on('socketerror', (e) => socketLog.push(`${at()} error ${e}`));
      socket.on('close', () => socketLog.push(`${at()} closed`));
    });
    await page.goto(`${app.url}/widget-demo?token=${encodeURIComponent(token)}`);
    const balance = page.locator('svc-points').locator('[part=balance]');
    await expect.poll(() => balance.textContent(), { timeout: 5_000 }).toBe('40');
    // Live once the socket is up (the status dot turns green).
    // (Connecting may take a while on a loaded CI machine; the 1 s is for the update once live.)
    const status = page.locator('svc-points').locator('[part=status]');
    await status
      .and(page.locator('[data-live]'))
      .waitFor({ timeout: 15_000 })
      .catch(async (err: Error) => {
        const title = await status.getAttribute('title').catch(() => '?');
        throw new Error(`${err.message}\nwidget status: ${title}\nsocket: ${socketLog.join('; ')}`);
      });
    const started = Date.now();
    await ws.api('/v1/participants/alice/points', { body: { points: 2, reason: 'live' } });
    await expect.poll(() => balance.textContent(), { timeout: 1_000, interval: 20 }).toBe('42');
    expect(Date.now() - started).toBeLessThan(1_000);
    await page.screenshot({ path: '.svc/screenshots/widget-demo.png' }).catch(() => {});
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows the tier and the points the next level needs, and follows a credit and a manual level live', async () => {
    const w = await app.workspace();
    const put = await w.api('/v1/tiers', {
      method: 'PUT',
      body: {
        qualification: { window: 'lifetime' },
        downgrade: { policy: 'none' },
        levels: [
          { key: 'bronze', name: 'Bronze', threshold: 0 },
          { key: 'silver', name: 'Silver', threshold: 100 },
          { key: 'gold', name: 'Gold', threshold: 1000 },
        ],
      },
    });
    expect(put.status, put.text).toBe(200);
    await w.api('/v1/participants/tess/points', { body: { points: 40, reason: 'seed' } });
    const token = (await w.api('/v1/participants/tess/tokens', { body: {} })).body.token;
    const page = await browser.newPage({ viewport: { width: 900, height: 500 } });
    const problems: string[] = [];
    const offsite: string[] = [];
    page.on('pageerror', (e) => problems.push(String(e)));
    page.on('requestfailed', (r) => problems.push(`${r.url()} ${r.failure()?.errorText}`));
    page.on('request', (r) => !r.url().startsWith(app.url) && offsite.push(r.url()));
    await page.goto(`${app.url}/widget-demo?token=${encodeURIComponent(token)}`);
    const widget = page.locator('svc-points');
    const tier = widget.locator('[part=tier]');
    const next = widget.locator('[part=next]');
    await expect.poll(() => tier.textContent(), { timeout: 5_000 }).toBe('Bronze');
    expect(await next.textContent()).toBe('60 points to Silver');
    await widget.locator('[part=status]').and(page.locator('[data-live]')).waitFor({ timeout: 15_000 });

    // A credit that crosses silver: the level and what gold needs follow, and the balance.
    await w.api('/v1/participants/tess/points', { body: { points: 110, reason: 'live' } });
    await expect.poll(() => tier.textContent(), { timeout: 2_000, interval: 20 }).toBe('Silver');
    await expect.poll(() => next.textContent(), { timeout: 2_000, interval: 20 }).toBe('850 points to Gold');
    expect(await widget.locator('[part=balance]').textContent()).toBe('150');
    // A credit that stays below the next level moves only what it needs.
    await w.api('/v1/participants/tess/points', { body: { points: 50, reason: 'live' } });
    await expect.poll(() => next.textContent(), { timeout: 2_000, interval: 20 }).toBe('800 points to Gold');
    // An operator's level (no ledger entry at all): tierChanged alone brings it.
    const set = await w.api('/v1/participants/tess/tier', {
      method: 'PUT',
      body: { key: 'gold', reason: 'VIP' },
    });
    expect(set.status, set.text).toBe(200);
    await expect.poll(() => tier.textContent(), { timeout: 2_000, interval: 20 }).toBe('Gold');
    await expect.poll(() => next.textContent(), { timeout: 2_000, interval: 20 }).toBe('');
    await page.screenshot({ path: '.svc/screenshots/widget-tier.png' }).catch(() => {});
    expect(offsite).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows the streaks, at risk until an event extends them, and follows the extension live', async () => {
    const w = await app.workspace();
    for (const body of [
      { key: 'workout', name: 'Workout', event_types: ['workout'], frequency: 'daily' },
      {
        key: 'reading',
        name: 'Reading',
        event_types: ['read'],
        frequency: 'weekly',
        freezes: { initial: 1, max: 1 },
      },
    ]) {
      const r = await w.api('/v1/streaks', { body });
      expect(r.status, r.text).toBe(201);
    }
    const send = async (type: string, occurredAt: Date) => {
      const r = await w.api('/v1/events', {
        body: {
          event_type: type,
          participant: { external_id: 'sam' },
          occurred_at: occurredAt.toISOString(),
        },
      });
      expect(r.status, r.text).toBe(202);
      const id = r.body.event_id as string;
      await expect
        .poll(async () => (await w.api(`/v1/events/${id}`)).body.status, { timeout: 15_000 })
        .toBe('processed');
    };
    // Yesterday's workout (UTC days: the programme's time zone): a length of 1, not yet extended
    // today and no freeze left, so at risk. Reading this week already: extended.
    await send('workout', new Date(Date.now() - 86_400_000));
    await send('read', new Date());
    const token = (await w.api('/v1/participants/sam/tokens', { body: {} })).body.token;
    const page = await browser.newPage({ viewport: { width: 900, height: 500 } });
    const problems: string[] = [];
    const offsite: string[] = [];
    page.on('pageerror', (e) => problems.push(String(e)));
    page.on('requestfailed', (r) => problems.push(`${r.url()} ${r.failure()?.errorText}`));
    page.on('request', (r) => !r.url().startsWith(app.url) && offsite.push(r.url()));
    await page.goto(`${app.url}/widget-demo?token=${encodeURIComponent(token)}`);
    const widget = page.locator('svc-points');
    const workout = widget.locator('[part=streak][data-key=workout]');
    const reading = widget.locator('[part=streak][data-key=reading]');
    await expect.poll(() => workout.textContent(), { timeout: 5_000 }).toBe('Workout: 1 · at risk');
    expect(await workout.getAttribute('data-state')).toBe('at-risk');
    expect(await workout.getAttribute('title')).toBe('Not extended today and no freeze left');
    expect(await reading.textContent()).toBe('Reading: 1 ✓');
    expect(await reading.getAttribute('title')).toBe('Extended this week; 1 freeze left');
    await widget.locator('[part=status]').and(page.locator('[data-live]')).waitFor({ timeout: 15_000 });

    // Today's workout: streakChanged brings the new length, and the read after it that it is extended.
    await send('workout', new Date());
    await expect.poll(() => workout.textContent(), { timeout: 2_000, interval: 20 }).toBe('Workout: 2 ✓');
    expect(await workout.getAttribute('data-state')).toBe('extended');
    expect(await workout.getAttribute('data-length')).toBe('2');
    expect(await reading.textContent()).toBe('Reading: 1 ✓');
    await page.screenshot({ path: '.svc/screenshots/widget-streaks.png' }).catch(() => {});
    expect(offsite).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows the participant’s referral code, and its copy button copies it', async () => {
    const w = await app.workspace();
    await w.api('/v1/participants/rita/points', { body: { points: 5, reason: 'seed' } });
    const code = await w.api('/v1/participants/rita/referral-code');
    expect(code.status, code.text).toBe(200);
    const token = (await w.api('/v1/participants/rita/tokens', { body: {} })).body.token;
    // The page's origin (loopback) is a secure context; the permissions let the test read back what was copied.
    const context = await browser.newContext({
      viewport: { width: 900, height: 500 },
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    const page = await context.newPage();
    const problems: string[] = [];
    const offsite: string[] = [];
    page.on('pageerror', (e) => problems.push(String(e)));
    page.on('requestfailed', (r) => problems.push(`${r.url()} ${r.failure()?.errorText}`));
    page.on('request', (r) => !r.url().startsWith(app.url) && offsite.push(r.url()));
    await page.goto(`${app.url}/widget-demo?token=${encodeURIComponent(token)}`);
    const widget = page.locator('svc-points');
    await expect
      .poll(() => widget.locator('[part=referral-code]').textContent(), { timeout: 5_000 })
      .toBe(code.body.code);
    expect(await widget.locator('[part=referral]').isVisible()).toBe(true);
    const copy = widget.getByRole('button', { name: 'Copy referral code' });
    expect(await copy.textContent()).toBe('Copy');
    await copy.click();
    await expect.poll(() => copy.textContent(), { timeout: 2_000, interval: 20 }).toBe('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code.body.code);
    // Back to its label once it has said so.
    await expect.poll(() => copy.textContent(), { timeout: 4_000 }).toBe('Copy');
    await page.screenshot({ path: '.svc/screenshots/widget-referral.png' }).catch(() => {});
    expect(offsite).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('serves /widget.js on its own and tells a page without a token how to get one', async () => {
    const page = await browser.newPage();
    await page.goto(`${app.url}/widget-demo`);
    expect(await page.textContent('body')).toContain('POST /v1/participants/{external_id}/tokens');
    expect(await page.evaluate(() => typeof customElements.get('svc-points'))).toBe('function');
    await page.close();
  });

  it('opens GraphiQL offline, with the Authorization header ready to fill in', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const offsite: string[] = [];
    const problems: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(app.url) && !/^(data|blob):/.test(r.url())) offsite.push(r.url());
    });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e}`));
    page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
    page.on('response', (r) => r.status() >= 400 && problems.push(`${r.status()} ${r.url()}`));
    const started = Date.now();
    await page.goto(`${app.url}/graphql`);
    await page.locator('.graphiql-container').first().waitFor({ timeout: 10_000 });
    console.log(`GraphiQL ready ${Date.now() - started} ms after navigation`);
    expect(await page.innerText('body')).not.toContain('Loading');
    // The schema loaded (introspection needs no credential): the editor knows the Query type.
    await page.waitForTimeout(500); // the introspection request, whose failure would show in the result pane
    expect(await page.innerText('body')).not.toMatch(/Failed to|SUBREQUEST_HTTP_ERROR/);
    expect(await page.innerText('body')).toContain('YOUR_API_KEY_OR_PARTICIPANT_TOKEN');
    // The first tab is one of ours: a participant with its summary and badges.
    await expect.poll(() => page.innerText('.graphiql-query-editor')).toContain('participant(externalId');
    expect(await page.innerText('.graphiql-query-editor')).toMatch(/summary[\s\S]*badges/);
    await page.screenshot({ path: '.svc/screenshots/graphiql.png' }).catch(() => {});
    expect(offsite).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('names whose balance the demo shows and in which mode, and why a bad token shows no one', async () => {
    const token = (await ws.api('/v1/participants/alice/tokens', { body: {} })).body.token;
    const page = await browser.newPage();
    await page.goto(`${app.url}/widget-demo?token=${encodeURIComponent(token)}`);
    const subject = await page.getByTestId('widget-subject').innerText();
    expect(subject).toContain('participant alice');
    expect(subject).toContain(`workspace ${ws.slug}`);
    expect(subject).toContain('test mode');
    await ws.api('/v1/participants/alice/points', { body: { points: 1, reason: 'live' }, mode: 'live' });
    const minted = await ws.api('/v1/participants/alice/tokens', { body: {}, mode: 'live' });
    expect(minted.status, minted.text).toBe(201);
    const live = minted.body.token;
    await page.goto(`${app.url}/widget-demo?token=${encodeURIComponent(live)}`);
    expect(await page.getByTestId('widget-subject').innerText()).toContain('live mode');
    await page.goto(`${app.url}/widget-demo?token=${encodeURIComponent(`${token.slice(0, -4)}AAAA`)}`);
    expect(await page.getByRole('alert').innerText()).toMatch(
      /This token shows no one: Invalid participant token/,
    );
    expect(await page.locator('svc-points').getAttribute('token')).toBe('');
    await page.close();
  });
});
