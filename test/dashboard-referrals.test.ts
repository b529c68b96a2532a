import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uuidv7 } from '../src/lib/uuid7.ts';
import type { Mode } from '../src/services/keys/principal.ts';
import {
  describeProgram,
  filtersFromParams,
  fromForm,
  listInput,
  type Program,
  paramsFromFilters,
  sameProgram,
  toForm,
} from '../web/dashboard/src/pages/referrals/logic.ts';
import { skipBrowser } from './browser.ts';
import { type Dashboard, openDashboard } from './dashboard-browser.ts';
import { buildParticipant } from './factories.ts';
import { eventually, signedInDashboard, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

// The Referrals page (the programme's form with the service's refusals, the referrals with their
// filters and the claw-back of a qualified one) and a participant's code and referrals, as a person
// uses them in Chromium; the referrals procedures over tRPC; the page's pure logic. Referral rows
// are mostly written with SQL as the engine leaves them (test/referrals-api.test.ts does the same),
// so each status is set up directly; one is made for real by events through the engine.

/** How long a poll waits for the service's answer to show: the machine is shared, so longer than vitest's 1 s. */
const WAIT = { timeout: 10_000 };
const SHOTS = '/tmp/shots-referrals';
const DAY = 86_400_000;

type Status = 'pending' | 'qualified' | 'rewarded' | 'blocked' | 'expired' | 'clawed_back';

/** A referral of `advocate` to `friend` in `status`, with the times that status has (and the advocate's grants). */
async function referral(
  app: TestApp,
  ws: TestWorkspace,
  advocateId: number,
  friendId: number,
  status: Status,
  opts: { reason?: string; grantIds?: string[]; mode?: Mode; ageDays?: number } = {},
): Promise<string> {
  const now = Date.now();
  const created = now - (opts.ageDays ?? 2) * DAY;
  const qualified = ['qualified', 'rewarded', 'clawed_back'].includes(status);
  const id = uuidv7();
  await app.ctx.pool.query(
    `insert into referrals (id, workspace_id, mode, code, advocate_id, friend_id, status, reason, event_id,
       qualifying_event_id, created_at, expires_at, qualified_at, reward_available_at, rewarded_at, grant_ids)
     values ($1, $2, $3, 'REF-ACDEFGHJ', $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
    [
      id,
      ws.id,
      opts.mode ?? 'test',
      advocateId,
      friendId,
      status,
      status === 'blocked' ? (opts.reason ?? 'same_email') : null,
      uuidv7(),
      qualified ? uuidv7() : null,
      new Date(created),
      status === 'blocked' ? null : new Date(created + 30 * DAY),
      qualified ? new Date(created + DAY) : null,
      qualified ? new Date(status === 'rewarded' ? now - DAY : now + 14 * DAY) : null,
      status === 'rewarded' ? new Date(now - DAY) : null,
      opts.grantIds ?? null,
    ],
  );
  return id;
}

/** A pending grant of `points` for the participant (the advocate's reward during the hold). */
async function pendingGrant(app: TestApp, ws: TestWorkspace, participantId: number, points: number) {
  const id = uuidv7();
  await app.ctx.pool.query(
    `insert into pending_grants (id, workspace_id, mode, participant_id, points, available_at, status, idempotency_key)
     values ($1, $2, 'test', $3, $4, now() + interval '14 days', 'pending', $5)`,
    [id, ws.id, participantId, points, `test:${id}`],
  );
  await app.ctx.pool.query(`update participants set pending_points = pending_points + $2 where id = $1`, [
    participantId,
    points,
  ]);
  return id;
}

/** Sends one event (test mode) and waits for it to be processed. */
async function send(ws: TestWorkspace, participant: string | Record<string, unknown>, type: string) {
  const r = await ws.api('/v1/events', { body: { event_type: type, participant, payload: {} } });
  expect(r.status, r.text).toBe(202);
  const id = r.body.event_id as string;
  await eventually(async () => (await ws.api(`/v1/events/${id}`)).body.status === 'processed', 15_000);
}

const grantStatus = async (app: TestApp, id: string) =>
  (await app.ctx.pool.query(`select status from pending_grants where id = $1`, [id])).rows[0]?.status;

const PROGRAMME = {
  qualifying_event_type: 'order.completed',
  qualify_within: 'P30D',
  hold: 'P14D',
  friend_actions: [{ type: 'award_points' as const, points: 100, reason: 'Welcome' }],
  advocate_actions: [
    { type: 'award_points' as const, points: 500 },
    { type: 'award_badge' as const, badge: 'recruiter' },
  ],
};

describe.skipIf(skipBrowser)('the Referrals page in a real browser (Chromium)', () => {
  let d: Dashboard;
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    // The loyalty job every second: it writes a qualified referral's advocate points as pending.
    d = await openDashboard({ env: { LOYALTY_TICK_SECONDS: '1' } });
    d.page.setDefaultTimeout(10_000);
  });
  afterAll(() => d?.close());

  /** A whole-page screenshot to look at, in /tmp/shots-referrals, beside the viewport one in artifacts/screenshots. */
  async function shots(name: string) {
    await d.shot(`referrals-${name}`);
    await d.page.evaluate(() => window.scrollTo(0, 0));
    await d.page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  }

  it('offers to set a programme up, shows the service’s refusals beside their fields, then saves it', async () => {
    const { page, ws } = d;
    await d.goto('/');
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Referrals' }).click();
    await page.getByRole('heading', { name: 'Referrals', level: 2 }).waitFor();
    expect(page.url()).toBe(`${d.app.url}/dashboard/referrals`);
    const nav = await page.getByRole('navigation', { name: 'Sections' }).getByRole('link').allTextContents();
    expect(nav.slice(nav.indexOf('Achievements'), nav.indexOf('Achievements') + 2)).toEqual([
      'Achievements',
      'Referrals',
    ]);
    await page.getByTestId('no-program').waitFor();
    expect(await page.getByTestId('no-program').textContent()).toContain(
      'No referral programme in test mode yet',
    );
    await page.getByTestId('empty-state').waitFor();
    await page.mouse.move(700, 850);
    await shots('empty');
    await d.checkA11y();

    await page.getByRole('link', { name: 'Set up the programme' }).click();
    await page.getByRole('tab', { name: 'Programme', selected: true }).waitFor();
    expect(page.url()).toBe(`${d.app.url}/dashboard/referrals/program`);
    const form = page.getByRole('form', { name: 'Referral programme' });
    await page.getByTestId('no-program').waitFor();
    // A new programme starts from a 30-day window and a 14-day hold, active, without a limit.
    expect(await form.getByLabel(/^Qualify within/).inputValue()).toBe('P30D');
    expect(await form.getByLabel(/^Hold/).inputValue()).toBe('P14D');
    expect(await form.getByLabel('Active').isChecked()).toBe(true);

    // Everything wrong at once: no event type, a window that is no duration, a negative hold, a
    // friend's points left blank, an advocate's badge without a key, a limit without a number.
    await form.getByLabel(/^Qualify within/).fill('soon');
    await form.getByLabel(/^Hold/).fill('-P1D');
    await form.getByRole('button', { name: 'Add points for the friend' }).click();
    await form.getByRole('button', { name: 'Add badge for the advocate' }).click();
    await form.getByLabel('Limit referrals per advocate').check();
    await form.getByRole('button', { name: 'Set up programme' }).click();
    const invalid = (label: string | RegExp) => form.getByLabel(label).getAttribute('aria-invalid');
    await expect.poll(() => invalid(/^Qualifying event type/), WAIT).toBe('true');
    expect(await invalid(/^Qualify within/)).toBe('true');
    expect(await invalid(/^Hold/)).toBe('true');
    expect(await invalid('Friend action 1 points')).toBe('true');
    expect(await invalid('Advocate action 1 badge')).toBe('true');
    expect(await invalid(/^Most referrals/)).toBe('true');
    await form.getByText('must be a positive ISO 8601 duration, e.g. P12M, P30D or PT30S').waitFor();
    await form.getByText('must be an ISO 8601 duration, e.g. P30D, or PT0S for none').waitFor();
    // Every refusal is beside its field: none is repeated in a notification.
    expect(await page.locator('.mantine-Notification-root').count()).toBe(0);
    expect((await ws.api('/v1/referrals/program')).status).toBe(404);
    await page.mouse.move(10, 10);
    await shots('programme-invalid');
    await d.checkA11y();

    await form.getByLabel(/^Qualifying event type/).fill('order.completed');
    await form.getByLabel(/^Qualify within/).fill('P30D');
    await form.getByLabel(/^Hold/).fill('P14D');
    await form.getByLabel('Friend action 1 points').fill('100');
    await form.getByLabel('Friend action 1 reason').fill('Welcome');
    // The advocate: points first, then the badge row already there.
    await form.getByRole('button', { name: 'Remove advocate action 1' }).click();
    await form.getByRole('button', { name: 'Add points for the advocate' }).click();
    await form.getByLabel('Advocate action 1 points').fill('500');
    await form.getByRole('button', { name: 'Add badge for the advocate' }).click();
    await form.getByLabel('Advocate action 2 badge').fill('recruiter');
    await form.getByLabel(/^Most referrals/).fill('5');
    await form.getByRole('button', { name: 'Set up programme' }).click();
    await page.getByText('Referral programme set up').waitFor();
    const saved = (await ws.api('/v1/referrals/program')).body;
    expect(saved).toEqual({
      ...PROGRAMME,
      advocate_limit: { period: 'month', max: 5 },
      active: true,
      updated_at: expect.any(String),
    });
    // The badge an action names exists from then on.
    expect((await ws.api('/v1/badges')).body.data.map((b: { key: string }) => b.key)).toContain('recruiter');
    const summary = page.getByTestId('program-summary');
    await summary.waitFor();
    expect(await summary.textContent()).toContain(
      'A friend’s first order.completed within P30D qualifies their referral: the friend gets 100 points (Welcome), the advocate 500 points, badge recruiter after a hold of P14D. At most 5 per advocate per month.',
    );
    expect(await form.getByRole('button', { name: 'Save programme' }).isDisabled()).toBe(true);

    // A change: paused, without a limit; the PUT replaces it whole.
    await form.getByLabel('Limit referrals per advocate').uncheck();
    await form.getByLabel('Active').uncheck();
    await form.getByRole('button', { name: 'Save programme' }).click();
    await page.getByText('Referral programme saved').waitFor();
    expect((await ws.api('/v1/referrals/program')).body).toMatchObject({
      advocate_limit: null,
      active: false,
    });
    await expect.poll(() => summary.textContent(), WAIT).toContain('paused');
    await page.mouse.move(10, 10);
    await shots('programme');
    await d.checkA11y();
    // Back on for what follows.
    await form.getByLabel('Active').check();
    await form.getByRole('button', { name: 'Save programme' }).click();
    await expect.poll(async () => (await ws.api('/v1/referrals/program')).body.active, WAIT).toBe(true);
    expect(d.problems).toEqual([]);
  }, 90_000);

  it('lists referrals with their status, filters them, and claws a qualified one back after a confirmation', async () => {
    const { page, ws, app } = d;
    const ada = await buildParticipant(app, ws, { externalId: 'ada' });
    const bob = await buildParticipant(app, ws, { externalId: 'bob' });
    const friend = (externalId: string) => buildParticipant(app, ws, { externalId });
    const grant = await pendingGrant(app, ws, ada.id, 500);
    await referral(app, ws, bob.id, (await friend('fay')).id, 'rewarded', { ageDays: 20 });
    await referral(app, ws, bob.id, (await friend('gus')).id, 'blocked', {
      reason: 'same_email',
      ageDays: 4,
    });
    await referral(app, ws, ada.id, (await friend('hal')).id, 'pending', { ageDays: 3 });
    const qualified = await referral(app, ws, ada.id, (await friend('ivy')).id, 'qualified', {
      grantIds: [grant],
      ageDays: 2,
    });
    expect((await ws.api('/v1/participants/ada')).body.pending_points).toBe(500);

    await d.goto('/referrals');
    const table = page.getByRole('table', { name: 'Referrals' });
    await table.waitFor();
    const rowOf = (friendId: string) => table.getByRole('row').filter({ hasText: friendId });
    const cells = async (friendId: string) => rowOf(friendId).locator('td').allTextContents();
    // Newest first: advocate, friend, status, reason, created, qualified, reward available, rewarded.
    expect(await table.locator('tbody tr').count()).toBe(4);
    expect((await table.locator('tbody tr td:nth-child(2)').allTextContents()).map((t) => t.trim())).toEqual([
      'ivy',
      'hal',
      'gus',
      'fay',
    ]);
    const ivy = await cells('ivy');
    expect(ivy.slice(0, 4)).toEqual(['ada', 'ivy', 'qualified', '—']);
    expect(ivy[5]).toMatch(/UTC$/);
    expect(ivy[6]).toMatch(/UTC$/);
    expect(ivy.slice(7)).toEqual(['—', 'Cancel']);
    expect((await cells('gus')).slice(0, 4)).toEqual([
      'bob',
      'gus',
      'blocked',
      'Same e-mail as the advocate',
    ]);
    expect((await cells('hal')).slice(2, 4)).toEqual(['pending', '—']);
    const fay = await cells('fay');
    expect(fay[2]).toBe('rewarded');
    expect(fay[7]).toMatch(/UTC$/);
    // Only the qualified one can be cancelled.
    expect(await table.getByRole('button', { name: /^Cancel/ }).count()).toBe(1);
    await page.mouse.move(10, 10);
    await shots('list');
    await d.checkA11y();

    // By status, then by advocate; the filters live in the URL.
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'blocked' }).click();
    await expect.poll(() => table.locator('tbody tr').count(), WAIT).toBe(1);
    expect(new URL(page.url()).searchParams.get('status')).toBe('blocked');
    expect((await cells('gus'))[2]).toBe('blocked');
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => table.locator('tbody tr').count(), WAIT).toBe(4);
    await page.getByRole('textbox', { name: 'Advocate' }).fill('ada');
    await page.getByRole('textbox', { name: 'Advocate' }).press('Enter');
    await expect.poll(() => table.locator('tbody tr').count(), WAIT).toBe(2);
    expect(new URL(page.url()).searchParams.get('advocate')).toBe('ada');
    expect(
      (await table.locator('tbody tr td:nth-child(1)').allTextContents()).every((t) => t === 'ada'),
    ).toBe(true);
    await page.getByRole('textbox', { name: 'Advocate' }).fill('nobody');
    await page.getByRole('textbox', { name: 'Advocate' }).press('Enter');
    await page.getByText('No referral matches these filters.').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => table.locator('tbody tr').count(), WAIT).toBe(4);

    // The cancel says what it does first; dismissing it changes nothing.
    await rowOf('ivy').getByRole('button', { name: 'Cancel the referral of ivy' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel the referral of ivy?' });
    await dialog.waitFor();
    const text = await dialog.textContent();
    expect(text).toContain('ada’s points for this referral are still pending');
    expect(text).toContain('Cancelling claws them back');
    await page.mouse.move(10, 10);
    await d.checkA11y();
    await shots('cancel-confirm');
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await ws.api(`/v1/referrals/${qualified}`)).body.status).toBe('qualified');

    await rowOf('ivy').getByRole('button', { name: 'Cancel the referral of ivy' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel referral' }).click();
    await page.getByText('Referral of ivy cancelled: ada’s pending points clawed back').waitFor();
    await expect.poll(async () => (await cells('ivy'))[2], WAIT).toBe('clawed back');
    expect(await rowOf('ivy').getByRole('button').count()).toBe(0);
    const after = (await ws.api(`/v1/referrals/${qualified}`)).body;
    expect(after).toMatchObject({ status: 'clawed_back', clawed_back_at: expect.any(String) });
    expect(await grantStatus(app, grant)).toBe('cancelled');
    expect((await ws.api('/v1/participants/ada')).body.pending_points).toBe(0);

    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'clawed back' }).click();
    await expect.poll(() => table.locator('tbody tr').count(), WAIT).toBe(1);
    await page.mouse.move(10, 10);
    await shots('clawed-back');
    await d.checkA11y();
    expect(d.problems).toEqual([]);
  }, 90_000);

  it('shows a participant’s referral code and their referrals as advocate', async () => {
    const { page, ws } = d;
    const code = (await ws.api('/v1/participants/ada/referral-code')).body.code as string;
    expect(code).toMatch(/^REF-[34679ACDEFGHJKMNPQRTUVWXY]{8}$/);
    await d.goto('/participants/ada');
    await page.getByRole('heading', { name: 'ada', level: 2 }).waitFor();
    await page.getByTestId('referral-code').waitFor();
    expect(await page.getByTestId('referral-code').textContent()).toBe(code);
    const table = page.getByRole('table', { name: 'Referrals by ada' });
    await table.waitFor();
    expect((await table.locator('tbody tr td:nth-child(1)').allTextContents()).map((t) => t.trim())).toEqual([
      'ivy',
      'hal',
    ]);
    expect((await table.locator('tbody tr td:nth-child(2)').allTextContents()).map((t) => t.trim())).toEqual([
      'clawed back',
      'pending',
    ]);
    await page.getByRole('heading', { name: 'Referrals', level: 3 }).scrollIntoViewIfNeeded();
    await page.mouse.move(10, 10);
    await d.page.screenshot({ path: `${SHOTS}/participant-viewport.png` });
    await shots('participant');
    await d.checkA11y();

    // A participant who referred nobody gets a code all the same (made on this first read).
    await d.goto('/participants/gus');
    await page.getByTestId('referral-code').waitFor();
    expect(await page.getByTestId('referral-code').textContent()).toBe(
      (await ws.api('/v1/participants/gus/referral-code')).body.code,
    );
    await page.getByText('They have referred nobody yet.').waitFor();
    await page.getByRole('link', { name: 'Open in Referrals' }).click();
    await page.getByRole('heading', { name: 'Referrals', level: 2 }).waitFor();
    expect(new URL(page.url()).searchParams.get('advocate')).toBe('gus');
    await page.getByText('No referral matches these filters.').waitFor();
    expect(d.problems).toEqual([]);
  }, 60_000);

  it('shows a referral the engine made from events, qualified by the friend’s order, and claws it back', async () => {
    const { page, ws } = d;
    await send(ws, 'zed', 'signed_up');
    const code = (await ws.api('/v1/participants/zed/referral-code')).body.code as string;
    await send(ws, { external_id: 'yan', referral_code: code }, 'signed_up');

    await d.goto('/referrals?advocate=zed');
    const table = page.getByRole('table', { name: 'Referrals' });
    const yan = table.getByRole('row').filter({ hasText: 'yan' });
    await yan.waitFor();
    expect((await yan.locator('td').allTextContents()).slice(0, 4)).toEqual(['zed', 'yan', 'pending', '—']);
    expect(await table.locator('tbody tr').count()).toBe(1);

    // The friend's first order qualifies it: the friend's points at once, the advocate's pending
    // once the job has written them.
    await send(ws, 'yan', 'order.completed');
    expect((await ws.api('/v1/participants/yan')).body.balance).toBe(100);
    await expect.poll(async () => (await ws.api('/v1/participants/zed')).body.pending_points, WAIT).toBe(500);
    await page.reload();
    await expect.poll(async () => (await yan.locator('td').allTextContents())[2], WAIT).toBe('qualified');
    await yan.getByRole('button', { name: 'Cancel the referral of yan' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel referral' }).click();
    await page.getByText('Referral of yan cancelled: zed’s pending points clawed back').waitFor();
    await expect.poll(async () => (await yan.locator('td').allTextContents())[2], WAIT).toBe('clawed back');
    expect((await ws.api('/v1/participants/zed')).body).toMatchObject({ balance: 0, pending_points: 0 });
    // The friend keeps what they were given.
    expect((await ws.api('/v1/participants/yan')).body.balance).toBe(100);
    await page.mouse.move(10, 10);
    await shots('engine-clawed-back');
    await d.checkA11y();
    expect(d.problems).toEqual([]);
  }, 60_000);
});

describe('the referrals procedures over tRPC', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  const refused = async (call: Promise<unknown>, fields: string[]) => {
    const error = await call.catch((e: unknown) => e);
    expect(error).toMatchObject({ data: { code: 'BAD_REQUEST', type: 'validation_error' } });
    expect(
      (error as { data: { errors: { field: string }[] } }).data.errors.map((e) => e.field).sort(),
    ).toEqual(fields.sort());
  };

  it('reads no programme as null, puts one whole through the service’s checks, one per mode', async () => {
    const ws = await app.workspace();
    const trpc = await signedInDashboard(app, ws);
    expect(await trpc.referrals.program.get.query({ mode: 'test' })).toBeNull();
    await refused(
      trpc.referrals.program.put.mutate({
        mode: 'test',
        ...PROGRAMME,
        qualify_within: 'soon',
        hold: '-P1D',
        friend_actions: [{ type: 'award_points', points: 0 }],
        advocate_limit: { period: 'month', max: 0 },
      }),
      ['qualify_within', 'hold', 'friend_actions.0.points', 'advocate_limit.max'],
    );
    const saved = await trpc.referrals.program.put.mutate({ mode: 'test', ...PROGRAMME });
    expect(saved).toEqual({
      ...PROGRAMME,
      advocate_limit: null,
      active: true,
      updated_at: expect.any(String),
    });
    expect(await trpc.referrals.program.get.query({ mode: 'test' })).toEqual(saved);
    expect((await ws.api('/v1/referrals/program')).body).toEqual(saved);
    expect(await trpc.referrals.program.get.query({ mode: 'live' })).toBeNull();
  });

  it('lists, shows and cancels referrals as the API does; reads a participant’s code', async () => {
    const ws = await app.workspace();
    const trpc = await signedInDashboard(app, ws);
    const ada = await buildParticipant(app, ws, { externalId: 'ada' });
    const grant = await pendingGrant(app, ws, ada.id, 300);
    const pending = await referral(
      app,
      ws,
      ada.id,
      (await buildParticipant(app, ws, { externalId: 'f1' })).id,
      'pending',
      { ageDays: 3 },
    );
    const qualified = await referral(
      app,
      ws,
      ada.id,
      (await buildParticipant(app, ws, { externalId: 'f2' })).id,
      'qualified',
      { grantIds: [grant] },
    );
    const list = await trpc.referrals.list.query({ mode: 'test' });
    expect(list.data.map((r) => r.id)).toEqual([qualified, pending]);
    expect(list.data).toEqual((await ws.api('/v1/referrals')).body.data);
    expect(
      (await trpc.referrals.list.query({ mode: 'test', status: 'pending' })).data.map((r) => r.id),
    ).toEqual([pending]);
    expect((await trpc.referrals.list.query({ mode: 'test', advocate: 'f1' })).data).toEqual([]);
    expect((await trpc.referrals.list.query({ mode: 'live' })).data).toEqual([]);
    const page1 = await trpc.referrals.list.query({ mode: 'test', limit: 1 });
    expect(page1.data.map((r) => r.id)).toEqual([qualified]);
    const page2 = await trpc.referrals.list.query({ mode: 'test', limit: 1, cursor: page1.nextCursor! });
    expect(page2.data.map((r) => r.id)).toEqual([pending]);
    expect(await trpc.referrals.get.query({ mode: 'test', id: pending })).toEqual(
      (await ws.api(`/v1/referrals/${pending}`)).body,
    );
    for (const id of ['not-a-uuid', uuidv7()])
      await expect(trpc.referrals.get.query({ mode: 'test', id })).rejects.toMatchObject({
        data: { type: 'not_found' },
      });

    await expect(trpc.referrals.cancel.mutate({ mode: 'test', id: pending })).rejects.toMatchObject({
      data: { code: 'CONFLICT', type: 'invalid_state' },
    });
    await expect(trpc.referrals.cancel.mutate({ mode: 'live', id: qualified })).rejects.toMatchObject({
      data: { type: 'not_found' },
    });
    const cancelled = await trpc.referrals.cancel.mutate({ mode: 'test', id: qualified });
    expect(cancelled).toMatchObject({
      id: qualified,
      status: 'clawed_back',
      clawed_back_at: expect.any(String),
    });
    expect(await grantStatus(app, grant)).toBe('cancelled');
    expect((await ws.api('/v1/participants/ada')).body.pending_points).toBe(0);

    const code = await trpc.referrals.code.query({ mode: 'test', externalId: 'ada' });
    expect(code).toEqual((await ws.api('/v1/participants/ada/referral-code')).body);
    expect(await trpc.referrals.code.query({ mode: 'test', externalId: 'ada' })).toEqual(code);
    await expect(trpc.referrals.code.query({ mode: 'test', externalId: 'nobody' })).rejects.toMatchObject({
      data: { type: 'not_found' },
    });
  });
});

describe('the Referrals page’s logic', () => {
  const stored: Program = {
    ...PROGRAMME,
    advocate_actions: [...PROGRAMME.advocate_actions, { type: 'award_badge', badge: 'star', tier: 'gold' }],
    advocate_limit: { period: 'week', max: 3 },
    active: true,
    updated_at: '2026-11-28T00:00:00.000Z',
  };

  it('turns a stored programme into the form and back unchanged', () => {
    const { updated_at: _u, ...input } = stored;
    expect(fromForm(toForm(stored))).toEqual(input);
    expect(sameProgram(stored, toForm(stored))).toBe(true);
    expect(sameProgram(null, toForm(null))).toBe(false);
    expect(sameProgram(stored, { ...toForm(stored), hold: 'P7D' })).toBe(false);
  });

  it('sends a new form’s blanks for the service to name: blank numbers as NaN, no limit as null', () => {
    const form = toForm(null);
    expect(form).toMatchObject({ qualify_within: 'P30D', hold: 'P14D', limited: false, active: true });
    const body = fromForm({
      ...form,
      qualifying_event_type: '  signup  ',
      friend_actions: [{ id: 1, type: 'award_points', points: '', reason: ' ', badge: '', tier: '' }],
      advocate_actions: [{ id: 2, type: 'award_badge', points: 5, reason: '', badge: ' vip ', tier: '' }],
    });
    expect(body.qualifying_event_type).toBe('signup');
    expect(body.friend_actions).toEqual([{ type: 'award_points', points: Number.NaN }]);
    expect(body.advocate_actions).toEqual([{ type: 'award_badge', badge: 'vip' }]);
    expect(body.advocate_limit).toBeNull();
    expect(fromForm({ ...form, limited: true, limit_max: '' }).advocate_limit).toEqual({
      period: 'month',
      max: Number.NaN,
    });
  });

  it('describes a programme in a sentence', () => {
    expect(describeProgram(stored)).toBe(
      'A friend’s first order.completed within P30D qualifies their referral: the friend gets 100 points (Welcome), the advocate 500 points, badge recruiter, badge star (gold) after a hold of P14D. At most 3 per advocate per week.',
    );
    expect(describeProgram({ ...stored, friend_actions: [], advocate_limit: null })).toContain(
      'the friend gets nothing',
    );
  });

  it('keeps only known statuses from the URL and sends only the filters set', () => {
    expect(filtersFromParams(new URLSearchParams('status=clawed_back&advocate=ada'))).toEqual({
      status: 'clawed_back',
      advocate: 'ada',
    });
    expect(filtersFromParams(new URLSearchParams('status=bogus'))).toEqual({ status: '', advocate: '' });
    expect(paramsFromFilters({ status: '', advocate: ' ada ' }).toString()).toBe('advocate=ada');
    expect(listInput({ status: 'pending', advocate: ' ' })).toEqual({ status: 'pending' });
  });
});
