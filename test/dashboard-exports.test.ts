import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipBrowser } from './browser.ts';
import { type Dashboard, openDashboard } from './dashboard-browser.ts';
import { buildParticipant } from './factories.ts';

// The exports page in real Chromium, against a real service, its database and its export job.

let d: Dashboard;
beforeAll(async () => {
  if (!skipBrowser) d = await openDashboard();
});
afterAll(async () => {
  await d?.close();
});

const LEDGER_HEADER =
  'id,points,balance_after,reason,source,reference,reverses_entry_id,idempotency_key,expires_at,capped_points,created_at,participant.external_id';

const adjust = async (externalId: string, points: number, reason: string, mode: 'live' | 'test' = 'test') => {
  const res = await d.ws.api(`/v1/participants/${externalId}/points`, { body: { points, reason }, mode });
  expect(res.status, res.text).toBe(201);
};

const table = () => d.page.getByRole('table', { name: 'Exports' });

describe.skipIf(skipBrowser)('exports page (Chromium)', () => {
  it('is in the navigation between Messages and Settings, and starts empty', async () => {
    const { page } = d;
    await d.goto('/exports');
    await d.setMode('test');
    const nav = await page.getByRole('navigation', { name: 'Sections' }).getByRole('link').allTextContents();
    expect(nav.slice(nav.indexOf('Messages'), nav.indexOf('Messages') + 3)).toEqual([
      'Messages',
      'Exports',
      'Settings',
    ]);
    await page.getByRole('heading', { name: 'Exports', level: 2 }).waitFor();
    await page.getByText('No exports yet').waitFor();
  });

  it('requests a ledger CSV export, shows it completed and downloads the file', async () => {
    const { page } = d;
    await buildParticipant(d.app, d.ws, { externalId: 'exp-alice' });
    await buildParticipant(d.app, d.ws, { externalId: 'exp-bob' });
    await buildParticipant(d.app, d.ws, { externalId: 'exp-live', mode: 'live' });
    await adjust('exp-alice', 100, 'welcome');
    await adjust('exp-bob', 40, 'apology, sorry');
    await adjust('exp-alice', -25, 'correction');
    await adjust('exp-live', 999, 'live only', 'live'); // another mode: never in a test export

    // Until before since is refused beside the field, before anything is sent.
    await page.getByLabel(/^Since/).fill('2026-11-10');
    await page.getByLabel(/^Until/).fill('2026-11-05');
    await page.getByText('must be on or after since').waitFor();
    await page.getByLabel(/^Since/).fill(new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10));
    await page.getByText('must not be in the future').waitFor();
    expect(await page.getByRole('button', { name: 'Request export' }).isDisabled()).toBe(true);
    await page.getByLabel(/^Since/).fill('');
    await page.getByLabel(/^Until/).fill('');

    await page.getByRole('combobox', { name: /^Resource/ }).click();
    await page.getByRole('option', { name: 'Ledger entries' }).click();
    expect(await page.getByRole('combobox', { name: /^Format/ }).inputValue()).toBe('CSV');
    await page.getByRole('button', { name: 'Request export' }).click();
    await page.getByText('Ledger entries export requested').waitFor();

    // Nothing reloads the page: the list polls while the export is pending or running.
    const status = table().getByTestId(/^export-status-/);
    await expect.poll(() => status.textContent(), { timeout: 30_000, interval: 250 }).toBe('completed');
    const [exp] = (await d.ws.api('/v1/exports')).body.data;
    expect(exp).toMatchObject({ resource: 'ledger', format: 'csv', status: 'completed', row_count: 3 });
    const row = table().getByRole('row').nth(1);
    const cells = await row.getByRole('cell').allTextContents();
    expect(cells.slice(0, 4)).toEqual(['Ledger entries', 'CSV', 'completed', '3']);
    expect(cells[4]).toMatch(/^\d+ B$/);
    expect(cells[4]).toBe(`${exp.size_bytes} B`);

    const downloading = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download Ledger entries CSV export' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`ledger-${exp.id}.csv`);
    const file = readFileSync(await download.path(), 'utf8');
    expect(Buffer.byteLength(file)).toBe(exp.size_bytes);
    const records = file.split('\r\n');
    expect(records.at(-1)).toBe(''); // every record ends with CRLF, the last too
    expect(records[0]).toBe(LEDGER_HEADER);
    expect(records.slice(1, -1)).toHaveLength(3);
    expect(records[1]).toMatch(/^\d+,100,100,welcome,adjustment,.*,exp-alice$/);
    expect(records[2]).toMatch(/^\d+,40,40,"apology, sorry",adjustment,.*,exp-bob$/);
    expect(records[3]).toMatch(/^\d+,-25,75,correction,adjustment,.*,exp-alice$/);
    expect(file).not.toContain('exp-live');
  });

  it('sends the chosen days as since/until and lists the newest export first', async () => {
    const { page } = d;
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await page.getByRole('combobox', { name: /^Resource/ }).click();
    await page.getByRole('option', { name: 'Participants' }).click();
    await page.getByRole('combobox', { name: /^Format/ }).click();
    await page.getByRole('option', { name: 'JSON Lines' }).click();
    await page.getByLabel(/^Since/).fill('2020-01-01');
    await page.getByLabel(/^Until/).fill(yesterday);
    await page.getByRole('button', { name: 'Request export' }).click();
    await page.getByText('Participants export requested').waitFor();
    const first = table().getByRole('row').nth(1);
    await expect.poll(() => first.getByRole('cell').first().textContent()).toBe('Participants');
    await expect
      .poll(() => first.getByTestId(/^export-status-/).textContent(), { timeout: 30_000, interval: 250 })
      .toBe('completed');
    // The participants were all created today: a file that ends at midnight today is empty.
    const [exp] = (await d.ws.api('/v1/exports')).body.data;
    expect(exp).toMatchObject({
      resource: 'participants',
      format: 'jsonl',
      since: '2020-01-01T00:00:00.000Z',
      until: `${today}T00:00:00.000Z`,
      row_count: 0,
      size_bytes: 0,
    });
    expect((await first.getByRole('cell').allTextContents()).slice(0, 5)).toEqual([
      'Participants',
      'JSON Lines',
      'completed',
      '0',
      '0 B',
    ]);
    expect(await table().getByRole('row').count()).toBe(3);
    await d.shot('exports');
    await d.checkA11y();
  });

  it('shows only the exports of the current mode', async () => {
    await d.setMode('live');
    await d.page.getByText('No exports yet').waitFor();
    await d.setMode('test');
    await table().waitFor();
    expect(d.problems).toEqual([]);
  });
});
