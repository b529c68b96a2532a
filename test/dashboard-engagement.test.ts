import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInactivityTick } from '../src/services/inactivity/tick.ts';
import {
  type Badge,
  describeCriteria,
  formatShare,
  inputOf,
  toBody as toBadgeBody,
  toForm as toBadgeForm,
} from '../web/dashboard/src/pages/achievements/logic.ts';
import {
  describeTrigger,
  triggerBody,
  triggerDraftOf,
  triggerErrors,
  triggerFieldOf,
} from '../web/dashboard/src/pages/flows/trigger.ts';
import {
  createBody,
  describeFreezes,
  historyCounts,
  lengthText,
  periodLabel,
  type Streak,
  toForm,
  updateBody,
} from '../web/dashboard/src/pages/streaks/logic.ts';
import { skipBrowser } from './browser.ts';
import { type Dashboard, openDashboard } from './dashboard-browser.ts';
import { eventually, signedInDashboard, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

// The Streaks and Achievements pages, a participant's streaks and achievements, and the flow
// editor's inactivity trigger as a person uses them, in Chromium; the dashboard's streaks and
// achievements procedures over tRPC; the forms' pure logic.

const DAY = 86_400_000;
/** How long a poll waits for the service's answer to show: the machine is shared, so longer than vitest's 1 s. */
const WAIT = { timeout: 10_000 };
const daysAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString();

/** Sends one event (test mode) and waits for it to be processed. */
async function send(ws: TestWorkspace, participant: string, type: string, occurredAt: string, payload = {}) {
  const r = await ws.api('/v1/events', {
    body: { event_type: type, participant: { external_id: participant }, payload, occurred_at: occurredAt },
  });
  expect(r.status, r.text).toBe(202);
  const id = r.body.event_id as string;
  await eventually(async () => (await ws.api(`/v1/events/${id}`)).body.status === 'processed', 15_000);
}

const defineStreak = async (ws: TestWorkspace, body: Record<string, unknown>) => {
  const r = await ws.api('/v1/streaks', { body });
  expect(r.status, r.text).toBe(201);
};

describe.skipIf(skipBrowser)(
  'streaks, achievements and inactivity flows in a real browser (Chromium)',
  () => {
    let d: Dashboard;
    beforeAll(async () => {
      d = await openDashboard();
      d.page.setDefaultTimeout(10_000);
    });
    afterAll(() => d?.close());

    /** A whole-page screenshot in /tmp, beside the viewport one in artifacts/screenshots, to look at. */
    async function shots(name: string) {
      await d.shot(name);
      await d.page.evaluate(() => window.scrollTo(0, 0));
      await d.page.screenshot({ path: `/tmp/${name}.png`, fullPage: true });
    }

    it('defines a streak, shows the service’s refusals on their fields, changes it and archives another', async () => {
      const { page, ws } = d;
      await d.goto('/');
      await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Streaks' }).click();
      await page.getByRole('heading', { name: 'Streaks', level: 2 }).waitFor();
      expect(page.url()).toBe(`${d.app.url}/dashboard/streaks`);
      await page.getByTestId('empty-state').waitFor();
      const nav = await page
        .getByRole('navigation', { name: 'Sections' })
        .getByRole('link')
        .allTextContents();
      expect(nav.slice(nav.indexOf('Tiers'), nav.indexOf('Tiers') + 2)).toEqual(['Tiers', 'Streaks']);
      // Off the nav link it clicked: a hovered active link is drawn lighter than axe wants.
      await page.mouse.move(700, 850);
      await d.checkA11y();

      await page.getByRole('button', { name: 'New streak' }).click();
      const dialog = page.getByRole('dialog', { name: 'New streak' });
      await dialog.getByLabel(/^Key/).fill('daily workout');
      await dialog.getByLabel(/^Name/).fill('Daily workout');
      const types = dialog.getByRole('combobox', { name: 'Event types' });
      await types.fill('workout.completed');
      await types.press('Enter');
      await dialog.getByLabel(/^Freezes to start with/).fill('3');
      await dialog.getByLabel(/^Most freezes held/).fill('2');
      await dialog.getByRole('button', { name: 'Create streak' }).click();
      // The key's pattern and the freezes' order, named by the service beside their inputs.
      const key = dialog.getByLabel(/^Key/);
      await expect.poll(() => key.getAttribute('aria-invalid'), WAIT).toBe('true');
      await dialog.getByText('letters, digits and . _ : - only').waitFor();
      expect(await dialog.getByLabel(/^Freezes to start with/).getAttribute('aria-invalid')).toBe('true');
      await dialog.getByText('initial must not exceed max').waitFor();
      await page.mouse.move(10, 10);
      await shots('engagement-streak-invalid');
      await d.checkA11y();

      await key.fill('daily-workout');
      await dialog.getByLabel(/^Freezes to start with/).fill('1');
      await dialog.getByLabel(/^Earn a freeze every/).fill('7');
      await dialog.getByRole('button', { name: 'Create streak' }).click();
      await page.getByText('Streak “Daily workout” created').waitFor();
      await dialog.waitFor({ state: 'detached' });
      expect((await ws.api('/v1/streaks/daily-workout')).body).toMatchObject({
        name: 'Daily workout',
        event_types: ['workout.completed'],
        frequency: 'daily',
        freezes: { initial: 1, max: 2, earn_every: 7 },
      });
      const row = page.locator('tr[data-streak="daily-workout"]');
      expect(await row.locator('td').allTextContents()).toEqual([
        'Daily workoutdaily-workout',
        'workout.completed',
        'Daily',
        '1 to start, up to 2, +1 every 7 days',
        'running',
        'EditArchive',
      ]);

      // A weekly one made through the API, then archived from the page.
      await defineStreak(ws, {
        key: 'weekly-run',
        name: 'Weekly run',
        event_types: ['run'],
        frequency: 'weekly',
      });
      await page.reload();
      await page.locator('tr[data-streak="weekly-run"]').waitFor();

      // A change: name and event types; the key and the frequency cannot change.
      await row.getByRole('button', { name: 'Edit Daily workout' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit Daily workout' });
      expect(await edit.getByLabel(/^Key/).isDisabled()).toBe(true);
      expect(await edit.getByRole('radio', { name: 'Weekly' }).isDisabled()).toBe(true);
      await edit.getByLabel(/^Name/).fill('Workout streak');
      await edit.getByRole('combobox', { name: 'Event types' }).fill('class.attended');
      await edit.getByRole('combobox', { name: 'Event types' }).press('Enter');
      await shots('engagement-streak-edit');
      await d.checkA11y();
      await edit.getByRole('button', { name: 'Save streak' }).click();
      await page.getByText('Streak “Workout streak” saved').waitFor();
      expect((await ws.api('/v1/streaks/daily-workout')).body).toMatchObject({
        name: 'Workout streak',
        event_types: ['workout.completed', 'class.attended'],
        frequency: 'daily',
      });

      const weekly = page.locator('tr[data-streak="weekly-run"]');
      await weekly.getByRole('button', { name: 'Archive Weekly run' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Archive streak' }).click();
      await page.getByText('Streak “Weekly run” archived').waitFor();
      await weekly.waitFor({ state: 'detached' });
      expect((await ws.api('/v1/streaks/weekly-run')).body.archived_at).toEqual(expect.any(String));
      await page.getByLabel('Show archived').check();
      await weekly.waitFor();
      expect(await weekly.locator('td').nth(4).textContent()).toBe('archived');
      expect(await weekly.getByRole('button').count()).toBe(0);
      await page.mouse.move(10, 10);
      await shots('engagement-streaks');
      await d.checkA11y();
      expect(d.problems).toEqual([]);
    }, 60_000);

    it('shows a participant’s streaks in their time zone: length, longest, freezes, at risk, expiry and the last 30 days', async () => {
      const { page, ws } = d;
      const made = await ws.api('/v1/participants/streak-ada/points', {
        body: { points: 1, reason: 'Welcome' },
      });
      expect(made.status, made.text).toBeLessThan(300);
      const tz = await ws.api('/v1/participants/streak-ada', {
        method: 'PATCH',
        body: { timezone: 'Asia/Tokyo' },
      });
      expect(tz.status, tz.text).toBe(200);
      // Four days in a row but the third-to-last (a freeze covers it), none today.
      for (const n of [5, 4, 2, 1]) await send(ws, 'streak-ada', 'workout.completed', daysAgo(n));
      const rest = (await ws.api('/v1/participants/streak-ada/streaks')).body.data;
      expect(rest).toHaveLength(1);
      const s = rest[0];
      expect(s).toMatchObject({ key: 'daily-workout', length: 4, longest: 4, freezes: 0, at_risk: true });
      await d.goto('/participants/streak-ada');
      await page.getByRole('heading', { name: 'streak-ada', level: 2 }).waitFor();
      expect(await page.getByTestId('participant-timezone').textContent()).toBe('Time zone: Asia/Tokyo');
      const card = page.getByTestId('streak-daily-workout');
      await card.waitFor();
      const stat = (id: string) => page.getByTestId(`streak-daily-workout-${id}`).textContent();
      expect(await stat('length')).toBe('4 days');
      expect(await stat('longest')).toBe('4 days');
      expect(await stat('freezes')).toBe('0');
      expect(await stat('expires')).toBe(s.expires_at.slice(0, 19).replace('T', ' ') + ' UTC');
      expect(await card.getByTestId('at-risk').textContent()).toBe('at risk');
      // Each period's cell is named for assistive technology, oldest first, as the API lists them.
      // Then today's, open until it ends.
      expect(s.history).toHaveLength(5);
      const cells = page.getByRole('list', { name: 'Workout streak: the last 5 days, oldest first' });
      const labels = await cells.getByRole('listitem').allTextContents();
      expect(labels).toEqual([
        ...s.history.map(
          (h: { period_start: string; status: string }) =>
            `${h.period_start}: ${h.status === 'frozen' ? 'frozen (a freeze covered it)' : h.status}`,
        ),
        `this day (until ${s.period_end.slice(0, 19).replace('T', ' ')} UTC): not extended yet`,
      ]);
      expect(labels.slice(0, 5)).toEqual([
        expect.stringMatching(/: extended$/),
        expect.stringMatching(/: extended$/),
        expect.stringMatching(/: frozen/),
        expect.stringMatching(/: extended$/),
        expect.stringMatching(/: extended$/),
      ]);
      await page.getByRole('heading', { name: 'Streaks', level: 3 }).scrollIntoViewIfNeeded();
      await shots('engagement-participant-streaks');
      await d.checkA11y();
      expect(d.problems).toEqual([]);
    }, 60_000);

    it('defines an achievement with the service’s refusals on its fields, backfills it after a dry run and shows its rarity', async () => {
      const { page, ws } = d;
      // Orders before any criteria: only a backfill can award them.
      for (const amount of [40, 60, 30]) await send(ws, 'ach-ada', 'order.completed', daysAgo(1), { amount });
      await send(ws, 'ach-bob', 'order.completed', daysAgo(1), { amount: 20 });
      await d.goto('/');
      await page
        .getByRole('navigation', { name: 'Sections' })
        .getByRole('link', { name: 'Achievements' })
        .click();
      await page.getByRole('heading', { name: 'Achievements', level: 2 }).waitFor();
      expect(page.url()).toBe(`${d.app.url}/dashboard/achievements`);
      const nav = await page
        .getByRole('navigation', { name: 'Sections' })
        .getByRole('link')
        .allTextContents();
      expect(nav.slice(nav.indexOf('Tiers'), nav.indexOf('Tiers') + 3)).toEqual([
        'Tiers',
        'Streaks',
        'Achievements',
      ]);
      await page.getByTestId('empty-state').waitFor();
      await page.mouse.move(700, 850);
      await d.checkA11y();

      await page.getByRole('button', { name: 'New badge' }).click();
      const dialog = page.getByRole('dialog', { name: 'New badge' });
      await dialog.getByLabel(/^Key/).fill('big-spender');
      await dialog.getByLabel(/^Name/).fill('Big spender');
      await dialog.getByRole('combobox', { name: 'Tiers' }).fill('gold');
      await dialog.getByRole('combobox', { name: 'Tiers' }).press('Enter');
      await dialog.getByRole('combobox', { name: 'Event type' }).fill('order.completed');
      await dialog.getByText('Sum a field').click();
      await dialog.getByLabel(/^Target/).fill('100');
      await dialog.getByRole('radio', { name: 'The last …' }).check();
      await dialog.getByLabel(/^Window length/).fill('30 days');
      const where = dialog.getByLabel(/^Only events where/);
      await where.fill('{ ">=": [{ "var": "payload.amount" }, 25');
      // The form's own check first: JSON that does not parse is not sent.
      await dialog.getByRole('button', { name: 'Create badge' }).click();
      await expect.poll(() => where.getAttribute('aria-invalid'), WAIT).toBe('true');
      await dialog.getByText(/^Invalid JSON/).waitFor();
      // Then the service's: no field to sum, a window that is not a duration, an operator it does not know.
      await where.fill('{ "regex": [{ "var": "payload.amount" }, 25] }');
      await dialog.getByRole('button', { name: 'Create badge' }).click();
      const field = dialog.getByLabel(/^Field/);
      await expect.poll(() => field.getAttribute('aria-invalid'), WAIT).toBe('true');
      await dialog.getByText('required when aggregate is "sum"').waitFor();
      expect(await dialog.getByLabel(/^Window length/).getAttribute('aria-invalid')).toBe('true');
      expect(await where.getAttribute('aria-invalid')).toBe('true');
      expect((await ws.api('/v1/badges')).body.data).toEqual([]);
      await page.mouse.move(10, 10);
      await shots('engagement-badge-invalid');
      await d.checkA11y();

      await field.fill('amount');
      await dialog.getByLabel(/^Window length/).fill('P30D');
      await where.fill('{ ">=": [{ "var": "payload.amount" }, 25] }');
      await dialog.getByRole('combobox', { name: 'Tier awarded' }).click();
      await page.getByRole('option', { name: 'gold' }).click();
      await dialog.getByRole('button', { name: 'Create badge' }).click();
      await page.getByText('Badge “Big spender” created').waitFor();
      await dialog.waitFor({ state: 'detached' });
      const stored = (await ws.api('/v1/badges')).body.data;
      expect(stored).toEqual([
        expect.objectContaining({
          key: 'big-spender',
          tiers: ['gold'],
          criteria: {
            event_type: 'order.completed',
            aggregate: 'sum',
            field: 'amount',
            window: 'P30D',
            target: 100,
            where: { '>=': [{ var: 'payload.amount' }, 25] },
            tier: 'gold',
          },
          holders_count: 0,
          holders_percent: 0,
        }),
      ]);
      const row = page.locator('tr[data-badge="big-spender"]');
      expect(await row.locator('td').nth(1).textContent()).toBe(
        'Σ amount ≥ 100 of order.completed in P30D where {">=":[{"var":"payload.amount"},25]}, tier gold',
      );
      expect(await row.locator('td').nth(2).textContent()).toBe('0');

      // The backfill counts first: Ada's 40 + 60 + 30 reach 100; Bob's 20 is under the where.
      await row.getByRole('button', { name: 'Backfill Big spender' }).click();
      const backfill = page.getByRole('dialog', { name: 'Backfill Big spender' });
      await expect
        .poll(() => backfill.getByTestId('would-award').textContent(), WAIT)
        .toContain('Would award 1 participant.');
      expect((await ws.api('/v1/participants/ach-ada/badges')).body.data).toEqual([]);
      await page.mouse.move(10, 10);
      await shots('engagement-backfill-dry-run');
      await d.checkA11y();
      await backfill.getByRole('button', { name: 'Award 1' }).click();
      await page.getByText('Backfill of “Big spender” queued').waitFor();
      await eventually(
        async () => (await ws.api('/v1/participants/ach-ada/badges')).body.data.length === 1,
        20_000,
      );
      // Rarity: one holder of all the participants of the mode.
      await expect.poll(() => row.locator('td').nth(2).textContent(), WAIT).toBe('1');
      const { holders_percent } = (await ws.api('/v1/badges')).body.data[0];
      const participants = (await ws.api('/v1/participants?limit=200')).body.data.length;
      expect(holders_percent).toBe(Math.round(10_000 / participants) / 100);
      expect(await row.locator('td').nth(3).textContent()).toBe(`${holders_percent}%`);
      expect(await row.getByRole('progressbar').getAttribute('aria-label')).toBe(
        `Big spender: held by ${holders_percent}% of participants`,
      );

      // A count badge beside it, then its target changed.
      await page.getByRole('button', { name: 'New badge' }).click();
      const second = page.getByRole('dialog', { name: 'New badge' });
      await second.getByLabel(/^Key/).fill('regular');
      await second.getByLabel(/^Name/).fill('Regular');
      await second.getByRole('combobox', { name: 'Event type' }).fill('order.completed');
      await second.getByLabel(/^Target/).fill('4');
      await second.getByRole('button', { name: 'Create badge' }).click();
      await page.getByText('Badge “Regular” created').waitFor();
      const regular = page.locator('tr[data-badge="regular"]');
      await regular.getByRole('button', { name: 'Edit Regular' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit Regular' });
      expect(await edit.getByLabel(/^Key/).isDisabled()).toBe(true);
      expect(await edit.getByLabel(/^Target/).inputValue()).toBe('4');
      await edit.getByLabel(/^Target/).fill('5');
      await edit.getByRole('button', { name: 'Save badge' }).click();
      await page.getByText('Badge “Regular” saved').waitFor();
      expect((await ws.api('/v1/badges')).body.data.find((b: any) => b.key === 'regular').criteria).toEqual({
        event_type: 'order.completed',
        aggregate: 'count',
        field: null,
        window: 'all_time',
        target: 5,
        where: null,
        tier: null,
      });
      await expect
        .poll(() => regular.locator('td').nth(1).textContent(), WAIT)
        .toBe('5 × order.completed, all time');
      await page.mouse.move(10, 10);
      await shots('engagement-achievements');
      await d.checkA11y();
      expect(d.problems).toEqual([]);
    }, 60_000);

    it('shows a participant’s progress toward each achievement', async () => {
      const { page, ws } = d;
      const rest = (await ws.api('/v1/participants/ach-ada/achievements')).body.data;
      await d.goto('/participants/ach-ada');
      await page.getByRole('heading', { name: 'ach-ada', level: 2 }).waitFor();
      const table = page.getByRole('table', { name: 'Achievements' });
      await table.waitFor();
      const cells = async (key: string) =>
        (await table.locator(`tr[data-achievement="${key}"] td`).allTextContents()).slice(2, 4);
      const big = rest.find((a: any) => a.badge.key === 'big-spender');
      expect(big).toMatchObject({
        progress: 130,
        target: 100,
        percent: 100,
        completed_at: expect.any(String),
      });
      expect(await cells('big-spender:gold')).toEqual(['130 / 100', '100%']);
      expect(await table.locator('tr[data-achievement="big-spender:gold"] td').nth(4).textContent()).toBe(
        `completed${big.completed_at.slice(0, 19).replace('T', ' ')} UTC`,
      );
      expect(await cells('regular:')).toEqual(['3 / 5', '60%']);
      expect(await table.locator('tr[data-achievement="regular:"] td').nth(4).textContent()).toBe('—');
      expect(
        await page.getByRole('progressbar', { name: 'Regular: 60%' }).getAttribute('aria-valuenow'),
      ).toBe('60');
      await page.getByRole('heading', { name: 'Achievements', level: 3 }).scrollIntoViewIfNeeded();
      await shots('engagement-participant-achievements');
      await d.checkA11y();
      expect(d.problems).toEqual([]);
    }, 60_000);

    it('creates an inactivity flow (when: inactive for a duration, of some event types), which runs, and turns it into an event flow', async () => {
      const { page, ws } = d;
      await d.goto('/flows/new');
      await page.getByLabel(/^Name/).fill('We miss you');
      await page.getByRole('radio', { name: 'A participant has been inactive for a while' }).check();
      expect(await page.getByLabel(/^Event type/).count()).toBe(0);
      const after = page.getByLabel(/^Inactive for/);
      await after.fill('a month');
      const types = page.getByRole('combobox', { name: 'Of event types' });
      await types.fill('order.completed');
      await types.press('Enter');
      await page
        .getByLabel(/^Actions/)
        .fill('[{ "type": "award_points", "points": 5, "reason": "Come back soon" }]');
      await page.getByRole('button', { name: 'Create flow' }).click();
      await expect.poll(() => after.getAttribute('aria-invalid'), WAIT).toBe('true');
      await page.mouse.move(10, 10);
      await shots('engagement-flow-inactivity-invalid');
      await d.checkA11y();
      expect((await ws.api('/v1/flows')).body.data).toEqual([]);

      await after.fill('PT1H');
      await page.getByRole('button', { name: 'Create flow' }).click();
      await page.getByRole('heading', { name: 'We miss you', level: 2 }).waitFor();
      await page.getByText('Runs once per participant after PT1H without order.completed.').waitFor();
      const [flow] = (await ws.api('/v1/flows')).body.data;
      expect(flow).toMatchObject({
        name: 'We miss you',
        event_type: null,
        trigger: { type: 'inactivity', after: 'PT1H', event_types: ['order.completed'] },
      });
      // The form reads it back as it was made.
      expect(
        await page.getByRole('radio', { name: 'A participant has been inactive for a while' }).isChecked(),
      ).toBe(true);
      expect(await after.inputValue()).toBe('PT1H');
      // Its runs: Ada's last order was a day ago. The job runs now rather than at the next tick.
      await runInactivityTick(d.app.ctx);
      const runs = page.getByRole('table', { name: 'Flow runs' });
      await page.reload();
      await runs.locator('tbody tr', { hasText: 'ach-ada' }).waitFor();
      expect(await runs.locator('tbody tr', { hasText: 'ach-ada' }).textContent()).toMatch(
        /completed.*award_points/,
      );
      await page.mouse.move(10, 10);
      await shots('engagement-flow-inactivity');
      await d.checkA11y();

      await d.goto('/flows');
      const row = page.getByRole('table', { name: 'Flows' }).locator('tbody tr', { hasText: 'We miss you' });
      expect(await row.locator('td').nth(1).textContent()).toBe('inactivityPT1H without order.completed');
      await page.mouse.move(10, 10);
      await shots('engagement-flows');
      await d.checkA11y();

      // Back to an event flow: the trigger goes.
      await row.getByRole('link', { name: 'We miss you' }).click();
      await page.getByRole('radio', { name: 'An event of a type arrives' }).check();
      await page.getByLabel(/^Event type/).fill('order.completed');
      await page.getByRole('button', { name: 'Save flow' }).click();
      await page.getByText('Runs on order.completed events.').waitFor();
      expect((await ws.api(`/v1/flows/${flow.id}`)).body).toMatchObject({
        event_type: 'order.completed',
        trigger: null,
      });
      expect(d.problems).toEqual([]);
    }, 120_000);
  },
);

describe('the streaks procedures over tRPC', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  it('creates, lists, changes and archives streaks, one set per mode, through the service’s checks', async () => {
    const ws = await app.workspace();
    const trpc = await signedInDashboard(app, ws);
    const body = { key: 'daily', name: 'Daily', event_types: ['workout'], frequency: 'daily' as const };
    const created = await trpc.streaks.create.mutate({
      mode: 'test',
      ...body,
      freezes: { initial: 1, max: 2 },
    });
    expect(created).toMatchObject({
      ...body,
      freezes: { initial: 1, max: 2, earn_every: null },
      archived_at: null,
    });
    expect((await ws.api('/v1/streaks/daily')).body).toEqual(created);
    expect((await trpc.streaks.list.query({ mode: 'test' })).data).toEqual([created]);
    expect((await trpc.streaks.list.query({ mode: 'live' })).data).toEqual([]);
    expect(await trpc.streaks.get.query({ mode: 'test', key: 'daily' })).toEqual(created);

    const refused = async (call: Promise<unknown>, fields: string[]) => {
      const error = await call.catch((e: unknown) => e);
      expect(error).toMatchObject({ data: { code: 'BAD_REQUEST', type: 'validation_error' } });
      expect(
        (error as { data: { errors: { field: string }[] } }).data.errors.map((e) => e.field).sort(),
      ).toEqual(fields.sort());
    };
    await refused(trpc.streaks.create.mutate({ mode: 'test', ...body }), ['key']);
    await refused(
      trpc.streaks.create.mutate({
        mode: 'test',
        ...body,
        key: 'bad key',
        event_types: [],
        freezes: { initial: 3, max: 2 },
      }),
      ['key', 'event_types', 'freezes.initial'],
    );
    await refused(trpc.streaks.update.mutate({ mode: 'test', key: 'daily', frequency: 'weekly' } as never), [
      '(input)',
    ]);

    const changed = await trpc.streaks.update.mutate({
      mode: 'test',
      key: 'daily',
      name: 'Every day',
      event_types: ['workout', 'run'],
    });
    expect(changed).toMatchObject({ name: 'Every day', event_types: ['workout', 'run'], frequency: 'daily' });
    const archived = await trpc.streaks.archive.mutate({ mode: 'test', key: 'daily' });
    expect(archived.archived_at).toEqual(expect.any(String));
    expect((await trpc.streaks.list.query({ mode: 'test' })).data).toEqual([]);
    expect((await trpc.streaks.list.query({ mode: 'test', includeArchived: true })).data).toEqual([archived]);
    await expect(trpc.streaks.archive.mutate({ mode: 'live', key: 'daily' })).rejects.toMatchObject({
      data: { type: 'not_found' },
    });
  });

  it('reads a participant’s streaks as the API does; an unknown participant is not found', async () => {
    const ws = await app.workspace();
    const trpc = await signedInDashboard(app, ws);
    await defineStreak(ws, { key: 'd', name: 'D', event_types: ['w'], frequency: 'daily' });
    await send(ws, 'p-1', 'w', daysAgo(1));
    await send(ws, 'p-1', 'w', daysAgo(0));
    const mine = await trpc.streaks.participant.query({ mode: 'test', externalId: 'p-1' });
    expect(mine.data[0]).toMatchObject({ key: 'd', length: 2, extended_this_period: true, at_risk: false });
    expect(mine).toEqual((await ws.api('/v1/participants/p-1/streaks')).body);
    await expect(
      trpc.streaks.participant.query({ mode: 'test', externalId: 'nobody' }),
    ).rejects.toMatchObject({
      data: { type: 'not_found' },
    });
  });
});

describe('the achievements procedures over tRPC', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  const criteria = {
    event_type: 'order.completed',
    aggregate: 'count' as const,
    window: 'all_time',
    target: 2,
  };

  it('defines and replaces a badge’s criteria, lists its rarity, backfills after a dry run, per mode', async () => {
    const ws = await app.workspace();
    const trpc = await signedInDashboard(app, ws);
    for (const p of ['a', 'a', 'b']) await send(ws, p, 'order.completed', daysAgo(0));
    const { badge, created } = await trpc.achievements.define.mutate({
      mode: 'test',
      key: 'duo',
      name: 'Duo',
      criteria,
    });
    expect(created).toBe(true);
    expect(badge.criteria).toEqual({ ...criteria, field: null, where: null, tier: null });
    const list = await trpc.achievements.badges.query({ mode: 'test' });
    expect(list).toEqual((await ws.api('/v1/badges')).body);
    expect(list.data[0]).toMatchObject({ key: 'duo', holders_count: 0, holders_percent: 0 });
    expect((await trpc.achievements.badges.query({ mode: 'live' })).data).toEqual([]);

    expect(await trpc.achievements.backfill.mutate({ mode: 'test', key: 'duo', dry_run: true })).toEqual({
      would_award: 1,
    });
    expect(await trpc.achievements.backfill.mutate({ mode: 'test', key: 'duo' })).toEqual({ queued: true });
    await eventually(
      async () => (await trpc.achievements.badges.query({ mode: 'test' })).data[0]?.holders_count === 1,
      20_000,
    );
    expect((await trpc.achievements.badges.query({ mode: 'test' })).data[0]?.holders_percent).toBe(50);
    const mine = await trpc.achievements.participant.query({ mode: 'test', externalId: 'a' });
    expect(mine).toEqual((await ws.api('/v1/participants/a/achievements')).body);
    expect(mine.data[0]).toMatchObject({ badge: { key: 'duo', tier: null }, progress: 2, percent: 100 });
    expect(
      (await trpc.achievements.participant.query({ mode: 'test', externalId: 'b' })).data[0],
    ).toMatchObject({
      progress: 1,
      percent: 50,
      completed_at: null,
    });

    // Replaced as a whole: the same key, criteria gone.
    const plain = await trpc.achievements.define.mutate({
      mode: 'test',
      key: 'duo',
      name: 'Duo',
      criteria: null,
    });
    expect(plain).toMatchObject({ created: false, badge: { criteria: null } });
    await expect(
      trpc.achievements.backfill.mutate({ mode: 'test', key: 'duo', dry_run: true }),
    ).rejects.toMatchObject({ data: { type: 'invalid_state' } });
    await expect(
      trpc.achievements.backfill.mutate({ mode: 'test', key: 'none', dry_run: true }),
    ).rejects.toMatchObject({ data: { type: 'not_found' } });
    await expect(
      trpc.achievements.participant.query({ mode: 'test', externalId: 'nobody' }),
    ).rejects.toMatchObject({
      data: { type: 'not_found' },
    });
  });

  it('refuses criteria with the fields the form shows them on, and stores nothing', async () => {
    const ws = await app.workspace();
    const trpc = await signedInDashboard(app, ws);
    const error = await trpc.achievements.define
      .mutate({
        mode: 'test',
        key: 'x',
        name: 'X',
        tiers: ['gold'],
        criteria: {
          event_type: 'bad type',
          aggregate: 'sum',
          window: 'soon',
          target: -1,
          where: { regex: [1, 2] },
          tier: 'silver',
        },
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ data: { code: 'BAD_REQUEST', type: 'validation_error' } });
    const fields = (error as { data: { errors: { field: string }[] } }).data.errors.map((e) => e.field);
    expect(fields).toEqual(
      expect.arrayContaining(['criteria.event_type', 'criteria.window', 'criteria.target', 'criteria.field']),
    );
    expect(fields.some((f) => f.startsWith('criteria.where'))).toBe(true);
    expect((await trpc.achievements.badges.query({ mode: 'test' })).data).toEqual([]);
  });
});

describe('the streak form’s logic', () => {
  const stored: Streak = {
    key: 'wk',
    name: 'Weekly',
    event_types: ['a', 'b'],
    frequency: 'weekly',
    freezes: { initial: 1, max: 3, earn_every: 4 },
    archived_at: null,
    created_at: '2026-11-01T00:00:00.000Z',
    updated_at: '2026-11-01T00:00:00.000Z',
  };

  it('round-trips a definition and sends only what a change may change', () => {
    const form = toForm(stored);
    expect(createBody(form)).toEqual({
      key: 'wk',
      name: 'Weekly',
      event_types: ['a', 'b'],
      frequency: 'weekly',
      freezes: { initial: 1, max: 3, earn_every: 4 },
    });
    expect(updateBody({ ...form, earnEvery: '' })).toEqual({
      name: 'Weekly',
      event_types: ['a', 'b'],
      freezes: { initial: 1, max: 3 },
    });
    // A blank count goes as a value the service refuses on its field, not as a guess.
    expect(Number.isNaN(createBody({ ...toForm(null), freezesMax: '' }).freezes?.max)).toBe(true);
  });

  it('tells freezes, lengths and periods in words', () => {
    expect(describeFreezes(stored)).toBe('1 to start, up to 3, +1 every 4 weeks');
    expect(describeFreezes({ ...stored, freezes: { initial: 0, max: 0, earn_every: null } })).toBe('None');
    expect(
      describeFreezes({ ...stored, frequency: 'daily', freezes: { initial: 0, max: 1, earn_every: 1 } }),
    ).toBe('0 to start, up to 1, +1 every day');
    expect(lengthText(1, 'daily')).toBe('1 day');
    expect(lengthText(3, 'monthly')).toBe('3 months');
    expect(periodLabel('2026-11-02', 'weekly')).toBe('week of 2026-11-02');
    expect(periodLabel('2026-11-01', 'monthly')).toBe('November 2026');
    expect(periodLabel('2026-11-05', 'daily')).toBe('2026-11-05');
    expect(
      historyCounts([
        { period_start: 'a', status: 'missed' },
        { period_start: 'b', status: 'extended' },
        { period_start: 'c', status: 'extended' },
      ]),
    ).toEqual({ extended: 2, frozen: 0, missed: 1 });
  });
});

describe('the badge form’s logic', () => {
  const stored: Badge = {
    key: 'big',
    name: 'Big',
    description: null,
    image_url: null,
    tiers: ['gold'],
    criteria: {
      event_type: 'purchase',
      aggregate: 'sum',
      field: 'order.total',
      window: 'P30D',
      target: 500,
      where: { '==': [{ var: 'payload.channel' }, 'web'] },
      tier: 'gold',
    },
    holders_count: 3,
    holders_percent: 12.5,
  };

  it('round-trips a badge with criteria and drops criteria when it is not an achievement', () => {
    const { body, errors } = toBadgeBody(toBadgeForm(stored));
    expect(errors).toEqual({});
    expect(body).toEqual({
      key: 'big',
      name: 'Big',
      description: null,
      image_url: null,
      tiers: ['gold'],
      criteria: {
        event_type: 'purchase',
        aggregate: 'sum',
        field: 'order.total',
        window: 'P30D',
        target: 500,
        where: { '==': [{ var: 'payload.channel' }, 'web'] },
        tier: 'gold',
      },
    });
    expect(toBadgeBody({ ...toBadgeForm(stored), achievement: false }).body.criteria).toBeNull();
    // A count sends no field, all time no duration, a blank where nothing, no tier nothing.
    const count = toBadgeBody({
      ...toBadgeForm(stored),
      aggregate: 'count',
      windowKind: 'all_time',
      where: ' ',
      tier: null,
    }).body.criteria;
    expect(count).toEqual({ event_type: 'purchase', aggregate: 'count', window: 'all_time', target: 500 });
    expect(toBadgeBody({ ...toBadgeForm(stored), where: '{ nope' }).errors).toEqual({
      'criteria.where': expect.stringMatching(/^Invalid JSON/),
    });
    expect(toBadgeForm(null)).toMatchObject({
      achievement: true,
      aggregate: 'count',
      windowKind: 'all_time',
    });
  });

  it('summarises criteria in one line and places the service’s errors on their inputs', () => {
    expect(describeCriteria(stored.criteria!)).toBe(
      'Σ order.total ≥ 500 of purchase in P30D where {"==":[{"var":"payload.channel"},"web"]}, tier gold',
    );
    expect(
      describeCriteria({
        ...stored.criteria!,
        aggregate: 'count',
        field: null,
        window: 'all_time',
        where: null,
        tier: null,
        target: 1200,
      }),
    ).toBe('1,200 × purchase, all time');
    expect(formatShare(12.5)).toBe('12.5%');
    expect(formatShare(33.333)).toBe('33.33%');
    expect(inputOf('criteria.where.and.0')).toBe('criteria.where');
    expect(inputOf('tiers.1')).toBe('tiers');
    expect(inputOf('criteria.target')).toBe('criteria.target');
    expect(inputOf('colour')).toBeNull();
  });
});

describe('the flow form’s trigger', () => {
  it('sends event_type or a whole trigger, never both, and checks the one input each needs', () => {
    const event = triggerDraftOf({ event_type: 'order.completed', trigger: null });
    expect(event).toEqual({ kind: 'event', eventType: 'order.completed', after: '', activityTypes: [] });
    expect(triggerBody(event)).toEqual({ event_type: 'order.completed' });
    const idle = triggerDraftOf({
      event_type: null,
      trigger: { type: 'inactivity', after: 'P30D', event_types: null },
    });
    expect(idle).toEqual({ kind: 'inactivity', eventType: '', after: 'P30D', activityTypes: [] });
    expect(triggerBody(idle)).toEqual({ trigger: { type: 'inactivity', after: 'P30D' } });
    expect(triggerBody({ ...idle, after: ' P2W ', activityTypes: ['a', 'b'] })).toEqual({
      trigger: { type: 'inactivity', after: 'P2W', event_types: ['a', 'b'] },
    });
    expect(triggerErrors({ ...idle, after: ' ' })).toEqual({ 'trigger.after': 'Required' });
    expect(triggerErrors({ ...event, eventType: '' })).toEqual({ event_type: 'Required' });
    expect(triggerErrors(idle)).toEqual({});
  });

  it('tells what runs a flow and places trigger errors on their inputs', () => {
    expect(describeTrigger({ event_type: 'order.completed', trigger: null })).toBe('order.completed events');
    expect(
      describeTrigger({
        event_type: null,
        trigger: { type: 'inactivity', after: 'P30D', event_types: null },
      }),
    ).toBe('P30D without any event');
    expect(
      describeTrigger({
        event_type: null,
        trigger: { type: 'inactivity', after: 'P2W', event_types: ['a', 'b'] },
      }),
    ).toBe('P2W without a or b');
    expect(triggerFieldOf('trigger.after')).toBe('trigger.after');
    expect(triggerFieldOf('trigger.event_types.1')).toBe('trigger.event_types');
    expect(triggerFieldOf('trigger.type')).toBe('trigger');
    expect(triggerFieldOf('trigger')).toBe('trigger');
    expect(triggerFieldOf('event_type')).toBeNull();
  });
});
