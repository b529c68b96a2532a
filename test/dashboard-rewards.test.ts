import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipBrowser } from './browser.ts';
import { type Dashboard, openDashboard } from './dashboard-browser.ts';
import { buildParticipant, buildReceiver, buildReward, closeReceivers } from './factories.ts';

// The rewards and redemptions pages in real Chromium, against a real service and database.

let d: Dashboard;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'svc-codes-'));
  if (!skipBrowser) d = await openDashboard();
});
afterAll(async () => {
  await d?.close();
  await closeReceivers();
  rmSync(dir, { recursive: true, force: true });
});

let voucherId = 0;

const stat = (name: string) => d.page.getByTestId(`stat-${name}`).first().textContent();

describe.skipIf(skipBrowser)('rewards and redemptions pages (Chromium)', () => {
  it('shows the empty catalogue, then creates a voucher reward through the form', async () => {
    const { page } = d;
    await d.setMode('test');
    await d.goto('/rewards');
    await page.getByText('No rewards yet').waitFor();
    await page.getByRole('link', { name: 'New reward' }).click();
    await page.getByLabel(/^Name/).fill('Summer voucher');
    await page.getByLabel(/^Subtitle/).fill('10% off your next order');
    await page.getByLabel(/^Cost \(points\)/).fill('250');
    // A voucher's stock is its codes: the form has no stock field for it.
    expect(await page.getByLabel(/^Stock/).count()).toBe(0);
    await page.getByRole('button', { name: 'Create reward' }).click();
    await page.getByRole('heading', { name: 'Summer voucher', level: 2 }).waitFor();
    voucherId = Number(new URL(page.url()).pathname.split('/').pop());
    expect(voucherId).toBeGreaterThan(0);
    const saved = await d.ws.api(`/v1/rewards/${voucherId}`, { mode: 'test' });
    expect(saved.body).toMatchObject({ name: 'Summer voucher', type: 'voucher_code', cost_points: 250 });
  });

  it('imports a CSV file of 1,000 lines chosen in the file input (a duplicate and a blank line)', async () => {
    const { page } = d;
    const codes = Array.from({ length: 999 }, (_, i) => `SUMMER-${String(i).padStart(4, '0')}`);
    const lines = ['code', ...codes.slice(0, 500), '', codes[3]!, ...codes.slice(500)];
    const file = path.join(dir, 'codes.csv');
    writeFileSync(file, `${lines.join('\r\n')}\r\n`);
    const chooser = page.waitForEvent('filechooser');
    await page.getByLabel('Code file').click();
    await (await chooser).setFiles(file);
    await page.getByText('codes.csv ·').waitFor();
    await page.getByRole('button', { name: 'Upload and import' }).click();
    await page.getByTestId('import-result').waitFor();
    expect(await stat('imported')).toBe('999');
    expect(await stat('skipped-duplicates')).toBe('1');
    expect(await stat('codes-available')).toBe('999');
    await expect.poll(() => page.getByTestId('pool-stock').textContent()).toBe('999 codes available');
    const close = page.getByRole('button', { name: 'Dismiss notification' });
    for (const button of await close.all()) await button.click({ timeout: 2_000 }).catch(() => {});
    await expect.poll(() => close.count()).toBe(0);
    await d.shot('reward-detail');
    await d.checkA11y();
  });

  it('generates a batch of codes', async () => {
    const { page } = d;
    await page.getByRole('tab', { name: 'Generate a batch' }).click();
    await page.getByLabel(/^How many/).fill('50');
    await page.getByLabel(/^Prefix/).fill('GEN-');
    await page.getByRole('button', { name: 'Generate codes' }).click();
    await page.getByTestId('generate-result').waitFor();
    expect(await stat('generated')).toBe('50');
    await expect.poll(() => page.getByTestId('pool-stock').textContent()).toBe('1,049 codes available');
    const { rows } = await d.app.ctx.pool.query(
      `select count(*)::int as n from reward_codes where reward_id = $1 and code like 'GEN-%'`,
      [voucherId],
    );
    expect(rows[0].n).toBe(50);
  });

  it('creates a points multiplier: the form shows the fields of the chosen type', async () => {
    const { page } = d;
    await d.goto('/rewards/new');
    await page.getByLabel(/^Name/).fill('Double points weekend');
    await page.getByLabel(/^Type/).first().click();
    await page.getByRole('option', { name: 'Points multiplier' }).click();
    await page.getByLabel(/^Factor/).fill('2.5');
    await page.getByLabel(/^Duration \(hours\)/).fill('48');
    await page.getByLabel(/^Stock/).fill('20');
    await page.getByRole('button', { name: 'Create reward' }).click();
    await page.getByRole('heading', { name: 'Double points weekend', level: 2 }).waitFor();
    const id = new URL(page.url()).pathname.split('/').pop();
    const saved = await d.ws.api(`/v1/rewards/${id}`, { mode: 'test' });
    expect(saved.body).toMatchObject({
      type: 'points_multiplier',
      stock: 20,
      config: { factor: 2.5, duration_hours: 48 },
    });
    // A refused value comes back on its field: names are unique per mode.
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByLabel(/^Name/).fill('Summer voucher');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => page.getByLabel(/^Name/).getAttribute('aria-invalid')).toBe('true');
    await page.getByText('another reward in this mode already has this name').first().waitFor();
  });

  it('tests an external reward’s endpoint against a local receiver and shows what came back', async () => {
    const { page } = d;
    const receiver = await buildReceiver();
    receiver.respond(() => ({
      status: 200,
      body: JSON.stringify({ data: { code: 'EXT-7781' } }),
      headers: { 'content-type': 'application/json' },
    }));
    await d.goto('/rewards/new');
    await page.getByLabel(/^Name/).fill('Partner gift card');
    await page.getByLabel(/^Type/).first().click();
    await page.getByRole('option', { name: 'External' }).click();
    await page.getByLabel(/^Endpoint URL/).fill(`${receiver.url}/issue`);
    await page.getByLabel(/^Code path/).fill('data.code');
    await page
      .getByLabel(/^Body/)
      .fill('{"customer": "{{participant.external_id}}", "ref": "{{reference}}"}');
    await d.shot('reward-form');
    await d.checkA11y();
    await page.getByRole('button', { name: 'Create reward' }).click();
    await page.getByRole('heading', { name: 'Partner gift card', level: 2 }).waitFor();
    await page.getByRole('button', { name: 'Test endpoint' }).click();
    await page.getByTestId('fulfilment-result').waitFor();
    expect(await page.getByTestId('fulfilment-code').textContent()).toBe('EXT-7781');
    expect(await page.getByTestId('fulfilment-result').textContent()).toContain('200');
    const sent = receiver.received.at(-1)!;
    expect(sent.path).toBe('/issue');
    expect(sent.body).toMatchObject({ customer: 'test-participant' });
    expect(String(sent.body.ref)).toMatch(/^test_/);
    // A failing endpoint is shown as a failure, with its status.
    receiver.respond(() => ({ status: 503, body: 'down for maintenance' }));
    await page.getByRole('button', { name: 'Test endpoint' }).click();
    await expect.poll(() => page.getByTestId('fulfilment-result').textContent()).toContain('503');
    expect(await page.getByTestId('fulfilment-result').textContent()).toContain('The endpoint test failed');
    // The edit form tests its unsaved settings: a code path that is not in the answer fails.
    receiver.respond(() => ({
      status: 200,
      body: JSON.stringify({ data: { code: 'EXT-7782' } }),
      headers: { 'content-type': 'application/json' },
    }));
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByLabel(/^Code path/).fill('data.voucher');
    await page.getByRole('button', { name: 'Test endpoint' }).click();
    await expect
      .poll(() => page.getByTestId('fulfilment-result').textContent())
      .toContain("no string at code_path 'data.voucher'");
    const stored = await d.ws.api(`/v1/rewards/${new URL(page.url()).pathname.split('/').at(-2)}`);
    expect((stored.body as { config: { code_path: string } }).config.code_path).toBe('data.code');
  });

  it('lists the catalogue', async () => {
    const { page } = d;
    await d.goto('/rewards');
    const table = page.getByRole('table', { name: 'Rewards' });
    await table.waitFor();
    expect(await table.getByRole('row').count()).toBe(4); // header + 3 rewards
    expect(await table.textContent()).toContain('1,049');
    await d.shot('rewards');
    await d.checkA11y();
  });

  it('shows a redemption made through REST, and filters by participant and status', async () => {
    const { page } = d;
    const p = await buildParticipant(d.app, d.ws, { points: 5_000, externalId: 'ada' });
    const res = await d.ws.api('/v1/redemptions', {
      body: { participant: p.externalId, reward_id: voucherId },
    });
    expect(res.status).toBe(201);
    const code = (res.body as { fulfilment: { code: string } }).fulfilment.code;
    await d.goto('/redemptions');
    const table = page.getByRole('table', { name: 'Redemptions' });
    await table.waitFor();
    const row = table.getByRole('row').filter({ hasText: code });
    await row.waitFor();
    expect(await row.textContent()).toContain('Summer voucher');
    expect(await row.textContent()).toContain('ada');
    expect(await row.textContent()).toContain('fulfilled');
    await page.getByLabel('Participant').fill('nobody');
    await page.getByText('No redemption matches these filters.').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await row.waitFor();
  });

  it('fulfils and cancels physical redemptions through the UI', async () => {
    const { page } = d;
    const mug = await buildReward(d.ws, { type: 'physical', name: 'Branded mug', stock: 10 });
    const p = await buildParticipant(d.app, d.ws, { points: 1_000, externalId: 'grace' });
    const redeem = async () => {
      const res = await d.ws.api('/v1/redemptions', {
        body: { participant: p.externalId, reward_id: mug.id },
      });
      expect(res.status).toBe(201);
      return (res.body as { id: number }).id;
    };
    const first = await redeem();
    const second = await redeem();
    await d.goto(`/redemptions?reward=${mug.id}&status=pending`);
    await page.getByTestId(`status-${first}`).waitFor();
    expect(await page.getByTestId(`status-${second}`).textContent()).toBe('pending');
    await d.shot('redemptions');
    await d.checkA11y();

    await page.getByRole('button', { name: `Fulfil redemption ${first}` }).click();
    await page.getByText(`Redemption #${first} fulfilled`).waitFor();
    // The filter is "pending": the fulfilled one leaves the list.
    await expect.poll(() => page.getByTestId(`status-${first}`).count()).toBe(0);

    await page.getByRole('button', { name: `Cancel redemption ${second}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel redemption' }).click();
    await page.getByText(`Redemption #${second} cancelled`).waitFor();
    await page.getByText('No redemption matches these filters.').waitFor();

    await page.getByLabel('Status').first().click();
    await page.getByRole('option', { name: 'Fulfilled' }).click();
    await expect.poll(() => page.getByTestId(`status-${first}`).textContent()).toBe('fulfilled');
    const states = await d.ws.api(`/v1/redemptions?reward_id=${mug.id}`);
    const byId = Object.fromEntries(
      (states.body as { data: { id: number; status: string }[] }).data.map((r) => [r.id, r.status]),
    );
    expect(byId).toEqual({ [first]: 'fulfilled', [second]: 'cancelled' });
    expect(d.problems).toEqual([]);
  });

  it('archives a reward after confirmation', async () => {
    const { page } = d;
    await d.goto(`/rewards/${voucherId}`);
    await page.getByRole('button', { name: 'Archive' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Archive' }).click();
    await page.getByRole('table', { name: 'Rewards' }).waitFor();
    expect(await page.getByRole('table', { name: 'Rewards' }).textContent()).not.toContain('Summer voucher');
    expect(d.problems).toEqual([]);
  });
});
