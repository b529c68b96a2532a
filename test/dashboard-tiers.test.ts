import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addLevel,
  blankLevel,
  describeProgramme,
  fromForm,
  moveLevel,
  type Programme,
  previewRows,
  sameProgramme,
  toForm,
} from '../web/dashboard/src/pages/tiers/logic.ts';
import { skipBrowser } from './browser.ts';
import { type Dashboard, openDashboard } from './dashboard-browser.ts';
import { eventually, signedInDashboard, startTestApp, type TestApp, type TestWorkspace } from './helpers.ts';

// The Tiers page and a participant's tier section as a person uses them, in Chromium; the
// dashboard's tiers procedures over tRPC; the form's pure logic.

const ok = (res: { status: number; text: string }) => expect(res.status, res.text).toBeLessThan(300);

const adjust = async (ws: TestWorkspace, id: string, points: number, mode: 'live' | 'test' = 'test') =>
  ok(await ws.api(`/v1/participants/${id}/points`, { body: { points, reason: 'purchase' }, mode }));

const LEVELS = [
  { key: 'bronze', name: 'Bronze', threshold: 0 },
  { key: 'silver', name: 'Silver', threshold: 100 },
  { key: 'gold', name: 'Gold', threshold: 500, earn_multiplier: 1.5 },
];

