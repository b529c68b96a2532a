import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipBrowser } from './browser.ts';
import { type Dashboard, openDashboard } from './dashboard-browser.ts';

let d: Dashboard;
beforeAll(async () => {
  if (!skipBrowser) {
    d = await openDashboard();
    d.page.setDefaultTimeout(10_000);
  }
});
afterAll(() => d?.close());

const ok = (res: { status: number; text: string }) => expect(res.status, res.text).toBeLessThan(300);

describe.skipIf(skipBrowser)('overview, participants, events and flows in a real browser (Chromium)', () => {
  it('searches a participant made through REST, adjusts points and reverses an entry', async () => {
    const { page } = d;
    await d.setMode('test');
    ok(
      await d.ws.api('/v1/participants/ada-lovelace/points', {
        body: { points: 500, reason: 'Welcome bonus' },
      }),
    );
    ok(
      await d.ws.api('/v1/participants/ada-lovelace', {
        method: 'PATCH',
        body: { name: 'Ada Lovelace', email: 'ada@example.com' },
      }),
    );
    ok(await d.ws.api('/v1/participants/grace-hopper/points', { body: { points: 120, reason: 'Signup' } }));
    await d.goto('/participants');
    await page.getByRole('table', { name: 'Participants' }).waitFor();
    await d.shot('participants');
    await d.checkA11y();
    await page.getByLabel('Search participants').fill('lovel');
    await expect
      .poll(() => page.getByRole('table', { name: 'Participants' }).locator('tbody tr').count())
      .toBe(1);
    await page.getByRole('link', { name: 'ada-lovelace' }).click();
    await page.getByRole('heading', { name: 'ada-lovelace', level: 2 }).waitFor();
    await expect.poll(() => page.getByTestId('stat-Balance').textContent()).toBe('500');

    // The service's field error shows next to the field.
    await page.getByLabel(/^Points/).fill('0');
    await page.getByLabel(/^Reason/).fill('nothing');
    await page.getByRole('button', { name: 'Adjust points' }).click();
    await page.getByText('must be a non-zero integer').waitFor();

    await page.getByLabel(/^Points/).fill('-120');
    await page.getByLabel(/^Reason/).fill('Goodwill correction');
    await page.getByRole('button', { name: 'Adjust points' }).click();
    await expect.poll(() => page.getByTestId('stat-Balance').textContent()).toBe('380');
    const ledger = page.getByRole('table', { name: 'Ledger' });
    await expect
      .poll(() => ledger.locator('tbody tr').first().textContent())
      .toContain('Goodwill correction');
    expect(await ledger.locator('tbody tr').first().textContent()).toContain('−120');
    await d.shot('participant-detail');
    await d.checkA11y();

    // Reverse the welcome bonus? 500 > 380: refused. Reverse the debit instead, after confirming.
    const debit = ledger.locator('tbody tr', { hasText: 'Goodwill correction' });
    await debit.getByRole('button', { name: /^Reverse entry/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Reverse entry' }).click();
    await expect.poll(() => page.getByTestId('stat-Balance').textContent()).toBe('500');
    await expect.poll(() => ledger.locator('tbody tr').count()).toBe(3);
    expect(await ledger.locator('tbody tr').first().textContent()).toMatch(/reversal.*reverses #\d+.*\+120/);
    expect(await debit.textContent()).toContain('Reversed');
    expect(await debit.getByRole('button', { name: /^Reverse entry/ }).count()).toBe(0);
    expect(d.problems).toEqual([]);
  });

  it('erases a participant after confirming, and returns to the list without it', async () => {
    const { page } = d;
    await d.goto('/participants/grace-hopper');
    await page.getByRole('heading', { name: 'grace-hopper', level: 2 }).waitFor();
    await page.getByRole('button', { name: 'Erase participant' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Erase participant' }).click();
    await page.waitForURL(/\/dashboard\/participants$/);
    const table = page.getByRole('table', { name: 'Participants' });
    // The row stays, under an irreversible pseudonym, so balances and totals stay exact.
    await expect.poll(() => table.textContent()).toMatch(/erased_[0-9a-f]{32}/);
    expect(await table.textContent()).not.toContain('grace-hopper');
    expect((await d.ws.api('/v1/participants/grace-hopper')).status).toBe(404);
    expect(d.problems).toEqual([]);
  });

  it('filters events by status and shows a quarantined event with its reason and an event’s flow runs', async () => {
    const { page } = d;
    ok(
      await d.ws.api('/v1/flows', {
        body: {
          name: 'Order points',
          event_type: 'order.completed',
          actions: [{ type: 'award_points', points: 25 }],
        },
      }),
    );
    ok(
      await d.ws.api('/v1/events', {
        body: { type: 'order.completed', participant: 'ada-lovelace', payload: { amount: 60 } },
      }),
    );
    ok(await d.ws.api('/v1/events', { body: { participant: 'ada-lovelace', payload: { amount: 1 } } })); // no type
    await d.goto('/events');
    const table = page.getByRole('table', { name: 'Events' });
    await table.waitFor();
    await expect.poll(() => table.locator('tbody tr').count()).toBe(2);
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'quarantined' }).click();
    await expect.poll(() => table.locator('tbody tr').count()).toBe(1);
    expect(page.url()).toContain('status=quarantined');
    await expect.poll(() => page.getByTestId('quarantine-reason').textContent()).toMatch(/event_type/);
    await d.shot('events');
    await d.checkA11y();

    // The processed event's flow run, with its steps, in the drawer.
    await page.getByRole('button', { name: 'Clear' }).click();
    await expect.poll(() => table.locator('tbody tr').count()).toBe(2);
    await expect
      .poll(async () => {
        await page.reload();
        await table.waitFor();
        return table.locator('tbody tr', { hasText: 'order.completed' }).textContent();
      })
      .toContain('processed');
    await page.getByRole('button', { name: 'order.completed' }).click();
    const drawer = page.getByRole('dialog');
    await drawer.getByTestId('flow-run').waitFor();
    expect(await drawer.getByRole('table').first().textContent()).toMatch(/award_points.*completed/);
    await d.shot('event-detail');
    await d.checkA11y();
    expect(d.problems).toEqual([]);
  });

  it('creates a flow: the service refuses invalid JSON Logic next to the field, then it saves', async () => {
    const { page } = d;
    await d.goto('/flows');
    await page.getByRole('table', { name: 'Flows' }).waitFor();
    // The run of the previous test's event, with its steps.
    const runs = page.getByRole('table', { name: 'Flow runs' });
    expect(await runs.locator('tbody tr').first().textContent()).toMatch(
      /completed.*ada-lovelace.*award_points/,
    );
    await runs.locator('tbody tr').first().click();
    await expect
      .poll(() => page.getByTestId('run-steps').textContent())
      .toMatch(/award_points.*completed.*"points":25/);
    await d.shot('flows');
    await d.checkA11y();
    await page.getByRole('link', { name: 'New flow' }).click();
    await page.getByLabel(/^Name/).fill('Big spender');
    await page.getByLabel(/^Event type/).fill('order.completed');
    // Not JSON: caught in the browser before anything is sent.
    await page.getByLabel(/^Conditions/).fill('{ ">=": [ ');
    await page.getByText(/Invalid JSON/).waitFor();
    // JSON, but not JSON Logic: the service's message shows next to the field.
    await page.getByLabel(/^Conditions/).fill('{ "bigger_than": [{ "var": "payload.amount" }, 50] }');
    await page.getByRole('button', { name: 'Create flow' }).click();
    const field = page.getByLabel(/^Conditions/);
    await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
    await page.locator('.mantine-Textarea-error', { hasText: 'unknown operation "bigger_than"' }).waitFor();
    await d.shot('flow-invalid');
    await field.fill('{ ">=": [{ "var": "payload.amount" }, 50] }');
    await page.getByRole('button', { name: 'Create flow' }).click();
    await page.getByRole('heading', { name: 'Big spender', level: 2 }).waitFor();
    expect(page.url()).toMatch(/\/flows\/[0-9a-f-]{36}$/);
    const list = await d.ws.api('/v1/flows');
    expect(list.body.data.map((f: { name: string }) => f.name)).toContain('Big spender');
    await d.shot('flow-edit');
    await d.checkA11y();
    expect(d.problems).toEqual([]);
  });

  it('shows the overview charts with the data just made', async () => {
    const { page } = d;
    // A redemption: on the participant's page (with the reward's name) and in the overview.
    const reward = await d.ws.api('/v1/rewards', {
      body: { name: 'Tote bag', type: 'physical', cost_points: 50 },
    });
    ok(reward);
    ok(
      await d.ws.api('/v1/redemptions', { body: { participant: 'ada-lovelace', reward_id: reward.body.id } }),
    );
    await d.goto('/participants/ada-lovelace');
    const redemptions = page.getByRole('table', { name: 'Redemptions' });
    await expect.poll(() => redemptions.textContent()).toMatch(/Tote bag.*pending.*50/);

    await d.goto('/');
    const bars = (chart: string) =>
      page.getByTestId(`chart-${chart}`).locator('path.recharts-rectangle').count();
    await expect.poll(() => bars('events-per-day')).toBeGreaterThan(0);
    await expect.poll(() => bars('points-per-day')).toBe(2); // issued and redeemed, today
    await expect.poll(() => bars('quarantined-per-day')).toBe(1);
    await expect.poll(() => bars('redemptions-by-reward')).toBe(1);
    expect(await page.getByTestId('chart-redemptions-by-reward').textContent()).toContain('Tote bag');
    // Two events (one quarantined), the points of the first tests and the redemption, exactly.
    const stats = await page.getByTestId('overview-stats').textContent();
    expect(stats).toMatch(/Events2/);
    expect(stats).toMatch(/Quarantined1/);
    expect(stats).toMatch(/Points issued645/);
    expect(stats).toMatch(/Points redeemed50/);
    expect(stats).toMatch(/Redemptions1/);
    await d.shot('overview');
    await d.checkA11y();
    expect(d.problems).toEqual([]);
  });
});
