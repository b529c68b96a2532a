import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDateTime } from '../web/dashboard/src/lib/format.ts';
import { replayFixes } from '../web/dashboard/src/pages/events/replay.ts';
import {
  graceSecondsOf,
  recoverBody,
  toggleOf,
  toLocalInput,
} from '../web/dashboard/src/pages/webhooks/logic.ts';
import { skipBrowser } from './browser.ts';
import { type Dashboard, openDashboard } from './dashboard-browser.ts';
import { buildReceiver, buildSubscription, closeReceivers } from './factories.ts';
import { eventually, signedInDashboard, startTestApp } from './helpers.ts';
import type { Receiver } from './webhooks-receiver.ts';

// The dashboard's doors onto the integrators' operations (docs/dashboard.md): an endpoint's page
// (why and when the service disabled it, Re-enable, Recover with the service's refusals on their
// inputs, Rotate secret shown once with when the old one stops, the catalogue of what it receives)
// and the events page's replay of a quarantined event, in Chromium; the procedures over tRPC; the
// forms' pure logic.

const WAIT = { timeout: 10_000 };
const HOUR = 3_600_000;

describe.skipIf(skipBrowser)(
  'an endpoint’s page and the events page’s replay in a real browser (Chromium)',
  () => {
    let d: Dashboard;
    let rx: Receiver;
    beforeAll(async () => {
      d = await openDashboard({ env: { WEBHOOK_RETRY_SCHEDULE: '1', WEBHOOK_TIMEOUT_MS: '2000' } });
      d.page.setDefaultTimeout(10_000);
      await d.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: d.app.url });
      rx = await buildReceiver();
    });
    afterAll(async () => {
      await d?.close();
      await closeReceivers();
    });

    const dialog = () => d.page.getByRole('dialog');
    const live = (path: string, body?: unknown) => d.ws.api(path, { mode: 'live', body });

    /** A whole-page screenshot in /tmp, beside the viewport one in artifacts/screenshots, to look at. */
    async function shots(name: string) {
      await d.shot(name);
      await d.page.screenshot({ path: `/tmp/${name}.png`, fullPage: true });
    }

    it('shows why and when a 410 disabled an endpoint, re-enables it and recovers what it missed', async () => {
      const { page } = d;
      rx.respond(() => ({ status: 410, body: 'gone' }));
      const sub = await buildSubscription(d.ws, { receiver: rx, path: '/orders' });
      expect((await live('/v1/participants/dana/points', { points: 50, reason: 'Welcome' })).status).toBe(
        201,
      );
      const disabled = await eventually(async () => {
        const s = (await live(`/v1/webhook-subscriptions/${sub.id}`)).body;
        return s.status === 'disabled' ? s : null;
      });

      await d.goto('/webhooks');
      await d.setMode('live');
      const row = page.getByRole('row', { name: /\/orders/ });
      await expect.poll(() => row.textContent(), WAIT).toContain('disabled: gone');
      expect(await row.getByRole('button', { name: /^Re-enable / }).count()).toBe(1);
      await shots('webhooks-disabled');
      await d.checkA11y();
      await row.getByRole('link', { name: sub.url }).click();
      await page.getByTestId('disabled-notice').waitFor();
      expect(page.url()).toBe(`${d.app.url}/dashboard/webhooks/endpoints/${sub.id}`);
      expect(await page.getByTestId('subscription-status').textContent()).toBe('disabled');
      const notice = await page.getByTestId('disabled-notice').textContent();
      expect(notice).toContain('410 Gone');
      expect(await page.getByTestId('disabled-at').textContent()).toBe(formatDateTime(disabled.disabled_at));
      // Nothing to recover into until it is re-enabled.
      expect(await page.getByRole('button', { name: 'Recover', exact: true }).isDisabled()).toBe(true);
      await shots('webhook-endpoint-disabled');
      await d.checkA11y();

      await page.getByTestId('disabled-notice').getByRole('button', { name: 'Re-enable' }).click();
      await expect.poll(() => page.getByTestId('subscription-status').textContent(), WAIT).toBe('active');
      expect(await page.getByTestId('disabled-notice').count()).toBe(0);
      expect((await live(`/v1/webhook-subscriptions/${sub.id}`)).body).toMatchObject({
        status: 'active',
        disabled_reason: null,
        disabled_at: null,
      });

      // The service's refusals show on their inputs.
      const form = page.getByRole('form', { name: 'Recover failed deliveries' });
      const from = form.getByLabel(/^Since/);
      const until = form.getByLabel(/^Until/);
      await from.fill(toLocalInput(new Date(Date.now() - 20 * 24 * HOUR)));
      await form.getByRole('button', { name: 'Recover' }).click();
      await form.getByText('must be at most 14 days ago').waitFor();
      expect(await from.getAttribute('aria-invalid')).toBe('true');
      await from.fill(toLocalInput(new Date(Date.now() - 2 * HOUR)));
      await until.fill(toLocalInput(new Date(Date.now() - 3 * HOUR)));
      await form.getByRole('button', { name: 'Recover' }).click();
      await form.getByText('must not be before since').waitFor();
      expect(await until.getAttribute('aria-invalid')).toBe('true');
      await shots('webhook-endpoint-recover-invalid');
      await d.checkA11y();

      rx.respond(() => ({ status: 200, body: 'thanks' }));
      await until.fill('');
      await form.getByRole('button', { name: 'Recover' }).click();
      await expect.poll(() => page.getByTestId('recovered').textContent(), WAIT).toContain('1 dead delivery');
      await eventually(async () => rx.received.length === 2);
      expect(rx.received[1]!.headers['webhook-id']).toBe(rx.received[0]!.headers['webhook-id']);
      expect(rx.received[1]!.verifyError).toBeNull();
      await shots('webhook-endpoint-recovered');
      await d.checkA11y();
    }, 60_000);

    it('rotates the secret: grace checked, the new one shown once with when the old one stops', async () => {
      const { page } = d;
      const sub = (await live('/v1/webhook-subscriptions')).body.data[0];
      const grace = page.getByLabel(/old secret keeps signing for/);
      await grace.fill('200');
      await page.getByRole('button', { name: 'Rotate secret' }).click();
      await dialog().getByRole('button', { name: 'Rotate secret' }).click();
      await dialog().waitFor({ state: 'detached' });
      await page.getByText('From 0 to 168 hours (a week)').waitFor();
      expect(await grace.getAttribute('aria-invalid')).toBe('true');

      await grace.fill('2');
      const before = Date.now();
      await page.getByRole('button', { name: 'Rotate secret' }).click();
      expect(await dialog().textContent()).toContain('2 hours');
      await page.waitForTimeout(400); // the dialog's opening transition
      await shots('webhook-endpoint-rotate-confirm');
      await dialog().getByRole('button', { name: 'Rotate secret' }).click();
      await page.getByTestId('shown-once').waitFor();
      const secret = (await page.getByTestId('secret-value').textContent()) ?? '';
      expect(secret).toMatch(/^whsec_/);
      const expires = (await page.getByTestId('previous-expires').textContent()) ?? '';
      const stamp = /until (.+ UTC)/.exec(expires)?.[1] ?? '';
      const at = Date.parse(stamp.replace(' UTC', 'Z').replace(' ', 'T'));
      expect(at - before).toBeGreaterThan(2 * HOUR - 60_000);
      expect(at - before).toBeLessThan(2 * HOUR + 60_000);
      await page.waitForTimeout(400);
      await shots('webhook-endpoint-rotated');
      await d.checkA11y();
      await dialog().getByRole('button', { name: 'Done' }).click();
      await dialog().waitFor({ state: 'detached' });
      await d.checkA11y();
      const stored = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
      expect(stored).not.toContain(secret);
      expect(await page.content()).not.toContain(secret);

      // Deliveries are signed with the new secret and, during the grace, the old one too.
      expect((await live(`/v1/webhook-subscriptions/${sub.id}/test`, {})).body.ok).toBe(true);
      const r = rx.received.at(-1)!;
      expect(String(r.headers['webhook-signature']).split(' ')).toHaveLength(2);
      expect(() =>
        new Webhook(secret).verify(r.rawBody.toString(), r.headers as Record<string, string>),
      ).not.toThrow();
    });

    it('lists what the endpoint receives from the event catalogue', async () => {
      const { page } = d;
      const types = page.getByRole('button', { name: /^webhook\.disabled/ });
      await types.click();
      const panel = page.getByRole('region', { name: /^webhook\.disabled/ });
      await panel.getByText('An example of its data').waitFor();
      expect(await panel.textContent()).toContain('"reason"');
      await types.scrollIntoViewIfNeeded();
      await shots('webhook-endpoint-catalogue');
      await d.checkA11y();
    });

    it('replays a quarantined event with a fixed payload, and one without a type with a type', async () => {
      const { page, ws } = d;
      const schema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };
      expect(
        (await ws.api('/v1/event-types/order.completed/schema', { method: 'PUT', body: { schema } })).status,
      ).toBe(200);
      const bad = (
        await ws.api('/v1/events', {
          body: { type: 'order.completed', participant: 'ada', payload: { n: 'x' } },
        })
      ).body.event_id as string;
      const untyped = (await ws.api('/v1/events', { body: { participant: 'bob', payload: { plan: 'pro' } } }))
        .body.event_id as string;

      await d.goto('/events');
      await d.setMode('test');
      const drawer = page.getByRole('dialog', { name: 'Event details' });
      await page
        .getByRole('row', { name: /order\.completed/ })
        .getByRole('button', { name: 'order.completed' })
        .click();
      const form = drawer.getByRole('form', { name: 'Replay this event' });
      await form.waitFor();
      const payload = form.getByLabel(/^Payload/);
      await payload.fill('{ "n": ');
      await form.getByRole('button', { name: 'Replay event' }).click();
      await form.getByText('Not valid JSON').waitFor();
      await payload.fill('[1]');
      await form.getByRole('button', { name: 'Replay event' }).click();
      await form.getByText('Must be a JSON object').waitFor();
      await page.waitForTimeout(400); // the drawer's opening transition
      await shots('events-replay-invalid');
      await d.checkA11y();

      await payload.fill('{ "n": 42 }');
      await form.getByRole('button', { name: 'Replay event' }).click();
      await drawer.getByTestId('replay-of').waitFor();
      expect(await drawer.getByTestId('replay-of').textContent()).toBe(bad);
      const old = (await ws.api(`/v1/events/${bad}`)).body;
      expect(old.status).toBe('quarantined');
      const fresh = await eventually(async () => {
        const e = (await ws.api(`/v1/events/${old.replayed_as}`)).body;
        return e.status === 'processed' ? e : null;
      });
      expect(fresh).toMatchObject({ payload: { n: 42 }, replay_of: bad, event_type: 'order.completed' });
      await drawer.getByTestId('replay-of').getByRole('button').click();
      await expect.poll(() => drawer.getByTestId('replayed-as').textContent(), WAIT).toContain(fresh.id);
      expect(await drawer.getByRole('form', { name: 'Replay this event' }).count()).toBe(0);
      await shots('events-replayed');
      await d.checkA11y();

      // An event without a type: the service's refusal of a bad type shows on the input.
      await page.keyboard.press('Escape');
      await drawer.waitFor({ state: 'detached' });
      await page
        .getByRole('row', { name: /no type/ })
        .getByRole('button', { name: '(no type)' })
        .click();
      const typeInput = drawer.getByLabel(/^Event type/);
      await typeInput.fill('not a type!');
      await drawer.getByRole('button', { name: 'Replay event' }).click();
      await expect.poll(() => typeInput.getAttribute('aria-invalid'), WAIT).toBe('true');
      await typeInput.fill('signup');
      await drawer.getByRole('button', { name: 'Replay event' }).click();
      await drawer.getByTestId('replay-of').waitFor();
      const replayedAs = (await ws.api(`/v1/events/${untyped}`)).body.replayed_as;
      expect((await ws.api(`/v1/events/${replayedAs}`)).body).toMatchObject({
        event_type: 'signup',
        participant: { external_id: 'bob' },
        payload: { plan: 'pro' },
      });
      expect(d.problems).toEqual([]);
    }, 60_000);
  },
);

