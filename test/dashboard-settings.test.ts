import { createHmac } from 'node:crypto';
import { isTRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipBrowser } from './browser.ts';
import { type Dashboard, openDashboard } from './dashboard-browser.ts';
import {
  dashboardClient,
  eventually,
  request,
  signedInDashboard,
  startTestApp,
  type TestApp,
} from './helpers.ts';

/** The tRPC error a call fails with: its CONTRACT 3 type and HTTP status. */
async function refusal(call: Promise<unknown>) {
  const err = await call.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e,
  );
  if (!isTRPCClientError(err)) throw err;
  const data = err.data as { type: string; httpStatus: number; errors?: { field: string }[] };
  return { type: data.type, status: data.httpStatus, fields: (data.errors ?? []).map((f) => f.field) };
}

describe('settings over tRPC: keys and users of the signed-in workspace only', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  it('lists keys with hints, never a plaintext, and mints, rotates and revokes inside its own workspace', async () => {
    const ws = await app.workspace();
    const other = await app.workspace();
    const dash = await signedInDashboard(app, ws);

    const created = await dash.keys.create.mutate({
      mode: 'test',
      name: 'Reader',
      abilities: ['events:read'],
    });
    expect(created.key).toMatch(/^svc_test_[A-Za-z0-9]{40}$/);
    expect(created).toMatchObject({ mode: 'test', name: 'Reader', abilities: ['events:read'] });
    expect((await request(app.url, '/v1/events', { key: created.key })).status).toBe(200);

    const { data } = await dash.keys.list.query();
    expect(data.map((k) => k.id)).toEqual(
      expect.arrayContaining([created.id, ws.keyIds.test, ws.keyIds.live]),
    );
    expect(data.map((k) => k.id)).not.toContain(other.keyIds.test);
    const listed = JSON.stringify(data);
    expect(listed).not.toContain(created.key);
    expect(listed).not.toContain(ws.keys.test);
    for (const k of data) expect(k).not.toHaveProperty('key');

    // Another workspace's key is not found, and keeps working.
    expect(await refusal(dash.keys.revoke.mutate({ id: other.keyIds.test }))).toMatchObject({
      type: 'not_found',
      status: 404,
    });
    expect(await refusal(dash.keys.rotate.mutate({ id: other.keyIds.live }))).toMatchObject({
      type: 'not_found',
    });
    expect((await other.api('/v1/participants')).status).toBe(200);

    const rotated = await dash.keys.rotate.mutate({ id: created.id });
    expect(rotated).toMatchObject({ revoked_id: created.id, mode: 'test', abilities: ['events:read'] });
    expect((await request(app.url, '/v1/events', { key: created.key })).status).toBe(401);
    expect((await request(app.url, '/v1/events', { key: rotated.key })).status).toBe(200);
    // Rotating a revoked key again is refused (the old key stays revoked).
    expect(await refusal(dash.keys.rotate.mutate({ id: created.id }))).toMatchObject({
      type: 'invalid_state',
    });

    expect(await dash.keys.revoke.mutate({ id: rotated.id })).toEqual({ id: rotated.id, revoked: true });
    expect((await request(app.url, '/v1/events', { key: rotated.key })).status).toBe(401);
  });

  it('refuses unknown abilities and malformed ids as validation errors', async () => {
    const dash = await signedInDashboard(app, await app.workspace());
    const bad = await refusal(
      dash.keys.create.mutate({ mode: 'test', abilities: ['root' as 'events:read'] }),
    );
    expect(bad).toMatchObject({ type: 'validation_error', status: 400 });
    expect(bad.fields[0]).toMatch(/^abilities/);
    expect(await refusal(dash.keys.revoke.mutate({ id: 'nope' }))).toMatchObject({
      type: 'validation_error',
    });
  });

  it('adds users with the password rules, refuses an existing e-mail, and never deletes oneself', async () => {
    const ws = await app.workspace();
    const dash = await signedInDashboard(app, ws);
    const me = await dash.auth.me.query();

    expect(
      await refusal(dash.users.create.mutate({ email: 'ana@example.com', password: 'short' })),
    ).toMatchObject({
      type: 'validation_error',
      fields: ['password'],
    });
    expect(
      await refusal(dash.users.create.mutate({ email: 'not-an-email', password: 'long enough pw' })),
    ).toMatchObject({
      type: 'validation_error',
      fields: ['email'],
    });
    const ana = await dash.users.create.mutate({ email: 'Ana@Example.com', password: 'long enough pw' });
    expect(ana.email).toBe('ana@example.com');
    // An existing login is refused, not given a new password.
    expect(
      await refusal(dash.users.create.mutate({ email: 'ana@example.com', password: 'another password' })),
    ).toMatchObject({ type: 'validation_error', fields: ['email'] });
    const anaDash = dashboardClient(app.url);
    await anaDash.client.auth.login.mutate({
      workspace: ws.slug,
      email: 'ana@example.com',
      password: 'long enough pw',
    });

    const { data } = await dash.users.list.query();
    expect(data.map((u) => [u.email, u.you])).toEqual([
      [me.email, true],
      ['ana@example.com', false],
    ]);
    expect(JSON.stringify(data)).not.toMatch(/scrypt|password/i);

    expect(await refusal(dash.users.delete.mutate({ id: me.id }))).toMatchObject({
      type: 'invalid_state',
      status: 409,
    });
    // Another workspace's user is not found.
    const otherWs = await app.workspace();
    const otherDash = await signedInDashboard(app, otherWs);
    const otherMe = await otherDash.auth.me.query();
    expect(await refusal(dash.users.delete.mutate({ id: otherMe.id }))).toMatchObject({ type: 'not_found' });

    expect(await dash.users.delete.mutate({ id: ana.id })).toEqual({ id: ana.id, email: 'ana@example.com' });
    // Her session ends with her login.
    expect(await refusal(anaDash.client.auth.me.query())).toMatchObject({ type: 'authentication_error' });
    expect((await dash.users.list.query()).data.map((u) => u.email)).toEqual([me.email]);
  });

  it('drops an event-type schema through tRPC; an unknown type is not found', async () => {
    const dash = await signedInDashboard(app, await app.workspace());
    await dash.eventTypes.putSchema.mutate({ mode: 'test', key: 'signup', schema: { type: 'object' } });
    const dropped = await dash.eventTypes.dropSchema.mutate({ mode: 'test', key: 'signup' });
    expect(dropped).toMatchObject({ key: 'signup', schema: null });
    expect(await refusal(dash.eventTypes.dropSchema.mutate({ mode: 'live', key: 'signup' }))).toMatchObject({
      type: 'not_found',
    });
  });
});

