import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireDueLots } from '../src/services/points/loyalty-tick.ts';
import {
  changedSettings,
  fromForm,
  type Program,
  timeZones,
  toForm,
} from '../web/dashboard/src/pages/programme/logic.ts';
import { skipBrowser } from './browser.ts';
import { type Dashboard, openDashboard } from './dashboard-browser.ts';
import { buildFlow } from './factories.ts';
import { eventually } from './helpers.ts';

// The programme page and a participant's lots and pending grants, as a person uses them.

let d: Dashboard;
beforeAll(async () => {
  if (!skipBrowser) {
    d = await openDashboard();
    d.page.setDefaultTimeout(10_000);
  }
});
afterAll(() => d?.close());

const ok = (res: { status: number; text: string }) => expect(res.status, res.text).toBeLessThan(300);

/** The dashboard's way of writing a timestamp (web/dashboard/src/lib/format.ts). */
const shown = (iso: string) => `${iso.slice(0, 19).replace('T', ' ')} UTC`;

/** A whole-page screenshot in /tmp, beside the viewport one in artifacts/screenshots, to look at. */
async function shots(name: string) {
  await d.shot(name);
  await d.page.evaluate(() => window.scrollTo(0, 0));
  await d.page.screenshot({ path: `/tmp/${name}.png`, fullPage: true });
}

