import { describe, expect, it } from 'vitest';
import {
  ABILITIES,
  abilitiesLabel,
  abilitiesToSend,
  parseSchemaText,
  passwordProblem,
} from '../web/dashboard/src/pages/settings/logic.ts';

describe('the key form: abilities to send', () => {
  it('sends * for "All abilities", whatever is ticked', () => {
    expect(abilitiesToSend(true, [])).toEqual(['*']);
    expect(abilitiesToSend(true, ['events:read'])).toEqual(['*']);
  });
  it('never sends an empty list (the service would read it as *)', () => {
    expect(abilitiesToSend(false, [])).toBeNull();
    expect(abilitiesToSend(false, ['not:an-ability'])).toBeNull();
  });
  it('sends the known abilities ticked, in the catalogue order; every one ticked is *', () => {
    expect(abilitiesToSend(false, ['webhooks:read', 'events:read', 'bogus'])).toEqual([
      'events:read',
      'webhooks:read',
    ]);
    expect(abilitiesToSend(false, [...ABILITIES])).toEqual(['*']);
  });
  it('labels * as all abilities and lists the others', () => {
    expect(abilitiesLabel(['*'])).toBe('All abilities');
    expect(abilitiesLabel(['events:read', 'flows:read'])).toBe('events:read, flows:read');
  });
});

describe('the password rules of svc users create', () => {
  it('asks for 8 to 200 characters', () => {
    expect(passwordProblem('')).toBe('At least 8 characters');
    expect(passwordProblem('1234567')).toBe('At least 8 characters');
    expect(passwordProblem('12345678')).toBeNull();
    expect(passwordProblem('x'.repeat(200))).toBeNull();
    expect(passwordProblem('x'.repeat(201))).toBe('At most 200 characters');
  });
});

describe('the JSON Schema editor', () => {
  it('accepts a JSON object', () => {
    expect(parseSchemaText('{ "type": "object", "required": ["id"] }')).toEqual({
      ok: true,
      schema: { type: 'object', required: ['id'] },
    });
  });
  it('tells an empty editor, broken JSON, arrays, null and scalars apart', () => {
    expect(parseSchemaText('  ')).toEqual({ ok: false, error: 'Enter a JSON Schema' });
    const broken = parseSchemaText('{ "type": ');
    expect(broken.ok).toBe(false);
    expect(!broken.ok && broken.error).toMatch(/^Not valid JSON: /);
    for (const text of ['[]', 'null', '42', '"object"', 'true'])
      expect(parseSchemaText(text)).toEqual({ ok: false, error: 'A JSON Schema is a JSON object ({ … })' });
  });
});