describe('the integrators’ procedures over tRPC', () => {
  it('re-enables, recovers and rotates with the service’s answers, lists the catalogue and replays an event', async () => {
    const app = await startTestApp();
    try {
      const ws = await app.workspace();
      const trpc = await signedInDashboard(app, ws);
      const sub = await trpc.webhooks.subscriptions.create.mutate({
        mode: 'test',
        url: 'http://127.0.0.1:9/hook',
        event_types: ['*'],
      });
      const rotated = await trpc.webhooks.subscriptions.rotateSecret.mutate({
        mode: 'test',
        id: sub.id,
        grace_seconds: 0,
      });
      expect(rotated.secret).toMatch(/^whsec_/);
      expect(Date.parse(rotated.previous_expires_at)).toBeLessThanOrEqual(Date.now() + 1000);
      await expect(
        trpc.webhooks.subscriptions.rotateSecret.mutate({ mode: 'test', id: sub.id, grace_seconds: 604_801 }),
      ).rejects.toMatchObject({ data: { type: 'validation_error', errors: [{ field: 'grace_seconds' }] } });
      expect(
        await trpc.webhooks.subscriptions.recover.mutate({
          mode: 'test',
          id: sub.id,
          since: new Date(Date.now() - HOUR).toISOString(),
        }),
      ).toEqual({ recovered: 0 });
      await expect(
        trpc.webhooks.subscriptions.recover.mutate({
          mode: 'test',
          id: sub.id,
          since: new Date(Date.now() - 15 * 24 * HOUR).toISOString(),
        }),
      ).rejects.toMatchObject({ data: { type: 'validation_error', errors: [{ field: 'since' }] } });
      await trpc.webhooks.subscriptions.update.mutate({ mode: 'test', id: sub.id, status: 'paused' });
      await expect(
        trpc.webhooks.subscriptions.recover.mutate({
          mode: 'test',
          id: sub.id,
          since: new Date().toISOString(),
        }),
      ).rejects.toMatchObject({ data: { type: 'invalid_state' } });

      const catalogue = await trpc.webhooks.eventTypes.query();
      const rest = (await ws.api('/v1/webhook-event-types')).body.data as {
        type: string;
        example: unknown;
      }[];
      expect(catalogue.map((t) => [t.type, t.example])).toEqual(rest.map((t) => [t.type, t.example]));
      expect(catalogue.every((t) => t.summary.length > 0)).toBe(true);

      const quarantined = (await ws.api('/v1/events', { body: { participant: 'ada' } })).body.event_id;
      const replayed = await trpc.events.replay.mutate({
        mode: 'test',
        id: quarantined,
        event_type: 'signup',
      });
      expect(replayed).toMatchObject({ status: 'received', replayed: false });
      expect((await ws.api(`/v1/events/${quarantined}`)).body.replayed_as).toBe(replayed.event_id);
      await expect(
        trpc.events.replay.mutate({ mode: 'test', id: quarantined, event_type: 'other' }),
      ).rejects.toMatchObject({ data: { type: 'invalid_state' } });
    } finally {
      await app.close();
    }
  });
});