describe.skipIf(skipBrowser)('the programme page and points lifecycle in a real browser (Chromium)', () => {
  it('sets fixed 12-month expiry rounded to the month and a daily cap, showing a refused duration on its field', async () => {
    const { page } = d;
    await d.goto('/');
    await page.getByRole('link', { name: 'Programme' }).click();
    await page.getByRole('heading', { name: 'Programme', level: 2 }).waitFor();
    expect(page.url()).toBe(`${d.app.url}/dashboard/programme`);
    await page.getByRole('form', { name: 'Programme settings' }).waitFor();
    // Off the link just clicked: its hover shade is the Shell's, not this page's.
    await page.mouse.move(700, 850);
    await d.checkA11y();
    const sent: unknown[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/trpc/points.updateProgram')) sent.push(Object.values(r.postDataJSON())[0]);
    });

    await page.getByRole('radio', { name: 'Fixed' }).check();
    await page.getByLabel(/^Expire after/).fill('12 months');
    await page.getByRole('combobox', { name: 'Round up to' }).click();
    await page.getByRole('option', { name: 'End of the month' }).click();
    await page.getByRole('combobox', { name: 'Time zone' }).fill('Europe/Par');
    await page.getByRole('option', { name: 'Europe/Paris' }).click();
    await page.getByRole('button', { name: 'Add cap' }).click();
    await page.getByLabel('Cap 1 maximum points').fill('100');
    await page.getByRole('button', { name: 'Save programme' }).click();

    // The service's 422 shows on the duration's field, and nothing was stored.
    const after = page.getByLabel(/^Expire after/);
    await expect.poll(() => after.getAttribute('aria-invalid')).toBe('true');
    await page.getByText('must be a positive ISO 8601 duration').waitFor();
    expect((await d.ws.api('/v1/program')).body.points_expiry).toBeNull();
    await shots('programme-invalid');

    await after.fill('P12M');
    await page.getByRole('button', { name: 'Save programme' }).click();
    await page.getByText('Programme saved').waitFor();
    await expect.poll(() => after.getAttribute('aria-invalid')).not.toBe('true');
    const program = await d.ws.api('/v1/program');
    expect(program.body).toEqual({
      timezone: 'Europe/Paris',
      points_expiry: { mode: 'fixed', after: 'P12M', round_to: 'month' },
      expiry_notice: 'P14D',
      pending_for: null,
      earning_caps: [{ period: 'day', max_points: 100 }],
    });
    // Only what changed was sent (the notice and the pending period were left as they were).
    expect(sent.at(-1)).toEqual({
      mode: 'test',
      timezone: 'Europe/Paris',
      points_expiry: { mode: 'fixed', after: 'P12M', round_to: 'month' },
      earning_caps: [{ period: 'day', max_points: 100 }],
    });
    // Nothing is left to save; a reload shows what is stored.
    expect(await page.getByRole('button', { name: 'Save programme' }).isDisabled()).toBe(true);
    await page.reload();
    await expect.poll(() => page.getByLabel('Cap 1 maximum points').inputValue()).toBe('100');
    expect(await page.getByRole('radio', { name: 'Fixed' }).isChecked()).toBe(true);
    await shots('programme');
    await d.checkA11y();
    expect(d.problems).toEqual([]);
  });

  it('shows a participant’s lots with their expiry and pending grants; activating one moves the balance', async () => {
    const { page, ws } = d;
    const who = 'lot-owner';
    ok(await ws.api(`/v1/participants/${who}/points`, { body: { points: 200, reason: 'Welcome bonus' } }));
    ok(await ws.api(`/v1/participants/${who}/points`, { body: { points: 50, reason: 'Survey' } }));
    // Two awards held for 30 days, and one award the daily cap (100) cuts.
    await buildFlow(ws, { actions: [{ type: 'award_points', points: 30, pending_for: 'P30D' }] });
    await buildFlow(ws, {
      event_type: 'review.posted',
      actions: [{ type: 'award_points', points: 150 }],
    });
    for (const type of ['order.completed', 'order.completed', 'review.posted']) {
      const r = await ws.api('/v1/events', {
        body: { event_type: type, participant: { external_id: who }, payload: {} },
      });
      expect(r.status, r.text).toBe(202);
      await eventually(async () => {
        const e = await ws.api(`/v1/events/${r.body.event_id}`);
        return e.body.status === 'processed' ? e.body : null;
      }, 15_000);
    }
    const before = (await ws.api(`/v1/participants/${who}/points`)).body;
    expect(before.pending_points).toBe(60);
    expect(before.lots).toHaveLength(3);
    const expiry = before.lots[0].expires_at as string;
    // Twelve months on, rounded up to the end of a month in Paris: midnight there, the 1st.
    expect(new Date(expiry).getUTCFullYear()).toBe(new Date().getUTCFullYear() + 1);
    expect(new Date(expiry).toLocaleString('en-GB', { timeZone: 'Europe/Paris' })).toMatch(
      /^01\/.* 00:00:00$/,
    );

    await d.goto(`/participants/${who}`);
    await page.getByRole('heading', { name: who, level: 2 }).waitFor();
    const stat = (label: string) => page.getByTestId(`stat-${label}`).textContent();
    await expect.poll(() => stat('Balance')).toBe(String(before.balance));
    expect(await stat('Pending')).toBe('60');
    expect(await page.getByTestId('stat-Next expiry-hint').textContent()).toBe(`on ${shown(expiry)}`);
    const lots = page.getByRole('table', { name: 'Open lots' });
    await expect.poll(() => lots.locator('tbody tr').count()).toBe(3);
    for (const l of before.lots)
      expect(await lots.locator('tbody tr', { hasText: `#${l.entry_id}` }).textContent()).toContain(
        shown(l.expires_at),
      );
    expect(await page.getByRole('table', { name: 'Expiring points' }).textContent()).toContain(
      String(before.balance),
    );
    // The ledger: each credit's expiry, and the part of the award the cap cut.
    const ledger = page.getByRole('table', { name: 'Ledger' });
    await expect.poll(() => ledger.getByTestId('capped').count()).toBe(1);
    expect(await ledger.getByTestId('entry-expires').first().textContent()).toBe(`expires ${shown(expiry)}`);

    const pending = page.getByRole('table', { name: 'Pending points' });
    await expect.poll(() => pending.locator('tbody tr').count()).toBe(2);
    await shots('participant-points');
    await d.checkA11y();

    await pending
      .locator('tbody tr')
      .first()
      .getByRole('button', { name: /^Activate/ })
      .click();
    await page.getByRole('dialog').getByRole('button', { name: 'Activate' }).click();
    await expect.poll(() => stat('Balance')).toBe(String(before.balance + 30));
    await expect.poll(() => stat('Pending')).toBe('30');
    await expect.poll(() => pending.locator('tbody tr').first().textContent()).toContain('activated');
    await expect.poll(() => lots.locator('tbody tr').count()).toBe(4);
    await expect
      .poll(() => ledger.locator('tbody tr').first().textContent())
      .toContain('Pending points activated');
    expect((await ws.api(`/v1/participants/${who}`)).body).toMatchObject({
      balance: before.balance + 30,
      pending_points: 30,
    });

    // The other one is cancelled: never credited.
    const second = pending.locator('tbody tr').nth(1);
    await second.getByRole('button', { name: /^Cancel/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel points' }).click();
    await expect.poll(() => second.textContent()).toContain('cancelled');
    await expect.poll(() => stat('Pending')).toBe('0');
    expect(await stat('Balance')).toBe(String(before.balance + 30));
    await shots('participant-points-settled');
    await d.checkA11y();
    expect(d.problems).toEqual([]);
  });

  it('reads an expiry in the ledger and a lot that never expires', async () => {
    const { page, ws } = d;
    const who = 'expired-owner';
    const credit = await ws.api(`/v1/participants/${who}/points`, { body: { points: 70, reason: 'Promo' } });
    ok(credit);
    ok(await ws.api('/v1/program', { method: 'PATCH', body: { points_expiry: null } }));
    ok(await ws.api(`/v1/participants/${who}/points`, { body: { points: 15, reason: 'Kept' } }));
    // The loyalty tick two years on: every lot with an expiry is due (the earlier tests' too).
    expect(await expireDueLots(d.app.ctx, new Date(Date.now() + 2 * 366 * 86_400_000))).toBeGreaterThan(0);

    await d.goto(`/participants/${who}`);
    await page.getByRole('heading', { name: who, level: 2 }).waitFor();
    await expect.poll(() => page.getByTestId('stat-Balance').textContent()).toBe('15');
    expect(await page.getByTestId('stat-Next expiry').textContent()).toBe('—');
    const lots = page.getByRole('table', { name: 'Open lots' });
    await expect.poll(() => lots.locator('tbody tr').count()).toBe(1);
    expect(await lots.textContent()).toMatch(/15.*15.*never/);
    await page.getByText('None of these points expire.').waitFor();
    const ledger = page.getByRole('table', { name: 'Ledger' });
    const expired = ledger.locator('tbody tr', { hasText: 'Points expired' });
    await expect.poll(() => expired.count()).toBe(1);
    expect(await expired.textContent()).toMatch(
      new RegExp(`expiry.*Points expired.*from credit #${credit.body.id}.*−70`),
    );
    await shots('participant-expired');
    await d.checkA11y();
    expect(d.problems).toEqual([]);
  });
});

describe('the programme form’s logic', () => {
  const stored: Program = {
    timezone: 'UTC',
    points_expiry: { mode: 'activity', after: 'P6M', round_to: 'none' },
    expiry_notice: 'P14D',
    pending_for: null,
    earning_caps: [{ period: 'week', max_points: 500 }],
  };

  it('sends only the settings that changed, and nothing for an untouched form', () => {
    expect(changedSettings(stored, toForm(stored))).toEqual({});
    const form = { ...toForm(stored), pending_for: ' P7D ', caps: [] };
    expect(changedSettings(stored, form)).toEqual({ pending_for: 'P7D', earning_caps: [] });
  });

  it('turns expiry off as null, drops rounding for inactivity, and sends blanks as typed for the service to refuse', () => {
    expect(fromForm({ ...toForm(stored), expiry: 'off' }).points_expiry).toBeNull();
    expect(fromForm({ ...toForm(stored), round_to: 'month' }).points_expiry).toEqual({
      mode: 'activity',
      after: 'P6M',
      round_to: 'none',
    });
    const blank = fromForm({
      ...toForm(stored),
      expiry: 'fixed',
      after: '',
      caps: [{ period: 'day', max_points: '' }],
    });
    expect(blank.points_expiry).toEqual({ mode: 'fixed', after: '', round_to: 'none' });
    expect(blank.earning_caps).toEqual([{ period: 'day', max_points: 0 }]);
    expect(fromForm({ ...toForm(stored), pending_for: '  ' }).pending_for).toBeNull();
  });

  it('lists UTC first and keeps a stored zone the runtime does not list', () => {
    const zones = timeZones('Etc/GMT+5');
    expect(zones[0]).toBe('UTC');
    expect(zones).toContain('Etc/GMT+5');
    expect(new Set(zones).size).toBe(zones.length);
  });
});
