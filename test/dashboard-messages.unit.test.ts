import { describe, expect, it } from 'vitest';
import { previewMessageInput } from '../src/services/messages/preview-message.ts';
import { MESSAGE_STATUSES as SERVICE_STATUSES } from '../src/services/messages/shapes.ts';
import { isMessageStatus, MESSAGE_STATUSES } from '../web/dashboard/src/pages/messages/status.ts';
import {
  parseVariables,
  SAMPLE_VARIABLES,
  sampleVariablesText,
  templateErrors,
  templatePayload,
} from '../web/dashboard/src/pages/messages/template-form.ts';

// Pure logic of the template editor (the page itself: dashboard-messages.test.ts).

describe('the template editor', () => {
  it('starts from sample variables the service accepts', () => {
    expect(parseVariables(sampleVariablesText())).toEqual({ ok: true, value: SAMPLE_VARIABLES });
    const parsed = previewMessageInput.safeParse({
      channel: 'email',
      body: 'x',
      variables: SAMPLE_VARIABLES,
    });
    expect(parsed.success).toBe(true);
  });

  it('names what is wrong with edited variables', () => {
    expect(parseVariables('')).toEqual({ ok: true, value: {} });
    expect(parseVariables('[1]')).toMatchObject({ ok: false, error: expect.stringContaining('JSON object') });
    expect(parseVariables('{"a":')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^not valid JSON/),
    });
  });

  it('sends no subject for SMS or a blank one', () => {
    expect(templatePayload({ key: 'k', channel: 'sms', subject: 'Hi', body: 'b' })).toEqual({
      channel: 'sms',
      subject: null,
      body: 'b',
    });
    expect(templatePayload({ key: 'k', channel: 'email', subject: '  ', body: 'b' }).subject).toBeNull();
    expect(
      templatePayload({ key: 'k', channel: 'email', subject: 'Hi {{participant.name}}', body: 'b' }).subject,
    ).toBe('Hi {{participant.name}}');
  });

  it('checks the form with the service’s input schema, naming each problem on its field', () => {
    const ok = { key: 'order.thanks', channel: 'email' as const, subject: 'Hi', body: '<p>x</p>' };
    expect(templateErrors(ok, true)).toEqual({});
    const bad = templateErrors({ ...ok, key: ' has space', subject: 'two\nlines', body: '' }, true);
    expect(bad.key).toBe('letters, digits and . _ : - only, starting with a letter or digit');
    expect(bad.subject).toBe('must be one line (no CR or LF)');
    expect(bad.body).toMatch(/>=1 characters/);
    // A saved template's key is fixed: only what can change is checked.
    expect(templateErrors({ ...ok, key: '' }, false)).toEqual({});
    expect(templateErrors({ ...ok, key: '', body: 'x'.repeat(100_001) }, false).body).toMatch(/<=100000/);
  });
});

describe('message statuses', () => {
  it('are the service’s own list, and only those pass the filter', () => {
    expect(MESSAGE_STATUSES).toBe(SERVICE_STATUSES);
    expect(MESSAGE_STATUSES.every(isMessageStatus)).toBe(true);
    expect(isMessageStatus('bounced')).toBe(false);
    expect(isMessageStatus(null)).toBe(false);
  });
});