describe.skipIf(skipBrowser)('the tiers page and a participant’s tier in a real browser (Chromium)', () => {
  let d: Dashboard;
  beforeAll(async () => {
    // A one-second tier job, so a saved programme reaches the participants within the test.
    d = await openDashboard({ env: { LOYALTY_TICK_SECONDS: '1' } });
    d.page.setDefaultTimeout(10_000);
  });
  afterAll(() => d?.close());

  /** A whole-page screenshot in /tmp, beside the viewport one in artifacts/screenshots, to look at. */
  async function shots(name: string) {
    await d.shot(name);
    await d.page.evaluate(() => window.scrollTo(0, 0));
    await d.page.screenshot({ path: `/tmp/${name}.png`, fullPage: true });
  }

  it('defines a programme, shows the service’s refusals on their fields, previews the change and saves it', async () => {
    const { page, ws } = d;
    await adjust(ws, 'tier-ada', 600);
    await adjust(ws, 'tier-bob', 150);
    await adjust(ws, 'tier-cy', 20);
    await d.goto('/');
    await page.getByRole('link', { name: 'Tiers' }).click();
    await page.getByRole('heading', { name: 'Tiers', level: 2 }).waitFor();
    expect(page.url()).toBe(`${d.app.url}/dashboard/tiers`);
    await page.getByText('No tier programme runs in test mode').waitFor();
    await page.mouse.move(700, 850);
    await d.checkA11y();
    // The nav lists the page beside the programme's settings.
    const nav = await page.getByRole('navigation', { name: 'Sections' }).getByRole('link').allTextContents();
    expect(nav.slice(nav.indexOf('Programme'), nav.indexOf('Programme') + 2)).toEqual(['Programme', 'Tiers']);

    const fill = async (i: number, level: { key: string; name: string; threshold: number }) => {
      await page.getByLabel(`Level ${i} key`).fill(level.key);
      await page.getByLabel(`Level ${i} name`).fill(level.name);
      await page.getByLabel(`Level ${i} threshold`).fill(String(level.threshold));
    };
    await fill(1, LEVELS[0]!);
    // Gold before Silver, and a fourth level to remove: moved and removed below.
    await page.getByRole('button', { name: 'Add level' }).click();
    await fill(2, LEVELS[2]!);
    await page.getByLabel('Level 2 earn multiplier').fill('1.5');
    await page.getByLabel('Level 2 description').fill('Lounge access and 1.5× points');
    await page.getByRole('button', { name: 'Add level' }).click();
    await fill(3, LEVELS[1]!);
    await page.getByRole('button', { name: 'Add level' }).click();
    await fill(4, { key: 'temp', name: 'Temporary', threshold: 900 });
    await page.getByRole('radio', { name: 'Rolling' }).check();
    await page.getByLabel(/^Window length/).fill('12 months');
    await page.getByRole('radio', { name: 'To the qualified level' }).check();
    await page.getByLabel(/^Grace/).fill('P30D');
    const sent: unknown[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/trpc/tiers.')) sent.push(r.url().split('/trpc/')[1]);
    });

    // The service refuses the form on preview: the window's duration and the out-of-order threshold.
    await page.getByRole('button', { name: 'Preview change' }).click();
    const length = page.getByLabel(/^Window length/);
    await expect.poll(() => length.getAttribute('aria-invalid')).toBe('true');
    await page.getByText('must be a positive ISO 8601 duration').waitFor();
    const silverThreshold = page.getByLabel('Level 3 threshold');
    expect(await silverThreshold.getAttribute('aria-invalid')).toBe('true');
    await page.getByText('thresholds strictly increase, level by level').waitFor();
    expect(await page.getByRole('button', { name: 'Save programme' }).isDisabled()).toBe(true);
    await shots('tiers-invalid');

    await length.fill('P12M');
    await page.getByRole('button', { name: 'Move Silver up' }).click();
    expect(await page.getByLabel('Level 2 key').inputValue()).toBe('silver');
    await page.getByRole('button', { name: 'Remove Temporary' }).click();
    expect(await page.getByTestId('level-row').count()).toBe(3);
    await page.getByRole('button', { name: 'Preview change' }).click();

    // Now and after: nobody has a level yet; Ada (600) reaches Gold, Bob (150) Silver, Cy (20) Bronze.
    const counts = page.getByRole('table', { name: 'Participants per level' });
    await counts.waitFor();
    const row = async (key: string) =>
      (await counts.locator(`tr[data-level="${key}"] td`).allTextContents()).slice(1);
    expect(await row('bronze')).toEqual(['0', '1', '+1']);
    expect(await row('silver')).toEqual(['0', '1', '+1']);
    expect(await row('gold')).toEqual(['0', '1', '+1']);
    expect(await row('')).toEqual(['3', '0', '−3']);
    const moves = await page.getByRole('table', { name: 'Moves' }).locator('tbody tr').allTextContents();
    expect(moves.sort()).toEqual(['No levelBronze1', 'No levelGold1', 'No levelSilver1']);
    expect((await ws.api('/v1/tiers')).body).toBeNull();
    await shots('tiers-preview');
    await d.checkA11y();

    // A change after the preview asks for a new one before it can be saved.
    await page.getByLabel('Level 1 name').fill('Bronze!');
    expect(await page.getByRole('button', { name: 'Save programme' }).isDisabled()).toBe(true);
    await page.getByLabel('Level 1 name').fill('Bronze');
    await page.getByRole('button', { name: 'Preview change' }).click();
    await counts.waitFor();
    await page.getByRole('button', { name: 'Save programme' }).click();
    await page.getByText('Tier programme saved').waitFor();

    const expected = {
      qualification: { window: 'rolling', duration: 'P12M' },
      downgrade: { policy: 'to_qualified', grace: 'P30D' },
      levels: [
        { key: 'bronze', name: 'Bronze', threshold: 0, earn_multiplier: 1, description: null },
        { key: 'silver', name: 'Silver', threshold: 100, earn_multiplier: 1, description: null },
        {
          key: 'gold',
          name: 'Gold',
          threshold: 500,
          earn_multiplier: 1.5,
          description: 'Lounge access and 1.5× points',
        },
      ],
    };
    expect((await ws.api('/v1/tiers')).body).toEqual(expected);
    expect(sent.filter((s) => String(s).startsWith('tiers.put'))).toHaveLength(1);
    // The header tells the running programme; a reload shows what is stored.
    await page.getByText('A tier programme runs in test mode').waitFor();
    expect(await page.getByTestId('running').textContent()).toContain(
      '3 levels by qualifying points of the last P12M; a participant below their level’s threshold keeps it for P30D, then drops to the level their points support.',
    );
    await page.reload();
    await page.getByLabel('Level 3 key').waitFor();
    expect(await page.getByLabel('Level 3 key').inputValue()).toBe('gold');
    expect(await page.getByLabel('Level 3 earn multiplier').inputValue()).toBe('×1.5');
    expect(await page.getByRole('radio', { name: 'Rolling' }).isChecked()).toBe(true);
    expect(await page.getByLabel(/^Grace/).inputValue()).toBe('P30D');
    expect(await page.getByRole('button', { name: 'Preview change' }).isDisabled()).toBe(true);
    await page.mouse.move(700, 850);
    await shots('tiers-page');
    await d.checkA11y();
    expect(d.problems).toEqual([]);
  });

  it('shows a qualifying participant’s tier, sets a level by hand and lists it in their history', async () => {
    const { page, ws } = d;
    // The tier job moves Bob up to Silver once the programme is saved.
    await eventually(
      async () => (await ws.api('/v1/participants/tier-bob')).body.tier?.key === 'silver',
      20_000,
    );
    await d.goto('/participants/tier-bob');
    await page.getByRole('heading', { name: 'tier-bob', level: 2 }).waitFor();
    const stat = (id: string) => page.getByTestId(`tier-${id}`).textContent();
    await expect.poll(() => stat('level')).toBe('Silver');
    expect(await stat('level-hint')).toBe('silver');
    expect(await stat('qualifying')).toBe('150');
    expect(`${await stat('since')} ${await stat('since-hint')}`).toMatch(
      /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/,
    );
    expect(await stat('next')).toBe('Gold');
    expect(await stat('next-hint')).toBe('350 points needed');
    const { tier } = (await ws.api('/v1/participants/tier-bob')).body;
    // Keeping Silver once the 150 points leave the rolling window needs 100 new ones by then.
    expect(tier.retain.points_needed).toBe(100);
    expect(await stat('retain')).toBe('100 points');
    expect(await stat('retain-hint')).toBe(`by ${tier.retain.by.slice(0, 19).replace('T', ' ')} UTC`);
    const history = page.getByRole('table', { name: 'Tier history' });
    await expect.poll(() => history.locator('tbody tr').count()).toBe(1);
    expect(await history.locator('tbody tr').first().textContent()).toMatch(
      /Bronze → Silver.*programme change150$/,
    );
    await page.getByRole('heading', { name: 'Tier', level: 3, exact: true }).scrollIntoViewIfNeeded();
    await shots('tiers-participant');
    await d.checkA11y();

    // Without a level or a note: the service names both fields.
    await page.getByRole('button', { name: 'Set level' }).click();
    const level = page.getByRole('combobox', { name: 'Level', exact: true });
    await expect.poll(() => level.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel(/^Note/).getAttribute('aria-invalid')).toBe('true');

    await level.click();
    await page.getByRole('option', { name: 'Gold (gold)' }).click();
    await page.getByLabel(/^Note/).fill('VIP launch guest');
    await page.getByRole('button', { name: 'Set level' }).click();
    await page.getByText('tier-bob is now at Gold').waitFor();
    await expect.poll(() => stat('level')).toBe('Gold');
    expect(await stat('next')).toBe('Top level');
    await expect.poll(() => history.locator('tbody tr').count()).toBe(2);
    expect(await history.locator('tbody tr').first().textContent()).toMatch(
      /Silver → Gold.*manual.*VIP launch guest.*150$/,
    );
    const rest = await ws.api('/v1/participants/tier-bob/tier-history');
    expect(rest.body.data[0]).toMatchObject({
      from: { key: 'silver' },
      to: { key: 'gold' },
      reason: 'manual',
      note: 'VIP launch guest',
    });
    await page.getByRole('heading', { name: 'Tier', level: 3, exact: true }).scrollIntoViewIfNeeded();
    await shots('tiers-participant-manual');
    await d.checkA11y();
    expect(d.problems).toEqual([]);
  });

  it('gives a reward a minimum tier chosen from the programme’s levels', async () => {
    const { page, ws } = d;
    await d.goto('/rewards/new');
    await page.getByLabel(/^Name/).fill('Lounge pass');
    const minTier = page.getByRole('combobox', { name: 'Minimum tier' });
    await minTier.click();
    expect(await page.getByRole('option').allTextContents()).toEqual([
      'Bronze (bronze)',
      'Silver (silver)',
      'Gold (gold)',
    ]);
    await page.getByRole('option', { name: 'Gold (gold)' }).click();
    await page.getByRole('button', { name: 'Create reward' }).click();
    await page.getByRole('heading', { name: 'Lounge pass', level: 2 }).waitFor();
    const id = new URL(page.url()).pathname.split('/').pop();
    expect((await ws.api(`/v1/rewards/${id}`)).body.min_tier).toBe('gold');

    await page.getByRole('link', { name: 'Edit' }).click();
    await expect.poll(() => minTier.inputValue()).toBe('Gold (gold)');
    await minTier.click();
    await page.getByRole('option', { name: 'Silver (silver)' }).click();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { name: 'Lounge pass', level: 2 }).waitFor();
    await eventually(async () => (await ws.api(`/v1/rewards/${id}`)).body.min_tier === 'silver');
    expect(d.problems).toEqual([]);
  });

  it('ends the programme after a confirmation', async () => {
    const { page, ws } = d;
    await d.goto('/tiers');
    await page.getByRole('button', { name: 'End programme' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'End programme' }).click();
    await page.getByText('No tier programme runs in test mode').waitFor();
    expect((await ws.api('/v1/tiers')).body).toBeNull();
    expect(await page.getByTestId('level-row').count()).toBe(1);
    // The job moves everyone off their level.
    await eventually(async () => (await ws.api('/v1/participants/tier-ada')).body.tier === null, 20_000);
    await d.goto('/participants/tier-ada');
    await page.getByTestId('tier-none').waitFor();
    expect(await page.getByTestId('tier-none').textContent()).toContain(
      'No tier programme runs in test mode',
    );
    expect(d.problems).toEqual([]);
  });
});

