/** The template editor's pure logic: sample variables, the form as the service takes it, and its checks. */
import type { inferRouterOutputs } from '@trpc/server';
import type { Channel } from '../../../../../src/services/messages/shapes.ts';
import {
  createTemplateInput,
  updateTemplateInput,
} from '../../../../../src/services/messages/template-input.ts';
import type { AppRouter } from '../../../../../src/trpc/router.ts';
import { zodFieldErrors } from '../../components/formErrors.ts';

type Outputs = inferRouterOutputs<AppRouter>['messages'];
export type Template = Outputs['templates']['get'];
export type Message = Outputs['list']['data'][number];
export type { Channel };

export interface TemplateFormValues {
  key: string;
  channel: Channel;
  subject: string;
  body: string;
}

/** What a flow would pass: edit it to see the preview change. */
export const SAMPLE_VARIABLES = {
  participant: {
    external_id: 'cust_42',
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    phone: '+44 20 7946 0000',
    balance: 1250,
    lifetime_points: 4200,
  },
  event: { type: 'order.completed', occurred_at: '2026-01-01T12:00:00Z' },
  payload: { order_id: 'A-1001', total: 59.9 },
};

export const sampleVariablesText = () => JSON.stringify(SAMPLE_VARIABLES, null, 2);

/** The tokens a template can use, for the editor's hint list. */
export const TOKENS = [
  '{{participant.name}}',
  '{{participant.email}}',
  '{{participant.external_id}}',
  '{{participant.balance}}',
  '{{participant.lifetime_points}}',
  '{{event.type}}',
  '{{payload.<path>}}',
];

/** The sample variables typed by the user: an object, or what is wrong with it. */
export function parseVariables(
  text: string,
): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  if (!text.trim()) return { ok: true, value: {} };
  try {
    const value: unknown = JSON.parse(text);
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      return {
        ok: false,
        error: 'must be a JSON object: { "participant": {…}, "payload": {…}, "event": {…} }',
      };
    return { ok: true, value: value as Record<string, unknown> };
  } catch (e) {
    return { ok: false, error: `not valid JSON: ${(e as Error).message}` };
  }
}

/** The form as `templates.create` / `templates.update` take it: SMS sends no subject, blank = none. */
export function templatePayload(v: TemplateFormValues): {
  channel: Channel;
  subject: string | null;
  body: string;
} {
  return {
    channel: v.channel,
    subject: v.channel === 'email' && v.subject.trim() !== '' ? v.subject : null,
    body: v.body,
  };
}

/** The fields the editor shows errors beside. */
export type TemplateField = keyof TemplateFormValues;

/**
 * The form checked with the schema the service parses it with (`createTemplateInput`, or
 * `updateTemplateInput` for a saved template whose key is fixed): the first message per field.
 */
export function templateErrors(
  v: TemplateFormValues,
  creating: boolean,
): Partial<Record<TemplateField, string>> {
  const errors = creating
    ? zodFieldErrors(createTemplateInput, { key: v.key.trim(), ...templatePayload(v) })
    : zodFieldErrors(updateTemplateInput, templatePayload(v));
  const out: Partial<Record<TemplateField, string>> = {};
  for (const [field, message] of Object.entries(errors)) {
    const name = field.split('.')[0] as TemplateField;
    out[name] ??= message;
  }
  return out;
}
