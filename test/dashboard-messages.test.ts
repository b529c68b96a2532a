import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipBrowser } from './browser.ts';
import { type Dashboard, openDashboard } from './dashboard-browser.ts';
import { eventually, signedInDashboard, startTestApp, type TestApp } from './helpers.ts';

// The messages page in real Chromium (templates with the service-rendered preview, the log), and
// messages.preview over tRPC: the renderer sends use, never the browser's.

let d: Dashboard;
beforeAll(async () => {
  if (!skipBrowser) d = await openDashboard();
});
afterAll(() => d?.close());

describe('messages.preview (tRPC)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  it('renders with the sending renderer: e-mail values HTML-escaped, subject on one line, tokens never evaluated', async () => {
    const ws = await app.workspace();
    const client = await signedInDashboard(app, ws);
    const email = await client.messages.preview.mutate({
      channel: 'email',
      subject: 'Hi {{participant.name}}',
      body: '<p>Hello {{participant.name}}, you have {{participant.balance}} points for {{payload.order.id}}{{nope}}</p>',
      variables: {
        participant: { name: '<b>Ada</b>\r\nBcc: x@evil.example', balance: 1250 },
        payload: { order: { id: '{{participant.email}}' } },
      },
    });
    expect(email.subject).toBe('Hi <b>Ada</b> Bcc: x@evil.example');
    expect(email.body).toBe(
      '<p>Hello &lt;b&gt;Ada&lt;/b&gt;\r\nBcc: x@evil.example, you have 1250 points for {{participant.email}}</p>',
    );
    const sms = await client.messages.preview.mutate({
      channel: 'sms',
      body: 'Hi {{participant.name}} <3 ({{event.type}})',
      variables: { participant: { name: 'Ada' }, event: { type: 'order.completed' } },
    });
    expect(sms).toEqual({ subject: null, body: 'Hi Ada <3 (order.completed)' });
  });

  it('refuses malformed variables with field errors, and callers without a session', async () => {
    const ws = await app.workspace();
    const client = await signedInDashboard(app, ws);
    await expect(
      client.messages.preview.mutate({
        channel: 'email',
        body: 'x',
        variables: { participant: { balance: 'lots' } } as never,
      }),
    ).rejects.toMatchObject({ data: { type: 'validation_error' } });
    const res = await fetch(`${app.url}/trpc/messages.preview`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: app.url },
      body: JSON.stringify({ channel: 'sms', body: 'x' }),
    });
    expect(res.status).toBe(401);
  });
});

/** Closes the toasts, so a screenshot shows the page under them. */
async function dismissNotifications() {
  const close = d.page.getByRole('button', { name: 'Dismiss notification' });
  for (const button of await close.all()) await button.click({ timeout: 2_000 }).catch(() => {});
  await expect.poll(() => close.count()).toBe(0);
}

/** Picks an option of a segmented control (its radio is visually hidden behind the label). */
const segment = (label: string) =>
  d.page.locator('.mantine-SegmentedControl-label', { hasText: new RegExp(`^${label}$`) }).click();