describe('the tiers procedures over tRPC', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { LOYALTY_TICK_SECONDS: '1' } });
  });
  afterAll(() => app?.close());

  /** Waits for the tier job to have applied the workspace's latest programme change to everyone. */
  const applied = (ws: TestWorkspace) =>
    eventually(async () => {
      const { rows } = await app.ctx.pool.query(
        `select applied_version >= version as done from tier_programs where workspace_id = $1 and mode = 'test'`,
        [ws.id],
      );
      return rows[0]?.done === true;
    }, 20_000);

  const programme = {
    qualification: { window: 'lifetime' as const },
    downgrade: { policy: 'none' as const },
    levels: LEVELS,
  };

  it('reads, previews, replaces and ends the programme, one per mode', async () => {
    const ws = await app.workspace();
    const trpc = await signedInDashboard(app, ws);
    expect(await trpc.tiers.get.query({ mode: 'test' })).toBeNull();
    await adjust(ws, 'p-1', 120);
    await adjust(ws, 'p-2', 700);
    const preview = await trpc.tiers.preview.mutate({ mode: 'test', ...programme });
    expect(preview).toMatchObject({ current: {}, proposed: { bronze: 0, silver: 1, gold: 1 } });
    expect(preview.moves).toHaveLength(2);
    expect(preview.moves).toEqual(
      expect.arrayContaining([
        { from: null, to: 'silver', count: 1 },
        { from: null, to: 'gold', count: 1 },
      ]),
    );
    // A preview changes nothing.
    expect(await trpc.tiers.get.query({ mode: 'test' })).toBeNull();
    const saved = await trpc.tiers.put.mutate({ mode: 'test', ...programme });
    expect(saved.levels[0]).toEqual({ ...LEVELS[0], earn_multiplier: 1, description: null });
    expect(await trpc.tiers.get.query({ mode: 'test' })).toEqual(saved);
    expect((await ws.api('/v1/tiers')).body).toEqual(saved);
    expect(await trpc.tiers.get.query({ mode: 'live' })).toBeNull();
    // The participant read carries the tier once the job has run.
    await applied(ws);
    expect((await trpc.participants.get.query({ mode: 'test', externalId: 'p-1' })).tier).toMatchObject({
      key: 'silver',
      qualifying_points: 120,
      next: { key: 'gold', points_needed: 380 },
    });

    expect(await trpc.tiers.delete.mutate({ mode: 'test' })).toEqual({ deleted: true });
    expect(await trpc.tiers.get.query({ mode: 'test' })).toBeNull();
    await expect(trpc.tiers.delete.mutate({ mode: 'test' })).rejects.toMatchObject({
      data: { code: 'NOT_FOUND', type: 'not_found' },
    });
  });

  it('refuses an invalid programme with the fields the form shows them on, and stores nothing', async () => {
    const ws = await app.workspace();
    const trpc = await signedInDashboard(app, ws);
    const bad = {
      mode: 'test' as const,
      qualification: { window: 'rolling' as const, duration: '12 months' },
      downgrade: { policy: 'one_down' as const, grace: 'soon' },
      levels: [
        { key: 'a', name: 'A', threshold: 10 },
        { key: 'a', name: 'B', threshold: 5, earn_multiplier: 11 },
      ],
    };
    for (const call of [trpc.tiers.put.mutate, trpc.tiers.preview.mutate]) {
      const error = await call(bad).catch((e: unknown) => e);
      expect(error).toMatchObject({ data: { code: 'BAD_REQUEST', type: 'validation_error' } });
      const fields = (error as { data: { errors: { field: string }[] } }).data.errors.map((e) => e.field);
      expect(fields.sort()).toEqual(
        [
          'downgrade.grace',
          'levels.0.threshold',
          'levels.1.earn_multiplier',
          'levels.1.key',
          'levels.1.threshold',
          'qualification.duration',
        ].sort(),
      );
    }
    await expect(
      trpc.tiers.put.mutate({ mode: 'test', ...programme, levels: [], colour: 'blue' } as never),
    ).rejects.toMatchObject({ data: { type: 'validation_error' } });
    expect(await trpc.tiers.get.query({ mode: 'test' })).toBeNull();
  });

  it('sets a level by hand and pages through the history; unknown levels and participants are refused', async () => {
    const ws = await app.workspace();
    const trpc = await signedInDashboard(app, ws);
    await adjust(ws, 'h-1', 10);
    const id = { mode: 'test' as const, externalId: 'h-1' };
    await expect(
      trpc.tiers.setParticipant.mutate({ ...id, key: 'gold', reason: 'VIP' }),
    ).rejects.toMatchObject({
      data: { type: 'validation_error', errors: [{ field: 'key' }] },
    });
    await trpc.tiers.put.mutate({ mode: 'test', ...programme });
    await applied(ws);
    // Everyone starts at the first level: that is no move.
    expect((await trpc.tiers.history.query(id)).data).toEqual([]);
    expect(await trpc.tiers.setParticipant.mutate({ ...id, key: 'silver', reason: 'Welcome' })).toMatchObject(
      {
        key: 'silver',
      },
    );
    expect(await trpc.tiers.setParticipant.mutate({ ...id, key: 'gold', reason: 'VIP' })).toMatchObject({
      key: 'gold',
      name: 'Gold',
      qualifying_points: 10,
    });
    expect(await trpc.tiers.setParticipant.mutate({ ...id, key: 'silver', reason: 'Settled' })).toMatchObject(
      {
        key: 'silver',
      },
    );
    const first = await trpc.tiers.history.query({ ...id, limit: 2 });
    expect(first.data.map((m) => [m.from?.key ?? null, m.to?.key ?? null, m.reason, m.note])).toEqual([
      ['gold', 'silver', 'manual', 'Settled'],
      ['silver', 'gold', 'manual', 'VIP'],
    ]);
    expect(first.nextCursor).toBeTruthy();
    const second = await trpc.tiers.history.query({ ...id, limit: 2, cursor: first.nextCursor! });
    expect(second.data.map((m) => [m.from?.key, m.to?.key, m.note])).toEqual([
      ['bronze', 'silver', 'Welcome'],
    ]);
    expect(second.nextCursor).toBeNull();
    expect(
      (await ws.api('/v1/participants/h-1/tier-history?limit=100')).body.data.map((m: any) => m.id),
    ).toEqual([...first.data, ...second.data].map((m) => m.id));

    await expect(
      trpc.tiers.setParticipant.mutate({ ...id, key: 'platinum', reason: 'x' }),
    ).rejects.toMatchObject({ data: { type: 'validation_error', errors: [{ field: 'key' }] } });
    await expect(
      trpc.tiers.setParticipant.mutate({ ...id, key: 'gold', reason: '  ' }),
    ).rejects.toMatchObject({
      data: { type: 'validation_error', errors: [{ field: 'reason' }] },
    });
    await expect(
      trpc.tiers.setParticipant.mutate({ mode: 'test', externalId: 'nobody', key: 'gold', reason: 'x' }),
    ).rejects.toMatchObject({ data: { type: 'not_found' } });
    await expect(trpc.tiers.history.query({ mode: 'test', externalId: 'nobody' })).rejects.toMatchObject({
      data: { type: 'not_found' },
    });
    // The other mode has its own participants.
    await expect(trpc.tiers.history.query({ ...id, mode: 'live' })).rejects.toMatchObject({
      data: { type: 'not_found' },
    });
  });
});