let d: Dashboard;

describe.skipIf(skipBrowser)('the settings pages in a real browser (Chromium)', () => {
  beforeAll(async () => {
    d = await openDashboard();
    await d.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: d.app.url });
  });
  afterAll(() => d?.close());

  const dialog = () => d.page.getByRole('dialog');
  const secretShown = async () => (await d.page.getByTestId('secret-value').textContent())?.trim() ?? '';
  const storage = () =>
    d.page.evaluate(() => JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage } }));

  it('mints a test key, copies it with the copy button, uses it over REST, then revokes it in the UI', async () => {
    const { page } = d;
    await d.goto('/settings');
    await page.getByRole('table', { name: 'API keys' }).waitFor();
    expect(page.url()).toBe(`${d.app.url}/dashboard/settings/keys`);
    await d.shot('settings-keys');
    await d.checkA11y();

    await page.getByRole('button', { name: 'Create key' }).click();
    await dialog().getByLabel('Name').fill('Checkout backend');
    await dialog().getByLabel(/^Test/).check();
    await dialog().getByLabel('All abilities').uncheck();
    await dialog().getByLabel('participants:read').check();
    await dialog().getByLabel('events:write').check();
    await d.page.waitForTimeout(400); // the dialog's opening transition
    await d.shot('settings-keys-create');
    await dialog().getByRole('button', { name: 'Create key' }).click();
    await page.getByTestId('shown-once').waitFor();
    await d.page.waitForTimeout(400); // the dialog's opening transition
    await d.shot('settings-keys-shown-once');

    await dialog().getByRole('button', { name: 'Copy' }).click();
    await dialog().getByRole('button', { name: 'Copied' }).waitFor();
    const key = await page.evaluate(() => navigator.clipboard.readText());
    expect(key).toMatch(/^svc_test_[A-Za-z0-9]{40}$/);
    expect(await secretShown()).toBe(key);

    expect((await request(d.app.url, '/v1/participants', { key })).status).toBe(200);
    // Only the abilities ticked: the event log needs events:read.
    expect((await request(d.app.url, '/v1/events', { key })).status).toBe(403);

    await dialog().getByRole('button', { name: 'Done' }).click();
    await dialog().waitFor({ state: 'detached' });
    expect(await page.getByText(key).count()).toBe(0);
    expect(await storage()).not.toContain(key);
    expect(await storage()).not.toContain(key.slice(9));

    const row = page.getByRole('row', { name: /Checkout backend/ });
    await expect.poll(() => row.textContent()).toContain('events:write, participants:read');
    expect(await row.textContent()).toContain('test');
    await page.getByRole('button', { name: 'Revoke Checkout backend' }).click();
    await dialog().getByRole('button', { name: 'Revoke key' }).click();
    await row.waitFor({ state: 'detached' });
    const refused = await request(d.app.url, '/v1/participants', { key });
    expect(refused.status).toBe(401);
    expect(refused.body.error.type).toBe('authentication_error');

    await page.getByLabel('Show revoked').check();
    await expect
      .poll(() => page.getByRole('row', { name: /Checkout backend/ }).textContent())
      .toContain('Revoked');
  });

  it('rotates a key: the new one is shown once and works, the old one is refused at once', async () => {
    const { page } = d;
    await page.getByRole('button', { name: 'Create key' }).click();
    await dialog().getByLabel('Name').fill('Rotating job');
    await dialog().getByRole('button', { name: 'Create key' }).click();
    await page.getByTestId('shown-once').waitFor();
    const oldKey = await secretShown();
    expect(oldKey).toMatch(/^svc_test_/);
    await dialog().getByRole('button', { name: 'Done' }).click();
    expect((await request(d.app.url, '/v1/events', { key: oldKey })).status).toBe(200);

    await page.getByRole('button', { name: 'Rotate Rotating job' }).click();
    await dialog().getByRole('button', { name: 'Rotate key' }).click();
    await page.getByTestId('shown-once').waitFor();
    await d.page.waitForTimeout(400); // the dialog's opening transition
    await d.shot('settings-keys-rotated');
    await dialog().getByRole('button', { name: 'Copy' }).click();
    const newKey = await page.evaluate(() => navigator.clipboard.readText());
    expect(newKey).toMatch(/^svc_test_[A-Za-z0-9]{40}$/);
    expect(newKey).not.toBe(oldKey);
    expect((await request(d.app.url, '/v1/events', { key: oldKey })).status).toBe(401);
    expect((await request(d.app.url, '/v1/events', { key: newKey })).status).toBe(200);
    await dialog().getByRole('button', { name: 'Done' }).click();
    await dialog().waitFor({ state: 'detached' });
    const kept = await storage();
    expect(kept).not.toContain(newKey);
    expect(kept).not.toContain(oldKey);
    expect(await page.content()).not.toContain(newKey);
  });

  it('creates an ingest endpoint (secret shown once) and deletes it', async () => {
    const { page } = d;
    await page.getByRole('tab', { name: 'Ingest endpoints' }).click();
    await page.getByTestId('empty-state').waitFor();
    expect(page.url()).toBe(`${d.app.url}/dashboard/settings/ingest`);
    await page.getByRole('button', { name: 'Create endpoint' }).click();
    await dialog().getByLabel(/^Name/).fill('Shop orders');
    await dialog().getByLabel('Default event type').fill('order.completed');
    await dialog().getByRole('button', { name: 'Create endpoint' }).click();
    await page.getByTestId('shown-once').waitFor();
    const secret = await secretShown();
    expect(secret).toMatch(/^whsec_/);
    await dialog().getByRole('button', { name: 'Done' }).click();
    const row = page.getByRole('row', { name: /Shop orders/ });
    await expect.poll(() => row.textContent()).toContain('order.completed');
    await page.getByRole('button', { name: 'Copy the ingest URL of Shop orders' }).click();
    const url = await page.evaluate(() => navigator.clipboard.readText());
    expect(url).toMatch(new RegExp(`^${d.app.url}/v1/ingest/ing_[A-Za-z0-9]{32}$`));
    // The secret shown once is the one the endpoint checks signatures with.
    const raw = JSON.stringify({ participant: 'dana', payload: { order_id: 'A-1' } });
    const t = Math.floor(Date.now() / 1000);
    const signature = `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${raw}`).digest('hex')}`;
    const ingestPath = url.slice(d.app.url.length);
    const accepted = await request(d.app.url, ingestPath, {
      raw,
      headers: { 'content-type': 'application/json', 'x-signature': signature },
    });
    expect(accepted.status).toBe(202);
    const forged = await request(d.app.url, ingestPath, {
      raw,
      // One hex digit changed (to another digit: a signature starting with 0 stays forged).
      headers: {
        'content-type': 'application/json',
        'x-signature': signature.replace(/v1=(.)/, (_, c: string) => `v1=${c === '0' ? '1' : '0'}`),
      },
    });
    expect(forged.status).toBe(401);
    expect(await storage()).not.toContain(secret);
    await d.shot('settings-ingest');
    await d.checkA11y();
    await page.getByRole('button', { name: 'Delete Shop orders' }).click();
    await dialog().getByRole('button', { name: 'Delete endpoint' }).click();
    await page.getByTestId('empty-state').waitFor();
  });

  it('sets an event-type schema in the JSON editor, and an event that fails it is quarantined', async () => {
    const { page } = d;
    await page.getByRole('tab', { name: 'Event types' }).click();
    // The event ingested above made the type known, without a schema.
    const row = page.getByRole('row', { name: /order\.completed/ });
    await expect.poll(() => row.textContent()).toContain('None');
    await page.getByRole('button', { name: 'Add schema', exact: true }).click();
    await dialog()
      .getByLabel(/^Event type/)
      .fill('order.completed');
    const editor = dialog().getByLabel(/^JSON Schema/);
    // The editor parses as it is typed: broken JSON is told before anything is sent.
    await editor.fill('{ "type": "object", ');
    await dialog()
      .getByText(/Not valid JSON/)
      .waitFor();
    expect(await dialog().getByRole('button', { name: 'Save schema' }).isDisabled()).toBe(true);
    await editor.fill('[1, 2]');
    await dialog().getByText('A JSON Schema is a JSON object ({ … })').waitFor();
    // Valid JSON that is not a valid JSON Schema: the service's refusal is shown.
    await editor.fill('{ "type": "nonsense" }');
    await dialog().getByRole('button', { name: 'Save schema' }).click();
    await dialog()
      .getByText(/not a valid JSON Schema/)
      .waitFor();
    await editor.fill(
      JSON.stringify(
        { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
        null,
        2,
      ),
    );
    await d.page.waitForTimeout(400); // the dialog's opening transition
    await d.shot('settings-event-types-editor');
    await dialog().getByRole('button', { name: 'Save schema' }).click();
    await dialog().waitFor({ state: 'detached' });
    await expect.poll(() => row.textContent()).toContain('JSON Schema');

    const sent = await d.ws.api('/v1/events', {
      body: { event_type: 'order.completed', participant: 'dana', payload: { order_id: 42 } },
    });
    expect(sent.status).toBe(202);
    const event = await eventually(async () => {
      const res = await d.ws.api(`/v1/events/${sent.body.event_id}`);
      return res.body.status === 'quarantined' ? res.body : null;
    });
    expect(event.quarantine_reason).toMatch(/order_id/);

    await page.reload();
    await row.waitFor();
    await d.shot('settings-event-types');
    await d.checkA11y();

    // Dropped: the next event of the type is no longer checked.
    await page.getByRole('button', { name: 'Drop schema of order.completed' }).click();
    await dialog().getByRole('button', { name: 'Drop schema' }).click();
    await expect.poll(() => row.textContent()).toContain('None');
    const next = await d.ws.api('/v1/events', {
      body: { event_type: 'order.completed', participant: 'dana', payload: { order_id: 43 } },
    });
    const processed = await eventually(async () => {
      const res = await d.ws.api(`/v1/events/${next.body.event_id}`);
      return res.body.status === 'processed' ? res.body : null;
    });
    expect(processed.quarantine_reason).toBeNull();
  });

  it('adds a dashboard user (with the password rules) who can sign in, and cannot delete oneself', async () => {
    const { page } = d;
    await page.getByRole('tab', { name: 'Dashboard users' }).click();
    const table = page.getByRole('table', { name: 'Dashboard users' });
    await table.waitFor();
    const mine = page.getByRole('row', { name: new RegExp(d.login.email) });
    expect(await mine.textContent()).toContain('You');
    expect(await mine.getByRole('button').count()).toBe(0);

    await page.getByLabel(/^E-mail/).fill('Bo@Example.com');
    await page.getByLabel(/^Password/).fill('short');
    await page.getByRole('button', { name: 'Add user' }).click();
    await page.getByText('At least 8 characters', { exact: true }).waitFor();
    await page.getByLabel(/^Password/).fill('bo has a long password');
    await page.getByRole('button', { name: 'Add user' }).click();
    const bo = page.getByRole('row', { name: /bo@example\.com/ });
    await bo.waitFor();
    await d.shot('settings-users');
    await d.checkA11y();

    // The new user really signs in.
    const client = dashboardClient(d.app.url).client;
    const who = await client.auth.login.mutate({
      workspace: d.ws.slug,
      email: 'bo@example.com',
      password: 'bo has a long password',
    });
    expect(who.email).toBe('bo@example.com');

    // A second add with the same e-mail is refused on the field.
    await page.getByLabel(/^E-mail/).fill('bo@example.com');
    await page.getByLabel(/^Password/).fill('some other password');
    await page.getByRole('button', { name: 'Add user' }).click();
    await page.getByText('a user with this e-mail already exists').first().waitFor();

    await page.getByRole('button', { name: 'Delete bo@example.com' }).click();
    await dialog().getByRole('button', { name: 'Delete user' }).click();
    await bo.waitFor({ state: 'detached' });
    expect(d.problems).toEqual([]);
  });
});
