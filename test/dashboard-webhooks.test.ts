import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipBrowser } from './browser.ts';
import { type Dashboard, openDashboard } from './dashboard-browser.ts';
import { buildReceiver, closeReceivers } from './factories.ts';
import { eventually } from './helpers.ts';
import type { Receiver } from './webhooks-receiver.ts';

let d: Dashboard;
let receiver: Receiver;

describe.skipIf(skipBrowser)('the webhooks page in a real browser (Chromium)', () => {
  beforeAll(async () => {
    // One retry, one second after the first attempt: a failing delivery dies within seconds.
    d = await openDashboard({ env: { WEBHOOK_RETRY_SCHEDULE: '1', WEBHOOK_TIMEOUT_MS: '2000' } });
    await d.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: d.app.url });
    receiver = await buildReceiver();
    receiver.respond(() => ({ status: 500, body: 'receiver is down' }));
  });
  afterAll(async () => {
    await d?.close();
    await closeReceivers();
  });

  const dialog = () => d.page.getByRole('dialog');
  const live = (path: string, body?: unknown) => d.ws.api(path, { mode: 'live', body });

  it('adds an endpoint and shows its signing secret once, with a copy button', async () => {
    const { page } = d;
    await d.goto('/webhooks');
    await d.setMode('live');
    await page.getByTestId('empty-state').waitFor();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    // Nothing ticked is refused before anything is sent.
    await dialog().getByLabel('All events').uncheck();
    await dialog()
      .getByLabel(/^Endpoint URL/)
      .fill(`${receiver.url}/hooks`);
    await dialog().getByRole('button', { name: 'Add endpoint' }).click();
    await dialog().getByText('Pick at least one event type').waitFor();
    await dialog().getByLabel('points.changed').check();
    await dialog().getByLabel('badge.awarded').check();
    await dialog().getByLabel('Description').fill('Orders backend');
    await d.page.waitForTimeout(400); // the dialog's opening transition
    await d.shot('webhooks-create');
    await dialog().getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByTestId('shown-once').waitFor();
    await dialog().getByRole('button', { name: 'Copy' }).click();
    const secret = await page.evaluate(() => navigator.clipboard.readText());
    expect(secret).toMatch(/^whsec_/);
    receiver.setSecret(secret);
    await dialog().getByRole('button', { name: 'Done' }).click();
    await dialog().waitFor({ state: 'detached' });
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
    expect(stored).not.toContain(secret);
    expect(await page.content()).not.toContain(secret);

    const row = page.getByRole('row', { name: /Orders backend/ });
    await expect.poll(() => row.textContent()).toContain('points.changed');
    expect(await row.textContent()).toContain('active');

    // The egress guard's refusal is shown on the field.
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await dialog()
      .getByLabel(/^Endpoint URL/)
      .fill('http://169.254.169.254/latest');
    await dialog().getByRole('button', { name: 'Add endpoint' }).click();
    await expect
      .poll(() =>
        dialog()
          .getByLabel(/^Endpoint URL/)
          .getAttribute('aria-invalid'),
      )
      .toBe('true');
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await dialog().waitFor({ state: 'detached' });

    await d.shot('webhooks');
    await d.checkA11y();
  });

  it('lets a failing delivery die, then replays it from the UI once the receiver is back', async () => {
    const { page } = d;
    const entry = await live('/v1/participants/dana/points', { points: 50, reason: 'Welcome' });
    expect(entry.status).toBe(201);
    const dead = await eventually(async () => {
      const res = await live('/v1/webhook-deliveries');
      return res.body.data.find((x: { status: string }) => x.status === 'dead');
    }, 15_000);
    expect(dead.type).toBe('points.changed');
    expect(receiver.received.length).toBe(2); // the first attempt and its one retry

    await page.getByRole('tab', { name: 'Delivery log' }).click();
    await page.getByRole('table', { name: 'Webhook deliveries' }).waitFor();
    await page.getByLabel('Status', { exact: true }).first().click();
    await page.getByRole('option', { name: 'succeeded' }).click();
    await page.getByTestId('empty-state').waitFor();
    expect(page.url()).toContain('status=succeeded');
    await page.getByLabel('Status', { exact: true }).first().click();
    await page.getByRole('option', { name: 'dead' }).click();
    const row = page.getByRole('row', { name: /points\.changed/ });
    await expect.poll(() => row.textContent()).toContain('HTTP 500');
    await d.shot('webhook-deliveries');
    await d.checkA11y();

    await row.getByRole('link', { name: 'points.changed' }).click();
    const attempts = page.getByRole('table', { name: 'Delivery attempts' });
    await attempts.waitFor();
    expect(page.url()).toBe(`${d.app.url}/dashboard/webhooks/deliveries/${dead.id}`);
    expect(await page.getByTestId('delivery-status').textContent()).toBe('dead');
    expect(await attempts.getByRole('row').count()).toBe(3); // header + 2 attempts
    expect(await attempts.textContent()).toContain('500');
    expect(await attempts.textContent()).toContain('receiver is down');
    await d.shot('webhook-delivery-dead');
    await d.checkA11y();

    receiver.respond(() => ({ status: 200, body: 'thanks' }));
    await page.getByRole('button', { name: 'Replay' }).click();
    await expect
      .poll(() => page.getByTestId('delivery-status').textContent(), { timeout: 15_000 })
      .toBe('succeeded');
    // Replay restarts the numbering: the new attempt is #1 again, with its 200.
    await expect.poll(() => attempts.getByRole('row').count()).toBe(4);
    expect(await attempts.getByRole('row').last().textContent()).toMatch(/^1.*200.*thanks/);
    const last = receiver.received.at(-1);
    expect(last?.verifyError).toBeNull();
    expect(last?.headers['x-svc-delivery-id']).toBe(dead.id);
    await d.shot('webhook-delivery');
    await d.checkA11y();
  }, 60_000);

  it('sends a test event and shows its result; pauses, resumes and deletes the endpoint', async () => {
    const { page } = d;
    await page.getByRole('tab', { name: 'Endpoints' }).click();
    await page.getByRole('button', { name: 'Edit Orders backend' }).click();
    expect(
      await dialog()
        .getByLabel(/^Endpoint URL/)
        .inputValue(),
    ).toBe(`${receiver.url}/hooks`);
    expect(await dialog().getByLabel('badge.awarded').isChecked()).toBe(true);
    await dialog().getByLabel('badge.awarded').uncheck();
    await dialog().getByLabel('Description').fill('Orders backend (v2)');
    await dialog().getByRole('button', { name: 'Save endpoint' }).click();
    await dialog().waitFor({ state: 'detached' });
    await expect
      .poll(() => page.getByRole('row', { name: /Orders backend \(v2\)/ }).textContent())
      .not.toContain('badge.awarded');
    const edited = (await live('/v1/webhook-subscriptions')).body.data[0];
    expect(edited).toMatchObject({ description: 'Orders backend (v2)', event_types: ['points.changed'] });
    await page.getByRole('button', { name: 'Send test to Orders backend' }).click();
    const result = page.getByTestId('test-result');
    await result.waitFor();
    expect(await result.textContent()).toContain('Delivered');
    expect(await result.textContent()).toContain('thanks');
    expect(receiver.received.at(-1)?.body.type).toBe('webhook.test');
    await page.waitForTimeout(400); // the dialog's opening transition
    await d.shot('webhooks-test-result');
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });

    receiver.respond(() => ({ status: 503, body: 'maintenance' }));
    await page.getByRole('button', { name: 'Send test to Orders backend' }).click();
    await expect.poll(() => result.textContent()).toContain('Failed');
    expect(await result.textContent()).toContain('503');
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });

    const row = page.getByRole('row', { name: /Orders backend/ });
    await page.getByRole('button', { name: 'Pause Orders backend' }).click();
    await expect.poll(() => row.textContent()).toContain('paused');
    const sub = (await live('/v1/webhook-subscriptions')).body.data[0];
    expect(sub.status).toBe('paused');
    await page.getByRole('button', { name: 'Resume Orders backend' }).click();
    await expect.poll(() => row.textContent()).toContain('active');

    await page.getByRole('button', { name: 'Delete Orders backend' }).click();
    await dialog().getByRole('button', { name: 'Delete endpoint' }).click();
    await page.getByTestId('empty-state').waitFor();
    expect((await live('/v1/webhook-subscriptions')).body.data).toEqual([]);
    expect(d.problems).toEqual([]);
  });
});
