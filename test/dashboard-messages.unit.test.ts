import { describe, expect, it } from 'vitest';
import { previewMessageInput } from '../src/services/messages/preview-message.ts';
import {
  parseVariables,
  SAMPLE_VARIABLES,
  sampleVariablesText,
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
});
