import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
      const types = dialog.getByLabel(/^Event types/);
      await types.fill('workout.completed');
      await types.press('Enter');
      await dialog.getByLabel(/^Freezes to start with/).fill('3');
      await dialog.getByLabel(/^Most freezes held/).fill('2');
      await dialog.getByRole('button', { name: 'Create streak' }).click();
      // The key's pattern and the freezes' order, named by the service beside their inputs.
      const key = dialog.getByLabel(/^Key/);
      await expect.poll(() => key.getAttribute('aria-invalid')).toBe('true');
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
      await edit.getByLabel(/^Event types/).fill('class.attended');
      await edit.getByLabel(/^Event types/).press('Enter');
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
    });

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
    });
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