describe.skipIf(skipBrowser)('messages page (Chromium)', () => {
  it('shows empty states, then creates a template with a service-rendered preview', async () => {
    const { page } = d;
    await d.setMode('test');
    await d.goto('/messages');
    await page.getByText('No templates yet').waitFor();
    await page.getByRole('link', { name: 'New template' }).click();
    // The form checks what it sends with the service's own schema, beside each input, first.
    await page.getByLabel(/^Key/).fill('order thanks');
    await page.getByRole('button', { name: 'Create template' }).click();
    await expect.poll(() => page.getByLabel(/^Key/).getAttribute('aria-invalid')).toBe('true');
    await page.getByText('letters, digits and . _ : - only, starting with a letter or digit').waitFor();
    expect(await page.getByLabel(/^Body/).getAttribute('aria-invalid')).toBe('true');
    await d.shot('message-template-errors');
    await page.getByLabel(/^Key/).fill('order.thanks');
    await expect.poll(() => page.getByLabel(/^Key/).getAttribute('aria-invalid')).not.toBe('true');
    await page.getByLabel(/^Subject/).fill('Thanks, {{participant.name}}');
    await page
      .getByLabel(/^Body/)
      .fill(
        '<h1>Thank you {{participant.name}}</h1><p>Order {{payload.order_id}}: {{participant.balance}} points.</p>',
      );
    // The preview comes from the service with the default sample variables…
    await expect
      .poll(() => page.getByTestId('preview-subject').textContent())
      .toBe('Subject: Thanks, Ada Lovelace');
    // …and follows the sample variables the user edits (values HTML-escaped as in a real send).
    await page
      .getByLabel('Sample variables')
      .fill(
        JSON.stringify({ participant: { name: 'Bob <Admin>', balance: 7 }, payload: { order_id: 'Z-9' } }),
      );
    await expect
      .poll(() => page.getByTestId('preview-subject').textContent())
      .toBe('Subject: Thanks, Bob <Admin>');
    await segment('HTML');
    await expect
      .poll(() => page.getByTestId('preview-body').textContent())
      .toBe('<h1>Thank you Bob &lt;Admin&gt;</h1><p>Order Z-9: 7 points.</p>');
    // The rendered view is the HTML itself, in a sandboxed frame.
    await segment('Rendered');
    const frame = page.frameLocator('iframe[title="Rendered e-mail preview"]');
    await expect.poll(() => frame.locator('h1').textContent()).toBe('Thank you Bob <Admin>');
    await dismissNotifications();
    await d.shot('message-template');
    await d.checkA11y();
    // Broken JSON is named on its field and the preview waits for it.
    await page.getByLabel('Sample variables').fill('{ "participant": ');
    await page.getByText('Fix the sample variables to update the preview.').waitFor();
    await page.getByLabel('Sample variables').fill('{}');
    await page.getByRole('button', { name: 'Create template' }).click();
    await page.getByRole('heading', { name: 'order.thanks', level: 2 }).waitFor();
    const saved = await d.ws.api('/v1/message-templates/order.thanks');
    expect(saved.body).toMatchObject({
      key: 'order.thanks',
      channel: 'email',
      subject: 'Thanks, {{participant.name}}',
    });
  });

  it('edits a template: SMS has no subject, and the saved body is what was typed', async () => {
    const { page } = d;
    await segment('SMS');
    expect(await page.getByLabel(/^Subject/).count()).toBe(0);
    await page.getByLabel(/^Body/).fill('Thanks {{participant.name}}! Balance: {{participant.balance}}');
    await expect
      .poll(() => page.getByTestId('preview-body').textContent())
      .toBe('Thanks Ada Lovelace! Balance: 1250');
    await page.getByRole('button', { name: 'Save template' }).click();
    await page.getByText('Template “order.thanks” saved').waitFor();
    const saved = await d.ws.api('/v1/message-templates/order.thanks');
    expect(saved.body).toMatchObject({
      channel: 'sms',
      subject: null,
      body: 'Thanks {{participant.name}}! Balance: {{participant.balance}}',
    });
  });

  it('lists templates, and the message log of a flow that sends the template (paged, by status)', async () => {
    const { page } = d;
    const flow = await d.ws.api('/v1/flows', {
      body: {
        name: 'Thank-you SMS',
        event_type: 'order.completed',
        actions: [{ type: 'send_message', template: 'order.thanks' }],
      },
    });
    expect(flow.status, flow.text).toBe(201);
    // 3 participants with a phone (simulated: test mode never sends) and 1 without (skipped).
    const people = [
      { external_id: 'sms-1', name: 'Ada', phone: '+15550001' },
      { external_id: 'sms-2', name: 'Bob', phone: '+15550002' },
      { external_id: 'sms-3', name: 'Cy', phone: '+15550003' },
      { external_id: 'no-phone', name: 'Dee' },
    ];
    for (const participant of people) {
      const res = await d.ws.api('/v1/events', {
        body: {
          event_type: 'order.completed',
          participant,
          idempotency_key: `order-${participant.external_id}`,
        },
      });
      expect(res.status).toBe(202);
    }
    await eventually(async () => {
      const r = await d.ws.api('/v1/messages');
      return (r.body as { data: unknown[] }).data.length === 4;
    }, 20_000);

    await page.getByRole('link', { name: '← All templates' }).click();
    const templates = page.getByRole('table', { name: 'Message templates' });
    await templates.waitFor();
    expect(await templates.textContent()).toContain('order.thanks');
    await dismissNotifications();
    await d.shot('messages');
    await d.checkA11y();

    await page.getByRole('tab', { name: 'Message log' }).click();
    expect(page.url()).toBe(`${d.app.url}/dashboard/messages/log`);
    const log = page.getByRole('table', { name: 'Message log' });
    await log.waitFor();
    await expect.poll(() => log.getByRole('row').count()).toBe(5);
    expect(await log.textContent()).toContain('+15550002');
    await page.getByLabel('Status').first().click();
    await page.getByRole('option', { name: 'Skipped' }).click();
    await expect.poll(() => log.getByRole('row').count()).toBe(2);
    expect(await log.textContent()).toContain('no-phone');
    // A row opens the message as it was rendered.
    await page.getByLabel('Status').first().click();
    await page.getByRole('option', { name: 'Simulated' }).click();
    await expect.poll(() => log.getByRole('row').count()).toBe(4);
    await log.getByRole('row').filter({ hasText: 'sms-2' }).click();
    await expect.poll(() => page.getByRole('dialog').textContent()).toContain('Thanks Bob! Balance: 0');
    await page.waitForTimeout(400); // the dialog's fade-in, for the screenshot only
    await d.shot('messages-log');
    await d.checkA11y();
    expect(d.problems).toEqual([]);
  }, 60_000);
});