describe('the forms’ logic', () => {
  it('turns the recover form into the service’s body, in the browser’s time zone', () => {
    const since = toLocalInput(new Date('2026-11-20T10:30:00'));
    expect(recoverBody(since, '')).toEqual({
      body: { since: new Date('2026-11-20T10:30:00').toISOString() },
    });
    expect(recoverBody('', '')).toEqual({ errors: { since: 'Pick the time to recover from' } });
    expect(recoverBody(since, 'soon')).toEqual({
      errors: { until: 'Pick a time, or leave it empty for now' },
    });
  });
  it('turns the grace in hours into grace_seconds, within a week', () => {
    expect(graceSecondsOf(24)).toEqual({ grace_seconds: 86_400 });
    expect(graceSecondsOf(0)).toEqual({ grace_seconds: 0 });
    expect(graceSecondsOf(168)).toEqual({ grace_seconds: 604_800 });
    for (const bad of [169, -1, '', 'x']) expect(graceSecondsOf(bad)).toHaveProperty('error');
  });
  it('offers Re-enable for a disabled endpoint, Resume for a paused one', () => {
    expect(toggleOf('active')).toEqual({ label: 'Pause', to: 'paused' });
    expect(toggleOf('paused')).toEqual({ label: 'Resume', to: 'active' });
    expect(toggleOf('disabled')).toEqual({ label: 'Re-enable', to: 'active' });
  });
  it('sends only the fixes the replay form changed', () => {
    const original = JSON.stringify({ n: 'x' }, null, 2);
    expect(replayFixes('', original, original)).toEqual({ fixes: {} });
    expect(replayFixes(' signup ', original, original)).toEqual({ fixes: { event_type: 'signup' } });
    expect(replayFixes('', '{"n":1}', original)).toEqual({ fixes: { payload: { n: 1 } } });
    expect(replayFixes('', '{', original)).toEqual({ errors: { payload: 'Not valid JSON' } });
    expect(replayFixes('', 'null', original)).toHaveProperty('errors.payload');
  });
});