describe('the tiers form’s logic', () => {
  const stored: Programme = {
    qualification: { window: 'calendar', period: 'quarter' },
    downgrade: { policy: 'one_down', grace: 'P14D' },
    levels: [
      { key: 'bronze', name: 'Bronze', threshold: 0, earn_multiplier: 1, description: null },
      { key: 'gold', name: 'Gold', threshold: 500, earn_multiplier: 1.25, description: 'Lounge' },
    ],
  };

  it('round-trips a stored programme and sees no change in an untouched form', () => {
    expect(fromForm(toForm(stored))).toEqual(stored);
    expect(sameProgramme(stored, toForm(stored))).toBe(true);
    expect(sameProgramme(null, toForm(null))).toBe(false);
    const form = toForm(stored);
    expect(sameProgramme(stored, { ...form, grace: 'P15D' })).toBe(false);
  });

  it('sends only the window’s own setting, a grace only with a policy that downgrades, and blanks as the service should see them', () => {
    const form = toForm(stored);
    expect(fromForm({ ...form, window: 'rolling', duration: ' P6M ' }).qualification).toEqual({
      window: 'rolling',
      duration: 'P6M',
    });
    expect(fromForm({ ...form, window: 'rolling', duration: '' }).qualification).toEqual({
      window: 'rolling',
    });
    expect(fromForm({ ...form, window: 'lifetime' }).qualification).toEqual({ window: 'lifetime' });
    expect(fromForm({ ...form, policy: 'none' }).downgrade).toEqual({ policy: 'none' });
    expect(fromForm({ ...form, grace: ' ' }).downgrade).toEqual({ policy: 'one_down' });
    const blank = fromForm({
      ...form,
      levels: [{ ...blankLevel(), key: ' vip ', name: 'VIP', earn_multiplier: '', description: '  ' }],
    });
    expect(JSON.parse(JSON.stringify(blank.levels))).toEqual([
      { key: 'vip', name: 'VIP', description: null },
    ]);
  });

  it('starts a new programme with one level at 0, adds levels after it and moves them', () => {
    const fresh = toForm(null);
    expect(fresh.levels).toHaveLength(1);
    expect(fresh.levels[0]!.threshold).toBe(0);
    const levels = addLevel(addLevel(fresh.levels));
    expect(levels.map((l) => l.threshold)).toEqual([0, '', '']);
    expect(new Set(levels.map((l) => l.id)).size).toBe(3);
    const moved = moveLevel(levels, 2, 1);
    expect(moved.map((l) => l.id)).toEqual([levels[0]!.id, levels[2]!.id, levels[1]!.id]);
    expect(moveLevel(levels, 0, -1)).toBe(levels);
    expect(moveLevel(levels, 2, 3)).toBe(levels);
  });

  it('lays the preview out per level: proposed ones in order, removed ones, and those with no level now', () => {
    const { rows, levelName } = previewRows(
      {
        current: { bronze: 4, gold: 2 },
        proposed: { bronze: 3, silver: 3, vip: 1 },
        moves: [{ from: null, to: 'vip', count: 1 }],
      },
      [
        { key: 'bronze', name: 'Bronze' },
        { key: 'silver', name: 'Silver' },
        { key: 'vip', name: 'VIP' },
      ],
      stored,
    );
    expect(rows).toEqual([
      { key: 'bronze', name: 'Bronze', now: 4, after: 3, removed: false },
      { key: 'silver', name: 'Silver', now: 0, after: 3, removed: false },
      { key: 'vip', name: 'VIP', now: 0, after: 1, removed: false },
      { key: 'gold', name: 'Gold', now: 2, after: 0, removed: true },
      { key: null, name: 'No level', now: 1, after: 0, removed: false },
    ]);
    expect(levelName(null)).toBe('No level');
    expect(levelName('gold')).toBe('Gold');
    expect(levelName('unknown')).toBe('unknown');
  });

  it('tells the running programme in one line', () => {
    expect(describeProgramme(stored)).toBe(
      '2 levels by qualifying points of the current calendar quarter; a participant below their level’s threshold keeps it for P14D, then drops one level per evaluation.',
    );
    expect(
      describeProgramme({ ...stored, qualification: { window: 'lifetime' }, downgrade: { policy: 'none' } }),
    ).toBe('2 levels by all qualifying points ever earned; levels are never lost.');
  });
});
